"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { UserRole } from "@/db/schema";
import { CopyField } from "./copy-field";
import { callApi, fieldProblem, formatTime, generalMessage, peopleKeys, ROLES, type UserRow } from "./people-api";

interface Created {
  user: UserRow;
  invite?: { url: string; expiresAt: string };
}

const FIELDS = ["username", "role", "password"] as const;
type Field = (typeof FIELDS)[number];
const fieldId = (f: Field) => `new-user-${f}`;
const errorId = (f: Field) => `new-user-${f}-error`;

/** Every account, and the form that creates one (with a password, or with an invite link to set it). */
export function UsersSection({ initialUsers }: { initialUsers: UserRow[] }) {
  const queryClient = useQueryClient();
  const users = useQuery({
    queryKey: peopleKeys.users(),
    queryFn: () => callApi<{ users: UserRow[] }>("GET", "/api/users").then((d) => d.users),
    initialData: initialUsers,
  });

  const [username, setUsername] = useState("");
  const [role, setRole] = useState<UserRole>("annotator");
  const [password, setPassword] = useState("");

  const create = useMutation({
    mutationFn: () => callApi<Created>("POST", "/api/users", { username, role, ...(password ? { password } : {}) }),
    onSuccess: () => {
      setUsername("");
      setPassword("");
      void queryClient.invalidateQueries({ queryKey: peopleKeys.users() });
    },
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };

  const problem = (f: Field) => fieldProblem(create.error, f);
  const fieldError = (f: Field) =>
    problem(f) ? (
      <span className="field-error" id={errorId(f)}>
        {problem(f)}
      </span>
    ) : null;
  const invalid = (f: Field) => (problem(f) ? { "aria-invalid": true as const, "aria-describedby": errorId(f) } : {});
  const general = generalMessage(create.error, FIELDS);
  const created = create.data;

  return (
    <section className="card people-section" aria-labelledby="users-heading">
      <h2 id="users-heading" className="card-title">
        Users
      </h2>
      {users.data.length === 0 ? (
        <p className="muted">No account yet.</p>
      ) : (
        <div className="table-scroll">
          <table className="data" aria-label="Users">
            <thead>
              <tr>
                <th scope="col">Username</th>
                <th scope="col">Role</th>
                <th scope="col">Password</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {users.data.map((u) => (
                <tr key={u.id}>
                  <td>{u.username}</td>
                  <td>{u.role}</td>
                  <td>{u.hasPassword ? "set" : <span className="muted">not set yet</span>}</td>
                  <td>
                    <time dateTime={u.createdAt}>{formatTime(u.createdAt)}</time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {users.isError && (
        <p className="error" role="alert">
          The list could not be refreshed: {users.error.message}
        </p>
      )}

      <h3 className="subhead">Create a user</h3>
      <form className="inline-form" onSubmit={submit} aria-label="Create a user" noValidate>
        <div className="field">
          <label htmlFor={fieldId("username")}>Username</label>
          <input
            id={fieldId("username")}
            name="username"
            autoComplete="off"
            required
            maxLength={64}
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            {...invalid("username")}
          />
          {fieldError("username")}
        </div>
        <div className="field">
          <label htmlFor={fieldId("role")}>Role</label>
          <select id={fieldId("role")} name="role" value={role} onChange={(e) => setRole(e.target.value as UserRole)} {...invalid("role")}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
          {fieldError("role")}
        </div>
        <div className="field">
          <label htmlFor={fieldId("password")}>
            <span>
              Password <span className="hint">(optional)</span>
            </span>
          </label>
          <input
            id={fieldId("password")}
            name="password"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            {...invalid("password")}
            aria-describedby={[problem("password") ? errorId("password") : "", "new-user-password-hint"].filter(Boolean).join(" ")}
          />
          <span className="hint" id="new-user-password-hint">
            At least 8 characters. Leave empty to get an invite link instead.
          </span>
          {fieldError("password")}
        </div>
        <div className="form-actions">
          <button type="submit" disabled={create.isPending}>
            {create.isPending ? "Creating…" : "Create user"}
          </button>
        </div>
      </form>

      {general && (
        <p className="error" role="alert">
          {general}
        </p>
      )}
      {created && !create.isPending && !create.isError && (
        <div className="result">
          <p className="ok-note result-title" role="status">
            Created {created.user.role} <strong>{created.user.username}</strong>
            {created.invite ? " without a password." : "."}
          </p>
          {created.invite && (
            <>
              <p id="user-invite-hint" className="hint">
                Send this link to {created.user.username}: it sets their password, works once and expires{" "}
                <time dateTime={created.invite.expiresAt}>{formatTime(created.invite.expiresAt)}</time>. It is not shown again.
              </p>
              <CopyField label={`Invite link for ${created.user.username}`} value={created.invite.url} describedBy="user-invite-hint" />
            </>
          )}
        </div>
      )}
    </section>
  );
}

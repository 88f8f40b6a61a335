"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { CopyField } from "@/components/ui/copy-field";
import { ACTIONS, DataTable } from "@/components/ui/data-table";
import { FormField } from "@/components/ui/form-field";
import { ResultBlock } from "@/components/ui/result-block";
import { StatusBadge } from "@/components/ui/status-badge";
import { PasswordInput, TextInput } from "@/components/ui/text-input";
import type { UserRole } from "@/lib/auth/roles.contract";
import { formatTime } from "@/lib/format";
import { fieldProblem } from "@/components/api/client";
import { createUser, peopleKeys, usersQuery, type CreatedUser, type UserPage, type UserRow } from "@/components/api/people";
import { CreateForm } from "./create-form";
import { PagedRows, SearchBox, useSearchedList } from "./list-controls";
import { PeopleSection } from "./people-section";
import { RoleField } from "./role-field";
import { useUserActions } from "./user-actions";

const FIELDS = ["username", "role", "password"] as const;

/** Accounts newest first, a page at a time, searchable by username; and the form that creates one (with a password, or with an invite link to set it). */
export function UsersSection({ initialPage, currentUserId }: { initialPage: UserPage; currentUserId: number }) {
  const users = useSearchedList(usersQuery, initialPage);
  return (
    <PeopleSection
      id="users"
      title="Users"
      intro="Newest first. Disabling an account signs it out everywhere and revokes its API tokens at once; its judgments stay and keep counting (pause the annotator on a campaign to stop that)."
    >
      <SearchBox id="users-search" landmark="Users" label="Search users" placeholder="a part of the username" {...users.searchBox} />
      <PagedRows paged={users} rows={users.list.data?.users ?? []} none="No account yet." noMatch="No account matches" what="users">
        {(shown) => <UserTable users={shown} currentUserId={currentUserId} />}
      </PagedRows>
      <h3 className="subhead">Create a user</h3>
      <CreateUserForm />
    </PeopleSection>
  );
}

function UserTable({ users, currentUserId }: { users: UserRow[]; currentUserId: number }) {
  const { actionsFor, panel } = useUserActions(currentUserId);
  return (
    <>
      <DataTable label="Users" columns={["Username", "Role", "Password", "Created", "State", ACTIONS]}>
        {users.map((u) => (
          <tr key={u.id}>
            <td>{u.username}</td>
            <td>{u.role}</td>
            <td>{u.hasPassword ? "set" : <span className="muted">not set yet</span>}</td>
            <td>
              <time dateTime={u.createdAt}>{formatTime(u.createdAt)}</time>
            </td>
            <td>{u.disabledAt ? <StatusBadge tone="closed">disabled</StatusBadge> : <StatusBadge tone="launched">active</StatusBadge>}</td>
            <td className="num">
              <div className="row-actions">{actionsFor(u)}</div>
            </td>
          </tr>
        ))}
      </DataTable>
      {panel}
    </>
  );
}

function CreateUserForm() {
  const queryClient = useQueryClient();
  const [username, setUsername] = useState("");
  const [role, setRole] = useState<UserRole>("annotator");
  const [password, setPassword] = useState("");
  const create = useMutation({
    mutationFn: () => createUser({ username, role, ...(password ? { password } : {}) }),
    onSuccess: () => {
      setUsername("");
      setPassword("");
      void queryClient.invalidateQueries({ queryKey: peopleKeys.users() });
    },
  });
  const problem = (f: (typeof FIELDS)[number]) => fieldProblem(create.error, f);

  return (
    <>
      <CreateForm label="Create a user" submitLabel="Create user" mutation={create} fields={FIELDS} onSubmit={() => create.mutate()}>
        <FormField id="new-user-username" label="Username" error={problem("username")}>
          {(p) => <TextInput {...p} name="username" autoComplete="off" required maxLength={64} value={username} onChange={setUsername} />}
        </FormField>
        <RoleField id="new-user-role" value={role} onChange={setRole} error={problem("role")} />
        <FormField
          id="new-user-password"
          label={
            <span>
              Password <span className="hint">(optional)</span>
            </span>
          }
          hint="At least 8 characters. Leave empty to get an invite link instead."
          error={problem("password")}
        >
          {(p) => <PasswordInput {...p} name="password" autoComplete="new-password" value={password} onChange={setPassword} />}
        </FormField>
      </CreateForm>
      {create.data && !create.isPending && !create.isError && <CreatedUserResult created={create.data} />}
    </>
  );
}

function CreatedUserResult({ created: { user, invite } }: { created: CreatedUser }) {
  return (
    <ResultBlock
      title={
        <>
          Created {user.role} <strong>{user.username}</strong>
          {invite ? " without a password." : "."}
        </>
      }
    >
      {invite && (
        <>
          <p id="user-invite-hint" className="hint">
            Send this link to {user.username}: it sets their password, works once and expires{" "}
            <time dateTime={invite.expiresAt}>{formatTime(invite.expiresAt)}</time>. It is not shown again.
          </p>
          <CopyField label={`Invite link for ${user.username}`} value={invite.url} describedBy="user-invite-hint" />
        </>
      )}
    </ResultBlock>
  );
}

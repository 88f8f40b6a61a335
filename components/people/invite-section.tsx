"use client";

import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { UserRole } from "@/db/schema";
import { CopyField } from "./copy-field";
import { callApi, fieldProblem, formatTime, generalMessage, ROLES } from "./people-api";

interface CreatedInvite {
  invite: { url: string; role: UserRole; expiresAt: string };
}

const FIELDS = ["role", "expiresInHours"] as const;
type Field = (typeof FIELDS)[number];
const fieldId = (f: Field) => `invite-${f}`;
const errorId = (f: Field) => `invite-${f}-error`;

/** An open invite link: whoever opens it chooses a username and password, once, before it expires. */
export function InviteSection() {
  const [role, setRole] = useState<UserRole>("annotator");
  const [hours, setHours] = useState("72");

  const create = useMutation({
    mutationFn: () => {
      const n = hours.trim() === "" ? null : Number(hours);
      return callApi<CreatedInvite>("POST", "/api/invites", { role, expiresInHours: n });
    },
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };

  const problem = (f: Field) => fieldProblem(create.error, f);
  const describedBy = (f: Field, hint?: string) => [hint ?? "", problem(f) ? errorId(f) : ""].filter(Boolean).join(" ") || undefined;
  const fieldError = (f: Field) =>
    problem(f) ? (
      <span className="field-error" id={errorId(f)}>
        {problem(f)}
      </span>
    ) : null;
  const general = generalMessage(create.error, FIELDS);
  const invite = create.data?.invite;

  return (
    <section className="card people-section" aria-labelledby="invites-heading">
      <h2 id="invites-heading" className="card-title">
        Invite links
      </h2>
      <p className="hint intro-hint">
        A link for someone who has no account yet: they choose their username and password. Each link works once.
      </p>
      <form className="inline-form" onSubmit={submit} aria-label="Create an invite link" noValidate>
        <div className="field">
          <label htmlFor={fieldId("role")}>Role</label>
          <select
            id={fieldId("role")}
            name="role"
            value={role}
            onChange={(e) => setRole(e.target.value as UserRole)}
            aria-invalid={problem("role") ? true : undefined}
            aria-describedby={describedBy("role")}
          >
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
          {fieldError("role")}
        </div>
        <div className="field">
          <label htmlFor={fieldId("expiresInHours")}>Expires after (hours)</label>
          <input
            id={fieldId("expiresInHours")}
            name="expiresInHours"
            type="number"
            inputMode="numeric"
            min={1}
            max={720}
            step={1}
            value={hours}
            onChange={(e) => setHours(e.target.value)}
            aria-invalid={problem("expiresInHours") ? true : undefined}
            aria-describedby={describedBy("expiresInHours", "invite-hours-hint")}
          />
          <span className="hint" id="invite-hours-hint">
            1 to 720 (30 days).
          </span>
          {fieldError("expiresInHours")}
        </div>
        <div className="form-actions">
          <button type="submit" disabled={create.isPending}>
            {create.isPending ? "Creating…" : "Create invite link"}
          </button>
        </div>
      </form>

      {general && (
        <p className="error" role="alert">
          {general}
        </p>
      )}
      {invite && !create.isPending && !create.isError && (
        <div className="result">
          <p className="ok-note result-title" role="status">
            Invite link for a new {invite.role} created.
          </p>
          <p id="invite-link-hint" className="hint">
            It works once and expires <time dateTime={invite.expiresAt}>{formatTime(invite.expiresAt)}</time>. Copy it now: it is not shown again.
          </p>
          <CopyField label="Invite link" value={invite.url} describedBy="invite-link-hint" />
        </div>
      )}
    </section>
  );
}

"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { CopyField } from "@/components/ui/copy-field";
import { ErrorAlert, FormField } from "@/components/ui/form-field";
import { ResultBlock } from "@/components/ui/result-block";
import { useRowConfirm } from "@/components/ui/row-confirm";
import { PasswordInput } from "@/components/ui/text-input";
import { formatTime } from "@/lib/format";
import { fieldProblem } from "@/components/api/client";
import {
  createResetLink,
  disableUser,
  enableUser,
  peopleKeys,
  setUserPassword,
  type ResetLink,
  type UserRow,
} from "@/components/api/people";
import { CreateForm } from "./create-form";

/**
 * The row actions of the Users table — disable (confirmed) or enable, a password reset link, set a
 * password — and the panel below the table that shows what they made (a link, a password form).
 */
export function useUserActions(currentUserId: number): { actionsFor: (u: UserRow) => ReactNode; panel: ReactNode } {
  const queryClient = useQueryClient();
  const confirm = useRowConfirm();
  const [passwordFor, setPasswordFor] = useState<UserRow | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: peopleKeys.users() });
  const toggle = useMutation({
    mutationFn: (u: UserRow) => (u.disabledAt ? enableUser(u.id) : disableUser(u.id)),
    onSuccess: confirm.done,
    onSettled: refresh,
  });
  const reset = useMutation({ mutationFn: (u: UserRow) => createResetLink(u.id) });
  const busy = toggle.isPending || reset.isPending;

  const actionsFor = (u: UserRow) => {
    if (u.id === currentUserId) return <span className="hint">you</span>;
    const asking = confirm.confirmFor(
      u.id,
      { question: "Sign them out and refuse them?", verb: "disable", name: u.username, kept: "enabled" },
      busy,
      () => toggle.mutate(u),
    );
    if (asking) return asking;
    const button = (label: string, aria: string, onClick: () => void) => (
      <button type="button" className="secondary" disabled={busy} aria-label={aria} onClick={onClick}>
        {label}
      </button>
    );
    return (
      <>
        {u.disabledAt
          ? button("Enable", `Enable ${u.username}`, () => toggle.mutate(u))
          : button("Disable", `Disable ${u.username}`, () => (toggle.reset(), confirm.ask(u.id)))}
        {!u.disabledAt && button("Reset link", `Password reset link for ${u.username}`, () => (setPasswordFor(null), reset.mutate(u)))}
        {button("Set password", `Set a password for ${u.username}`, () => (reset.reset(), setPasswordFor(u)))}
      </>
    );
  };

  const panel = (
    <>
      <ErrorAlert>
        {toggle.isError && `${toggle.variables?.disabledAt ? "Enable" : "Disable"} ${toggle.variables?.username}: ${toggle.error.message}`}
      </ErrorAlert>
      <ErrorAlert>{reset.isError && `Reset link for ${reset.variables?.username}: ${reset.error.message}`}</ErrorAlert>
      {reset.data && !reset.isPending && <ResetLinkResult link={reset.data.resetLink} onDone={() => reset.reset()} />}
      {passwordFor && <SetPasswordForm key={passwordFor.id} user={passwordFor} onDone={() => setPasswordFor(null)} />}
    </>
  );
  return { actionsFor, panel };
}

function ResetLinkResult({ link, onDone }: { link: ResetLink["resetLink"]; onDone: () => void }) {
  return (
    <ResultBlock
      title={
        <>
          Password reset link for <strong>{link.username}</strong>
        </>
      }
    >
      <p id="reset-link-hint" className="hint">
        Send it to {link.username}: it sets a new password and signs them out everywhere, works once and expires{" "}
        <time dateTime={link.expiresAt}>{formatTime(link.expiresAt)}</time>. It is not shown again.
      </p>
      <CopyField label={`Reset link for ${link.username}`} value={link.url} describedBy="reset-link-hint" />
      <div className="form-actions">
        <button type="button" className="secondary" onClick={onDone}>
          Done, hide the link
        </button>
      </div>
    </ResultBlock>
  );
}

function SetPasswordForm({ user, onDone }: { user: UserRow; onDone: () => void }) {
  const [password, setPassword] = useState("");
  const set = useMutation({ mutationFn: () => setUserPassword(user.id, password) });
  return (
    <ResultBlock
      title={
        <>
          New password for <strong>{user.username}</strong>
        </>
      }
    >
      {set.isSuccess ? (
        <p role="status">
          Password of {user.username} set; {set.data.sessionsEnded === 1 ? "1 session" : `${set.data.sessionsEnded} sessions`} ended.
        </p>
      ) : (
        <CreateForm
          label={`Set a password for ${user.username}`}
          submitLabel="Set password"
          mutation={set}
          fields={["password"]}
          onSubmit={() => set.mutate()}
        >
          <FormField
            id="set-password"
            label="New password"
            hint="At least 8 characters. Their sessions end."
            error={fieldProblem(set.error, "password")}
          >
            {(p) => <PasswordInput {...p} name="password" autoComplete="new-password" value={password} onChange={setPassword} />}
          </FormField>
        </CreateForm>
      )}
      <div className="form-actions">
        <button type="button" className="secondary" onClick={onDone}>
          {set.isSuccess ? "Done" : "Cancel"}
        </button>
      </div>
    </ResultBlock>
  );
}

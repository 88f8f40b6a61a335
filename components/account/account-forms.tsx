"use client";

import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ErrorAlert, FormField, SubmitButton } from "@/components/ui/form-field";
import { PasswordInput } from "@/components/ui/text-input";
import { fieldProblem, generalMessage } from "@/components/api/client";
import { changeOwnPassword, signOutEverywhere } from "@/components/api/people";

const FIELDS = ["currentPassword", "newPassword"] as const;

/** The current password and a new one (the server checks both and names the wrong field). */
export function ChangePasswordForm() {
  const [currentPassword, setCurrent] = useState("");
  const [newPassword, setNew] = useState("");
  const change = useMutation({
    mutationFn: () => changeOwnPassword({ currentPassword, newPassword }),
    onSuccess: () => {
      setCurrent("");
      setNew("");
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    change.mutate();
  };
  return (
    <>
      <form className="inline-form" aria-label="Change your password" onSubmit={submit} noValidate>
        <FormField id="current-password" label="Current password" error={fieldProblem(change.error, "currentPassword")}>
          {(p) => (
            <PasswordInput {...p} name="currentPassword" autoComplete="current-password" value={currentPassword} onChange={setCurrent} />
          )}
        </FormField>
        <FormField id="new-password" label="New password" hint="At least 8 characters." error={fieldProblem(change.error, "newPassword")}>
          {(p) => <PasswordInput {...p} name="newPassword" autoComplete="new-password" value={newPassword} onChange={setNew} />}
        </FormField>
        <div className="form-actions">
          <SubmitButton pending={change.isPending} pendingLabel="Changing…">
            Change password
          </SubmitButton>
        </div>
      </form>
      <ErrorAlert>{generalMessage(change.error, FIELDS)}</ErrorAlert>
      {change.isSuccess && (
        <p role="status">
          Password changed. {change.data.sessionsEnded === 1 ? "1 other session" : `${change.data.sessionsEnded} other sessions`} ended.
        </p>
      )}
    </>
  );
}

/** Ends every session of the caller, then goes to the sign-in page. */
export function SignOutEverywhere() {
  const everywhere = useMutation({ mutationFn: signOutEverywhere, onSuccess: () => window.location.assign("/") });
  return (
    <>
      <div className="form-actions">
        <button type="button" className="danger" disabled={everywhere.isPending} onClick={() => everywhere.mutate()}>
          Sign out everywhere
        </button>
      </div>
      <ErrorAlert>{everywhere.isError && `Sign out everywhere: ${everywhere.error.message}`}</ErrorAlert>
    </>
  );
}

"use client";

import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ErrorAlert } from "@/components/ui/form-field";
import { PasswordInput, TextInput } from "@/components/ui/text-input";
import { apiRequest } from "@/components/api/client";
import { homeFor, type AccountRole } from "@/lib/auth/roles.contract";

/**
 * Chooses a password (and a username unless fixed): the setup page and invite links use it. With
 * `signsIn`, the answer's session cookie is set (an invite): a full page load opens the start page.
 */
export function AccountForm({
  action,
  extra,
  fixedUsername,
  submitLabel,
  signsIn = false,
}: {
  action: string;
  extra?: Record<string, unknown>;
  fixedUsername?: string | null;
  submitLabel: string;
  signsIn?: boolean;
}) {
  const [username, setUsername] = useState(fixedUsername ?? "");
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const save = useMutation({
    mutationFn: () => {
      if (password !== confirm) throw new Error("The two passwords differ.");
      return apiRequest<{ user?: { role: AccountRole } }>("POST", action, { ...extra, ...(fixedUsername ? {} : { username }), password });
    },
    // A full page load, not a client navigation: the layouts read the new session cookie.
    onSuccess: (answer) => {
      if (signsIn && answer.user) window.location.assign(homeFor(answer.user.role));
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  if (save.isSuccess && signsIn) {
    return (
      <p role="status">
        Your account is ready: you are signed in as <strong>{fixedUsername ?? username}</strong>. Opening your start page…
      </p>
    );
  }
  if (save.isSuccess) {
    return (
      <p role="status">
        {/* A full page load, not a client navigation: the sign-in page starts from the new account. */}
        {/* eslint-disable-next-line @next/next/no-html-link-for-pages */}
        Your account is ready. <a href="/">Sign in</a> as <strong>{fixedUsername ?? username}</strong>.
      </p>
    );
  }
  return (
    <form className="stack" onSubmit={submit}>
      <label>
        Username
        <TextInput name="username" autoComplete="username" required value={username} readOnly={!!fixedUsername} onChange={setUsername} />
      </label>
      <label>
        Password <span className="hint">(at least 8 characters)</span>
        <PasswordInput name="password" autoComplete="new-password" required minLength={8} value={password} onChange={setPassword} />
      </label>
      <label>
        Repeat the password
        <PasswordInput name="confirm" autoComplete="new-password" required value={confirm} onChange={setConfirm} />
      </label>
      <ErrorAlert>{save.error?.message}</ErrorAlert>
      <button type="submit" disabled={save.isPending}>
        {submitLabel}
      </button>
    </form>
  );
}

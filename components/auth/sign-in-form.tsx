"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { ErrorAlert } from "@/components/ui/form-field";
import { PasswordInput, TextInput } from "@/components/ui/text-input";
import type { UserRole } from "@/lib/auth/roles.contract";
import { apiRequest } from "@/components/api/client";

interface SignInAnswer {
  user: { role: UserRole };
}

export function SignInForm() {
  const router = useRouter();
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const signIn = useMutation({
    mutationFn: () => apiRequest<SignInAnswer>("POST", "/api/auth/sign-in", { username, password }),
    onSuccess: ({ user }) => router.replace(user.role === "coordinator" ? "/campaigns" : "/annotate"),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    signIn.mutate();
  };
  return (
    <form className="stack" onSubmit={submit} aria-label="Sign in">
      <label>
        Username
        <TextInput name="username" autoComplete="username" required autoFocus value={username} onChange={setUsername} />
      </label>
      <label>
        Password
        <PasswordInput name="password" autoComplete="current-password" required value={password} onChange={setPassword} />
      </label>
      <ErrorAlert>{signIn.error?.message}</ErrorAlert>
      <button type="submit" disabled={signIn.isPending || signIn.isSuccess}>
        {signIn.isPending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}

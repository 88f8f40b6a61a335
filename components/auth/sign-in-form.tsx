"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { postJson } from "./api";

interface SignInAnswer {
  user: { role: "coordinator" | "annotator" };
}

export function SignInForm() {
  const router = useRouter();
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const signIn = useMutation({
    mutationFn: () => postJson<SignInAnswer>("/api/auth/sign-in", { username, password }),
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
        <input name="username" autoComplete="username" required autoFocus value={username} onChange={(e) => setUsername(e.target.value)} />
      </label>
      <label>
        Password
        <input
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </label>
      {signIn.isError && (
        <p className="error" role="alert">
          {signIn.error.message}
        </p>
      )}
      <button type="submit" disabled={signIn.isPending || signIn.isSuccess}>
        {signIn.isPending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}

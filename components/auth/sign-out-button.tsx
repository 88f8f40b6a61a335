"use client";

import { useMutation } from "@tanstack/react-query";
import { postJson } from "./api";

export function SignOutButton() {
  const signOut = useMutation({
    mutationFn: () => postJson("/api/auth/sign-out", {}),
    onSettled: () => window.location.assign("/"),
  });
  return (
    <button className="secondary" type="button" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
      Sign out
    </button>
  );
}

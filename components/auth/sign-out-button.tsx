"use client";

import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "@/components/api/client";

export function SignOutButton() {
  const signOut = useMutation({
    mutationFn: () => apiRequest("POST", "/api/auth/sign-out", {}),
    onSettled: () => window.location.assign("/"),
  });
  return (
    <button className="secondary" type="button" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
      Sign out
    </button>
  );
}

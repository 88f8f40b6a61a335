import type { ReactNode } from "react";
import { Forbidden } from "@/components/ui/forbidden";
import { TopBar } from "@/components/ui/top-bar";
import type { UserRole } from "@/lib/auth/roles.contract";
import { homeFor, requireSignedIn } from "./page-auth";

/** The frame of a route group for one role: the top bar, or a refusal that links to the caller's own home. */
export async function RoleLayout({ role, children }: { role: UserRole; children: ReactNode }) {
  const { actor } = await requireSignedIn();
  if (actor.role !== role) return <Forbidden need={role} home={homeFor(actor.role)} />;
  return (
    <>
      <TopBar username={actor.username} role={actor.role} />
      {children}
    </>
  );
}

import type { ReactNode } from "react";
import { TopBar } from "@/components/ui/top-bar";
import { requireSignedIn } from "@/app/_server/page-auth";

/** Pages of any signed-in user (coordinator or annotator): their own account. */
export default async function AccountLayout({ children }: { children: ReactNode }) {
  const { actor } = await requireSignedIn();
  return (
    <>
      <TopBar username={actor.username} role={actor.role} />
      {children}
    </>
  );
}

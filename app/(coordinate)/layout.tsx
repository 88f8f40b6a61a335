import type { ReactNode } from "react";
import { Forbidden } from "@/components/ui/forbidden";
import { TopBar } from "@/components/ui/top-bar";
import { homeFor, requireSignedIn } from "@/lib/server/page-auth";

export default async function CoordinateLayout({ children }: { children: ReactNode }) {
  const { actor } = await requireSignedIn();
  if (actor.role !== "coordinator") return <Forbidden need="coordinator" home={homeFor(actor.role)} />;
  return (
    <>
      <TopBar username={actor.username} role={actor.role} />
      {children}
    </>
  );
}

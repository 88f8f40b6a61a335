import type { ReactNode } from "react";
import { Forbidden } from "@/components/ui/forbidden";
import { TopBar } from "@/components/ui/top-bar";
import { homeFor, requireSignedIn } from "@/lib/server/page-auth";

export default async function AnnotateLayout({ children }: { children: ReactNode }) {
  const { actor } = await requireSignedIn();
  if (actor.role !== "annotator") return <Forbidden need="annotator" home={homeFor(actor.role)} />;
  return (
    <>
      <TopBar username={actor.username} role={actor.role} />
      {children}
    </>
  );
}

import "server-only";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { getDb, type Db } from "@/db/client";
import type { UserRole } from "@/db/schema";
import type { Actor, UserActor } from "@/lib/auth/actor";
import { resolveActor, SESSION_COOKIE } from "@/lib/auth/sessions";

/** The caller of a page, from the session cookie; resolved once per request (layouts and pages share it). */
export const pageContext = cache(async (): Promise<{ db: Db; actor: Actor }> => {
  const db = await getDb();
  const sessionToken = (await cookies()).get(SESSION_COOKIE)?.value;
  return { db, actor: await resolveActor(db, { sessionToken }) };
});

/** Signed-in users only: anonymous callers go to the sign-in page. */
export async function requireSignedIn(): Promise<{ db: Db; actor: UserActor }> {
  const { db, actor } = await pageContext();
  if (actor.kind !== "user") redirect("/");
  return { db, actor };
}

export function homeFor(role: UserRole): string {
  return role === "coordinator" ? "/campaigns" : "/annotate";
}

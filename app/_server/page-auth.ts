import "server-only";
import { cookies } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import { getDb, type Db } from "@/db/client";
import type { Actor, UserActor } from "@/lib/auth/actor";
import { resolveActor, SESSION_COOKIE } from "@/lib/auth/sessions";
import { getCampaign } from "@/lib/campaign/campaigns";
import { databaseConfig } from "@/lib/env";
import { AppError } from "@/lib/errors";

/** The caller of a page, from the session cookie; resolved once per request (layouts and pages share it). */
export const pageContext = cache(async (): Promise<{ db: Db; actor: Actor }> => {
  // cookies() first: it marks the page dynamic, so `next build` bails out of prerendering here
  // instead of opening (and creating) the database.
  const sessionToken = (await cookies()).get(SESSION_COOKIE)?.value;
  const db = await getDb(databaseConfig());
  return { db, actor: await resolveActor(db, { sessionToken }) };
});

/** Signed-in users only: anonymous callers go to the sign-in page. */
export async function requireSignedIn(): Promise<{ db: Db; actor: UserActor }> {
  const { db, actor } = await pageContext();
  if (actor.kind !== "user") redirect("/");
  return { db, actor };
}

export { homeFor } from "@/lib/auth/roles.contract";

/**
 * A coordinator page's caller, or null for other roles: the layout shows them "Not allowed", and
 * since pages render alongside their layout, the page must not run its coordinator queries.
 */
export async function coordinatorPage(): Promise<{ db: Db; actor: UserActor } | null> {
  const ctx = await requireSignedIn();
  return ctx.actor.role === "coordinator" ? ctx : null;
}

/** The campaign of a `[id]` route segment for a coordinator page; not found for a bad or unknown id. */
export const campaignPage = cache(async (idText: string) => {
  const ctx = await coordinatorPage();
  if (!ctx) return null;
  const id = /^[1-9][0-9]{0,14}$/.test(idText) ? Number(idText) : NaN;
  if (!Number.isSafeInteger(id)) notFound();
  try {
    return { ...ctx, campaign: await getCampaign(ctx.db, ctx.actor, id) };
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") notFound();
    throw error;
  }
});

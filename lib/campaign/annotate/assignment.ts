import "server-only";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { campaigns, claims } from "@/db/schema";
import { requireUser, type Actor, type UserActor } from "@/lib/auth/actor";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { claimNextReaping } from "./claim-next.internal";
import type { Task } from "./judging.contract";
import { campaignOfCheckedAnnotator, requireActiveAnnotator } from "./annotator-access";

export type NextTaskInput = { campaignId: number; after?: string };
/** How a caller's next task is found: `nextTask`, or one that also knows crowd sessions (lib/crowd/work.ts). */
export type NextTaskFn = (db: Db, actor: Actor, input: NextTaskInput) => Promise<Task | null>;

/** A claim handle as the claim routes and `?after=` take it: base64url, never a database id. */
export const claimHandleSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{16,64}$/, "must be a claim handle (base64url) from POST /api/campaigns/:id/next");

/**
 * The next task of an annotator in a campaign: (1) their live claim, so a reload resumes; (2) else
 * the next open passage of the question they are on, in an order fixed per annotator; (3) else a
 * passage of another question, closest to completion first. One statement claims it
 * (lib/campaign/annotate/claim-next.internal.ts): FOR NO KEY UPDATE SKIP LOCKED, so concurrent annotators never
 * wait on each other and a passage never gets more than R judgments and claims, and the row lock
 * lasts for that statement only. `after`: the handle of a claim the client already shows (prefetching the next).
 */
export async function nextTask(db: Db, actor: Actor, input: NextTaskInput): Promise<Task | null> {
  // A crowd worker's next passage also depends on their session (its quota, time and outcome): the
  // caller picks that path (nextTaskFor in lib/crowd/work.ts); this function never gives them one.
  if (actor.kind === "user" && actor.role === "crowd")
    throw new AppError("forbidden", "A crowd worker's next passage comes with their session.");
  const { user, campaign } = await requireActiveAnnotator(db, actor, input.campaignId);
  return claimNextReaping(db, user, campaign, input.after);
}

/**
 * `nextTask` for an annotator (never a crowd worker) whose membership and standing this request
 * has just read from the database: the judgment before it (submitJudgmentAndNext). The same claim,
 * without requireActiveAnnotator's look-up of the annotator's access.
 */
export async function nextTaskOfCheckedAnnotator(db: Db, user: UserActor, input: NextTaskInput): Promise<Task | null> {
  const campaign = await campaignOfCheckedAnnotator(db, input.campaignId);
  if (!campaign) throw new AppError("not_found", `No campaign with id ${input.campaignId} for you.`);
  return claimNextReaping(db, user, campaign, input.after);
}

/** Extends a live claim by the campaign's lease. An expired or ended claim (its batch paused or closed, too) cannot be renewed (410). */
export async function renewClaim(db: Db, actor: Actor, handle: string): Promise<{ handle: string; expiresAt: Date }> {
  const user = requireUser(actor);
  const [claim] = await db.select().from(claims).where(eq(claims.handle, handle));
  if (!claim) throw new AppError("not_found", "No such claim.");
  if (claim.userId !== user.id) throw new AppError("forbidden", "This claim belongs to another annotator.");
  await requireActiveAnnotator(db, actor, claim.campaignId);
  const renewed = await db
    .update(claims)
    .set({
      expiresAt: sql`now() + make_interval(secs => (select ${campaigns.leaseSeconds} from ${campaigns} where ${campaigns.id} = ${claims.campaignId}))`,
    })
    .where(and(eq(claims.id, claim.id), isNull(claims.endedAt), sql`${claims.expiresAt} > now()`))
    .returning({ handle: claims.handle, expiresAt: claims.expiresAt });
  if (!renewed[0]) throw new AppError("gone", "This claim has expired or ended; ask for the next passage.");
  return renewed[0];
}

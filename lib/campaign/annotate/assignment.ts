import { and, eq, isNull, sql } from "drizzle-orm";
import { rowsOf, type Db, type Tx } from "@/db/client";
import { batches, campaigns, claims, judgments, passages } from "@/db/schema";
import { requireUser, type Actor } from "@/lib/auth/actor";
import { z } from "zod";
import { AppError, parseInput } from "@/lib/errors";
import { newClaimHandle, reapExpiredClaims, reapExpiredClaimsWhenDue, taskOfClaim, type Task } from "../internal/claims";
import { requireActiveAnnotator } from "./annotator-access";

export type { Task };

/** A claim handle as the claim routes and `?after=` take it: base64url, never a database id. */
export const claimHandleSchema = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, "must be a claim handle (base64url) from POST /api/campaigns/:id/next");

/** The `[handle]` segment of the claim routes, or 422 naming it. */
export async function claimHandleParam(ctx: { params: Promise<{ handle: string }> }): Promise<string> {
  return parseInput(z.object({ handle: claimHandleSchema }), await ctx.params, "path").handle;
}


/**
 * The next task of an annotator in a campaign: (1) their live claim, so a reload resumes; (2) else
 * the next open passage of the question they are on, in an order fixed per annotator; (3) else a
 * passage of another question, closest to completion first. Claiming locks the passage row with
 * FOR UPDATE SKIP LOCKED, so concurrent annotators never wait on each other and a passage never gets
 * more than R judgments and claims. `after`: the handle of a claim the client already shows (prefetching the next).
 */
export async function nextTask(db: Db, actor: Actor, input: { campaignId: number; after?: string }): Promise<Task | null> {
  const { user, campaign } = await requireActiveAnnotator(db, actor, input.campaignId);
  const claimId = await db.transaction(async (tx) => {
    // Expired claims are reaped at most every 2 s per campaign and process (and whenever nothing
    // else is open): a claim that has just expired keeps its slot a little longer, never doubles it.
    const reaped = await reapExpiredClaimsWhenDue(tx, campaign.id);
    const [live] = await tx
      .select({ id: claims.id })
      .from(claims)
      .where(
        and(
          eq(claims.userId, user.id),
          eq(claims.campaignId, campaign.id),
          isNull(claims.endedAt),
          sql`${claims.expiresAt} > now()`,
          input.after ? sql`${claims.handle} <> ${input.after}` : undefined,
        ),
      )
      .orderBy(claims.id)
      .limit(1);
    if (live) return live.id;

    const launched = (await tx.select({ id: batches.id }).from(batches).where(and(eq(batches.campaignId, campaign.id), eq(batches.status, "launched")))).map(
      (b) => b.id,
    );
    if (!launched.length) return null;
    const find = async () =>
      (await openPassageInCurrentQuery(tx, user.id, campaign.id, launched)) ?? (await openPassageAnywhere(tx, user.id, campaign.id, launched));
    let passageId = await find();
    if (passageId === null && !reaped) {
      // Nothing open: slots held by claims that expired since the last reaping may be free.
      if (await reapExpiredClaims(tx, campaign.id)) passageId = await find();
    }
    if (passageId === null) return null;

    const taken = await tx
      .update(passages)
      .set({ claimCount: sql`${passages.claimCount} + 1`, openSlots: sql`${passages.openSlots} - 1` })
      .where(and(eq(passages.id, passageId), sql`${passages.openSlots} > 0`))
      .returning({ id: passages.id });
    if (!taken.length) throw new Error(`passage ${passageId} was locked with a free slot but has none`);
    const [claim] = await tx
      .insert(claims)
      .values({ handle: newClaimHandle(), passageId, userId: user.id, campaignId: campaign.id, expiresAt: sql`now() + make_interval(secs => ${campaign.leaseSeconds})` })
      .returning({ id: claims.id });
    return claim!.id;
  });
  return claimId === null ? null : taskOfClaim(db, user, campaign, claimId);
}

async function openPassageInCurrentQuery(tx: Tx, userId: number, campaignId: number, launched: number[]): Promise<number | null> {
  const [current] = await tx
    .select({ queryId: passages.queryId })
    .from(claims)
    .innerJoin(passages, eq(passages.id, claims.passageId))
    .where(and(eq(claims.userId, userId), eq(claims.campaignId, campaignId)))
    .orderBy(sql`${claims.id} desc`)
    .limit(1);
  if (!current) return null;
  const rows = rowsOf<{ id: number }>(
    await tx.execute(sql`
      select p.id from ${passages} p
      where p.query_id = ${current.queryId} and p.open_slots > 0 and p.batch_id = any(${sql.param(launched)}::bigint[])
        and not exists (select 1 from ${claims} c where c.passage_id = p.id and c.user_id = ${userId})
      order by md5(p.id::text || ':' || ${userId}::text)
      limit 1
      for no key update of p skip locked`),
  );
  return rows[0] ? Number(rows[0].id) : null;
}

async function openPassageAnywhere(tx: Tx, userId: number, campaignId: number, launched: number[]): Promise<number | null> {
  // Walks the partial index of open passages (campaign, open_slots, query) from the fullest, and
  // stops at the first one this annotator has not touched and nobody else is claiming right now.
  // Within a question the order is fixed per annotator but random (not by id: ids run gold first).
  const rows = rowsOf<{ id: number }>(
    await tx.execute(sql`
      select p.id from ${passages} p
      where p.campaign_id = ${campaignId} and p.open_slots > 0 and p.batch_id = any(${sql.param(launched)}::bigint[])
        and not exists (select 1 from ${claims} c where c.passage_id = p.id and c.user_id = ${userId})
      order by p.open_slots, p.query_id, md5(p.id::text || ':' || ${userId}::text)
      limit 1
      for no key update of p skip locked`),
  );
  return rows[0] ? Number(rows[0].id) : null;
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
    .set({ expiresAt: sql`now() + make_interval(secs => (select ${campaigns.leaseSeconds} from ${campaigns} where ${campaigns.id} = ${claims.campaignId}))` })
    .where(and(eq(claims.id, claim.id), isNull(claims.endedAt), sql`${claims.expiresAt} > now()`))
    .returning({ handle: claims.handle, expiresAt: claims.expiresAt });
  if (!renewed[0]) throw new AppError("gone", "This claim has expired or ended; ask for the next passage.");
  return renewed[0];
}

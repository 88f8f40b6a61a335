// Internal steps of assignment: no authorization of their own. Only domain functions that have
// checked the caller (nextTask, renewClaim, submitJudgment) call them; app/, components/ and bin/ never do.
import "server-only";
import { randomBytes } from "node:crypto";
import { and, eq, isNull, lt, sql } from "drizzle-orm";
import { rowsOf, type Db, type Tx } from "@/db/client";
import { batches, claims, judgments, pages, passages, queries, type Campaign, type TaskKind } from "@/db/schema";
import type { UserActor } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import { sectionOf } from "@/lib/kilt/codepoints";
import type { Task } from "./annotate/judging.contract";

/** A new claim's handle: 128 random bits, base64url (22 characters). */
export function newClaimHandle(): string {
  return randomBytes(16).toString("base64url");
}

/** When this process last reaped each campaign: reaping on every request would cost a statement each. */
const lastReap = new Map<number, number>();
const REAP_EVERY_MS = 2000;

/**
 * Frees the slots of expired claims in a campaign. Each expired claim is ended exactly once, even
 * when several requests reap at the same time (the UPDATE … RETURNING takes the row lock).
 */
export async function reapExpiredClaims(tx: Db | Tx, campaignId: number): Promise<number> {
  lastReap.set(campaignId, Date.now());
  const ended = await tx
    .update(claims)
    .set({ endedAt: sql`now()` })
    .where(and(eq(claims.campaignId, campaignId), isNull(claims.endedAt), lt(claims.expiresAt, sql`now()`)))
    .returning({ passageId: claims.passageId });
  await freeSlotsOfEndedClaims(tx, ended);
  return ended.length;
}

/**
 * Ends every unended claim on a batch's passages (live or expired but not yet reaped) and frees their
 * slots as reaping does: pausing and closing a batch end the work on it.
 */
export async function endClaimsOfBatch(tx: Db | Tx, batchId: number): Promise<number> {
  const ended = rowsOf<{ passage_id: number }>(
    await tx.execute(sql`
      update ${claims} c set ended_at = now()
      from ${passages} p
      where p.id = c.passage_id and p.batch_id = ${batchId} and c.ended_at is null
      returning c.passage_id`),
  );
  await freeSlotsOfEndedClaims(
    tx,
    ended.map((e) => ({ passageId: Number(e.passage_id) })),
  );
  return ended.length;
}

/** Ends a user's unended claims in a campaign and frees their slots as reaping does: a crowd session that ends gives back the passage it prefetched. */
export async function endLiveClaimsOf(tx: Db | Tx, campaignId: number, userId: number): Promise<number> {
  const ended = await tx
    .update(claims)
    .set({ endedAt: sql`now()` })
    .where(and(eq(claims.campaignId, campaignId), eq(claims.userId, userId), isNull(claims.endedAt)))
    .returning({ passageId: claims.passageId });
  await freeSlotsOfEndedClaims(tx, ended);
  return ended.length;
}

/** Ends one live claim (by its handle) and frees its slot: a crowd worker's prefetch past their session's quota. */
export async function endClaim(tx: Db | Tx, handle: string): Promise<void> {
  const ended = await tx
    .update(claims)
    .set({ endedAt: sql`now()` })
    .where(and(eq(claims.handle, handle), isNull(claims.endedAt)))
    .returning({ passageId: claims.passageId });
  await freeSlotsOfEndedClaims(tx, ended);
}

/** Moves the passage counters of just-ended claims: one fewer live claim each, its slot open again unless the passage is decided. */
async function freeSlotsOfEndedClaims(tx: Db | Tx, ended: { passageId: number }[]): Promise<void> {
  if (!ended.length) return;
  const perPassage = new Map<number, number>();
  for (const e of ended) perPassage.set(e.passageId, (perPassage.get(e.passageId) ?? 0) + 1);
  // In id order, so two transactions freeing slots on the same passages cannot deadlock.
  for (const [passageId, n] of [...perPassage].sort((a, b) => a[0] - b[0])) {
    await tx
      .update(passages)
      .set({
        claimCount: sql`${passages.claimCount} - ${n}`,
        // A passage decided early stays closed.
        openSlots: sql`case when ${passages.isDecided} then 0 else ${passages.openSlots} + ${n} end`,
      })
      .where(eq(passages.id, passageId));
  }
}

/** Reaps (in a transaction of its own) unless this process reaped the campaign in the last 2 s; says whether it did. */
export async function reapExpiredClaimsWhenDue(db: Db, campaignId: number): Promise<boolean> {
  if (Date.now() - (lastReap.get(campaignId) ?? 0) < REAP_EVERY_MS) return false;
  await db.transaction((tx) => reapExpiredClaims(tx, campaignId));
  return true;
}

/** A row of the task view as `taskViewSelect` (claim-next.ts) returns it, on either driver. */
export interface TaskRow {
  handle: string;
  expires_ms: number;
  kilt_id: string;
  input: string;
  answers: string[];
  /** The batch's task (lib/kilt/task-kind.ts). */
  task_kind: TaskKind;
  wikipedia_id: string;
  title: string;
  start: number;
  paragraphs: string[];
  header_above: string | null;
  today: number;
  done: number;
  total: number;
}

/** The Task of a task-view row: the same shape `taskOfClaim` builds. */
export function taskFromRow(row: TaskRow, campaign: Campaign): Task {
  const local = ["", row.header_above ?? "", ...row.paragraphs];
  const paragraphs = row.paragraphs.map((text, i) => ({ id: row.start + i, text, section: sectionOf(local, i + 2) }));
  return {
    // Whole seconds (rounded down, so never later than the lease): the exact claim time would tell the
    // annotator when others' judgments were slow — gold judgments do one statement more (gold-leak test).
    claim: { handle: row.handle, expiresAt: new Date(Math.floor(row.expires_ms / 1000) * 1000) },
    query: { id: row.kilt_id, input: row.input, kind: row.task_kind, ...(campaign.showAnswers ? { answers: row.answers } : {}) },
    passage: { wikipediaId: row.wikipedia_id, title: row.title, paragraphs },
    progress: { judgedToday: row.today, passageOfQuestion: row.done + 1, passagesInQuestion: row.total },
  };
}

/** The task view of one claim. */
export async function taskOfClaim(db: Db | Tx, user: UserActor, campaign: Campaign, claimId: number): Promise<Task> {
  const [row] = await db
    .select({
      handle: claims.handle,
      expiresAt: claims.expiresAt,
      queryId: queries.id,
      start: passages.startParagraphId,
      end: passages.endParagraphId,
      kiltId: queries.kiltId,
      input: queries.input,
      answers: queries.answers,
      kind: batches.taskKind,
      wikipediaId: pages.wikipediaId,
      title: pages.title,
      // Only the passage's paragraphs and the section header above them, not the whole page.
      paragraphs: sql<string[]>`array_to_json(${pages.paragraphs}[${passages.startParagraphId} + 1 : ${passages.endParagraphId} + 1])`,
      headerAbove: sql<
        string | null
      >`(select e from unnest(${pages.paragraphs}[2 : ${passages.startParagraphId}]) with ordinality as h(e, i)
        where e like 'Section::::%' order by i desc limit 1)`,
    })
    .from(claims)
    .innerJoin(passages, eq(passages.id, claims.passageId))
    .innerJoin(queries, eq(queries.id, passages.queryId))
    .innerJoin(batches, eq(batches.id, passages.batchId))
    .innerJoin(pages, eq(pages.wikipediaId, passages.wikipediaId))
    .where(and(eq(claims.id, claimId), eq(claims.userId, user.id)));
  if (!row) throw new AppError("not_found", "No such claim for you.");

  const [progress] = rowsOf<{ today: number; done: number; total: number }>(
    await db.execute(sql`
      select
        (select count(*)::int from ${judgments} j where j.user_id = ${user.id} and j.campaign_id = ${campaign.id} and j.created_at >= date_trunc('day', now())) as today,
        (select count(*)::int from ${judgments} j join ${passages} p on p.id = j.passage_id where j.user_id = ${user.id} and p.query_id = ${row.queryId}) as done,
        (select count(*)::int from ${passages} p where p.query_id = ${row.queryId}) as total`),
  );
  // sectionOf over ["", header above, …passage]: paragraph `id` sits at index id − start + 2.
  const local = ["", row.headerAbove ?? "", ...row.paragraphs];
  const paragraphs = row.paragraphs.map((text, i) => ({ id: row.start + i, text, section: sectionOf(local, i + 2) }));
  return {
    claim: { handle: row.handle, expiresAt: row.expiresAt },
    query: { id: row.kiltId, input: row.input, kind: row.kind, ...(campaign.showAnswers ? { answers: row.answers } : {}) },
    passage: { wikipediaId: row.wikipediaId, title: row.title, paragraphs },
    progress: { judgedToday: progress?.today ?? 0, passageOfQuestion: (progress?.done ?? 0) + 1, passagesInQuestion: progress?.total ?? 1 },
  };
}

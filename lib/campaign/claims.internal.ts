// Internal steps of assignment: no authorization of their own. Only domain functions that have
// checked the caller (nextTask, renewClaim, submitJudgment) call them; app/, components/ and bin/ never do.
import "server-only";
import { randomBytes } from "node:crypto";
import { and, eq, isNull, lt, sql } from "drizzle-orm";
import { rowsOf, type Db, type Tx } from "@/db/client";
import { claims, passages, type Campaign, type TaskKind } from "@/db/schema";
import type { Task } from "./annotate/judging.contract";
import { passageOf, type MemberRow } from "./set-members.internal";

/** A new claim's handle: 128 random bits, base64url (22 characters). */
export function newClaimHandle(): string {
  return randomBytes(16).toString("base64url");
}

/**
 * When this process last reaped each campaign: reaping on every request would cost a statement each.
 * On globalThis: Next.js's bundles and the production server's fast path (server/fast-path.ts) load this module apart.
 */
const lastReap: Map<number, number> = ((globalThis as unknown as Record<symbol, Map<number, number>>)[Symbol.for("kps.lastReap")] ??=
  new Map());
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
  /** An evidence set: every member with its page, first paragraph id, paragraphs and the section header above them (null: a single passage). */
  members?: MemberRow[] | null;
  /** The batch asks for "part of the evidence" on single passages. */
  partial_evidence?: boolean;
}

/** The Task of a task-view row (claim-next.internal.ts taskViewSelect). */
export function taskFromRow(row: TaskRow, campaign: Campaign): Task {
  const members = row.members?.map(passageOf);
  return {
    // Whole seconds (rounded down, so never later than the lease): the exact claim time would tell the
    // annotator when others' judgments were slow — gold judgments do one statement more (gold-leak test).
    claim: { handle: row.handle, expiresAt: new Date(Math.floor(row.expires_ms / 1000) * 1000) },
    query: { id: row.kilt_id, input: row.input, kind: row.task_kind, ...(campaign.showAnswers ? { answers: row.answers } : {}) },
    passage: members?.[0] ?? passageOf(row),
    ...(members ? { members } : row.partial_evidence ? { partialEvidence: true } : {}),
    progress: { judgedToday: row.today, passageOfQuestion: row.done + 1, passagesInQuestion: row.total },
  };
}

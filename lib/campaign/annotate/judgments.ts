import { and, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db, Tx } from "@/db/client";
import { batches, claims, judgments, pages, passages, type Campaign, type Claim, type Judgment, type Passage } from "@/db/schema";
import { sha256 } from "@/lib/auth/crypto";
import { requireUser, type Actor } from "@/lib/auth/actor";
import { AppError, invalidField, isUniqueViolation } from "@/lib/errors";
import { sliceLocation } from "@/lib/kilt/codepoints";
import { requireActiveAnnotator } from "./annotator-access";
import { closesEarly } from "../quality/outcome";
import { isGoldCorrect, recordGoldJudgment, setStanding } from "../quality/standings";

const offset = z.number().int().min(0, "must be 0 or more");

export const spanSchema = z.object({
  startParagraphId: offset,
  /** Code points, like Python string indexes. */
  startCharacter: offset,
  endParagraphId: offset,
  /** Code points, end exclusive. */
  endCharacter: offset,
  text: z.string().min(1, "must not be empty").max(100_000),
});

export const judgmentInputSchema = z
  .object({
    verdict: z.enum(["sufficient", "insufficient"], "must be 'sufficient' or 'insufficient'"),
    span: spanSchema.nullable(),
    unreadable: z.boolean().default(false),
    durationMs: z.number().int().min(0, "must be 0 or more").max(24 * 3600 * 1000, "must be under a day"),
    idempotencyKey: z.string().min(8, "must be at least 8 characters").max(200),
  })
  .superRefine((j, ctx) => {
    if (j.verdict === "sufficient" && !j.span) ctx.addIssue({ code: "custom", path: ["span"], message: "is required when the verdict is sufficient" });
    if (j.verdict === "insufficient" && j.span) ctx.addIssue({ code: "custom", path: ["span"], message: "must be null when the verdict is insufficient" });
    if (j.unreadable && j.verdict !== "insufficient") ctx.addIssue({ code: "custom", path: ["unreadable"], message: "an unreadable passage is judged insufficient" });
    const s = j.span;
    if (s && (s.endParagraphId < s.startParagraphId || (s.endParagraphId === s.startParagraphId && s.endCharacter <= s.startCharacter))) {
      ctx.addIssue({ code: "custom", path: ["span", "endCharacter"], message: "the span must end after it starts" });
    }
  });

export type JudgmentInput = z.infer<typeof judgmentInputSchema>;

/** A stored judgment as its annotator sees it: by its claim's handle, no database id. */
export interface JudgmentView {
  claim: string;
  verdict: "sufficient" | "insufficient";
  unreadable: boolean;
  span: z.infer<typeof spanSchema> | null;
  durationMs: number;
  createdAt: Date;
}

function view(j: Judgment, handle: string): JudgmentView {
  return {
    claim: handle,
    verdict: j.verdict,
    unreadable: j.unreadable,
    span:
      j.spanText === null
        ? null
        : { startParagraphId: j.startParagraphId!, startCharacter: j.startCharacter!, endParagraphId: j.endParagraphId!, endCharacter: j.endCharacter!, text: j.spanText },
    durationMs: j.durationMs,
    createdAt: j.createdAt,
  };
}

/** The body's fingerprint: a replay must carry the same body as the first submission. */
function requestHash(claimId: number, input: JudgmentInput): string {
  const { idempotencyKey: _key, ...rest } = input;
  return sha256(JSON.stringify({ claimId, ...rest, span: rest.span && { ...rest.span } }));
}

/**
 * Records an annotator's judgment on their claim, once. Acknowledged only after commit; a retry with
 * the same idempotency key returns the stored judgment (`replayed`), with another body it is a
 * conflict. The span is checked against the stored page, by code points. An expired claim still
 * counts if its slot is free; if another annotator took the slot, the answer is 410. A judgment on
 * a paused or closed batch is refused (409): pausing and closing end the batch's claims.
 */
export async function submitJudgment(
  db: Db,
  actor: Actor,
  handle: string,
  input: JudgmentInput,
): Promise<{ judgment: JudgmentView; replayed: boolean }> {
  const user = requireUser(actor);
  let hash: string | undefined;
  let pauseBy: Campaign | undefined;
  try {
    const result = await db.transaction(async (tx): Promise<{ judgment: JudgmentView; replayed: boolean }> => {
      const claim = await lockOwnClaim(tx, user.id, handle);
      hash = requestHash(claim.id, input);
      // Submissions on one claim queue on its row lock: a retry that waited finds the first one here.
      const replayed = await findReplay(tx, user.id, input.idempotencyKey, hash, handle);
      if (replayed) return replayed;
      const { campaign } = await requireActiveAnnotator(tx, actor, claim.campaignId);
      const passage = await lockPassageToJudge(tx, claim.passageId, user.id);

      const now = new Date();
      const slots = slotsAfterJudgment(claim, passage, now);
      if (input.span) await checkSpan(tx, passage, input.span);
      const stored = await insertJudgment(tx, { passage, userId: user.id, claimId: claim.id, input, hash: hash! });
      await countJudgment(tx, campaign, passage, input.verdict, slots);
      await tx.update(claims).set({ endedAt: now }).where(eq(claims.id, claim.id));
      if (passage.isGold && (await recordGoldJudgment(tx, campaign, user.id, isGoldCorrect(passage, input)))) pauseBy = campaign;
      return { judgment: view(stored, handle), replayed: false };
    });
    // The gold rule pauses after the judgment is committed: the judgment is acknowledged either way.
    if (pauseBy) await setStanding(db, pauseBy, user.id, { status: "paused", reason: "gold_rule", by: null });
    return result;
  } catch (error) {
    // Two submissions with one key raced: the loser finds the winner's row.
    if (isUniqueViolation(error) && hash) {
      const again = await findReplay(db, user.id, input.idempotencyKey, hash, handle);
      if (again) return again;
      throw new AppError("conflict", "You have already judged this passage.");
    }
    throw error;
  }
}

async function lockOwnClaim(tx: Tx, userId: number, handle: string): Promise<Claim> {
  const [claim] = await tx.select().from(claims).where(eq(claims.handle, handle)).for("no key update");
  if (!claim) throw new AppError("not_found", "No such claim.");
  if (claim.userId !== userId) throw new AppError("forbidden", "This claim belongs to another annotator.");
  return claim;
}

/** The claim's passage, locked, provided its batch is launched and this annotator has not judged it yet. */
async function lockPassageToJudge(tx: Tx, passageId: number, userId: number): Promise<Passage> {
  // NO KEY UPDATE: other annotators' claim and judgment inserts (foreign keys to this row) need not wait.
  // "Not sealed": a judgment that waited for this lock while the batch was being closed finds no row
  // (the qualification is checked again on the row as the closing left it), so it cannot slip in.
  const [row] = await tx
    .select({ passage: passages, batch: { status: batches.status, closedAt: batches.closedAt } })
    .from(passages)
    .innerJoin(batches, eq(batches.id, passages.batchId))
    .where(and(eq(passages.id, passageId), isNull(passages.sealedJudgmentCount)))
    .for("no key update", { of: passages });
  if (!row || row.batch.status !== "launched") await refuseClosedBatch(tx, passageId);
  const passage = row!.passage;
  const [already] = await tx
    .select({ id: judgments.id })
    .from(judgments)
    .where(and(eq(judgments.passageId, passage.id), eq(judgments.userId, userId)));
  if (already) throw new AppError("conflict", "You have already judged this passage (with another idempotency key).");
  return passage;
}

/** The passage's live claims and open slots once the judgment takes the claim's slot (or a free one, when the claim expired). */
function slotsAfterJudgment(claim: Claim, passage: Passage, now: Date): { claimCount: number; openSlots: number } {
  const live = claim.endedAt === null && claim.expiresAt > now;
  let claimCount = passage.claimCount;
  let openSlots = passage.openSlots;
  if (!live) {
    if (claim.endedAt === null) {
      // Expired but not yet reaped: free its slot first.
      claimCount -= 1;
      if (!passage.isDecided) openSlots += 1;
    }
    if (openSlots <= 0) {
      throw new AppError("gone", "Your claim on this passage expired and its slot went to another annotator. Your judgment was not stored.");
    }
    openSlots -= 1; // the late judgment takes the free slot
  } else {
    claimCount -= 1; // the claim's slot becomes the judgment's
  }
  return { claimCount, openSlots };
}

/** Throws the reason a passage takes no judgment: its batch paused or closed (409), or the passage gone (404). */
async function refuseClosedBatch(tx: Tx, passageId: number): Promise<never> {
  const [b] = await tx
    .select({ status: batches.status, closedAt: batches.closedAt })
    .from(passages)
    .innerJoin(batches, eq(batches.id, passages.batchId))
    .where(eq(passages.id, passageId));
  if (!b) throw new AppError("not_found", "The passage of this claim no longer exists.");
  if (b.status === "closed") {
    const when = b.closedAt ? ` on ${b.closedAt.toISOString()}` : "";
    throw new AppError("conflict", `This passage's batch was closed${when}: it takes no more judgments. Your judgment was not stored.`, { batch: "closed" });
  }
  throw new AppError("conflict", `This passage's batch is ${b.status}: it takes no judgments now. Your judgment was not stored.`, { batch: b.status });
}

async function insertJudgment(
  tx: Tx,
  j: { passage: Passage; userId: number; claimId: number; input: JudgmentInput; hash: string },
): Promise<Judgment> {
  const { passage, input } = j;
  const [stored] = await tx
    .insert(judgments)
    .values({
      passageId: passage.id,
      userId: j.userId,
      claimId: j.claimId,
      campaignId: passage.campaignId,
      batchId: passage.batchId,
      verdict: input.verdict,
      unreadable: input.unreadable,
      startParagraphId: input.span?.startParagraphId ?? null,
      startCharacter: input.span?.startCharacter ?? null,
      endParagraphId: input.span?.endParagraphId ?? null,
      endCharacter: input.span?.endCharacter ?? null,
      spanText: input.span?.text ?? null,
      durationMs: input.durationMs,
      idempotencyKey: input.idempotencyKey,
      requestHash: j.hash,
    })
    .returning();
  return stored!;
}

/** Adds the judgment to the passage's counters; early stop closes the passage once its outcome is fixed. */
async function countJudgment(
  tx: Tx,
  campaign: Campaign,
  passage: Passage,
  verdict: JudgmentInput["verdict"],
  slots: { claimCount: number; openSlots: number },
): Promise<void> {
  const judgmentCount = passage.judgmentCount + 1;
  const sufficientCount = passage.sufficientCount + (verdict === "sufficient" ? 1 : 0);
  const decided = closesEarly(campaign, { judgmentCount, sufficientCount });
  await tx
    .update(passages)
    .set({ judgmentCount, sufficientCount, claimCount: slots.claimCount, openSlots: decided ? 0 : slots.openSlots, isDecided: passage.isDecided || decided })
    .where(eq(passages.id, passage.id));
}

async function findReplay(db: Db | Tx, userId: number, key: string, hash: string, handle: string): Promise<{ judgment: JudgmentView; replayed: true } | undefined> {
  const [previous] = await db
    .select()
    .from(judgments)
    .where(and(eq(judgments.userId, userId), eq(judgments.idempotencyKey, key)));
  if (!previous) return undefined;
  if (previous.requestHash !== hash) {
    throw new AppError("conflict", "This idempotency key was used with a different judgment; send a new key for a new judgment.");
  }
  return { judgment: view(previous, handle), replayed: true };
}

/** The span must lie inside the passage, and the stored page sliced by code points must read `text`. */
async function checkSpan(tx: Tx, passage: { wikipediaId: string; startParagraphId: number; endParagraphId: number }, span: z.infer<typeof spanSchema>) {
  if (span.startParagraphId < passage.startParagraphId || span.endParagraphId > passage.endParagraphId) {
    throw invalidField(
      "span",
      `paragraphs ${span.startParagraphId}–${span.endParagraphId} are outside the passage (${passage.startParagraphId}–${passage.endParagraphId})`,
      "lies outside the passage",
    );
  }
  // Only the passage's paragraphs, placed at their ids (the span lies within them, checked above).
  const [page] = await tx
    .select({ slice: sql<string[]>`array_to_json(${pages.paragraphs}[${passage.startParagraphId + 1} : ${passage.endParagraphId + 1}])` })
    .from(pages)
    .where(eq(pages.wikipediaId, passage.wikipediaId));
  const paragraphs: string[] = [];
  page?.slice.forEach((text, i) => (paragraphs[passage.startParagraphId + i] = text));
  const text = page ? sliceLocation(paragraphs, span) : undefined;
  if (text === undefined) {
    throw invalidField("span", "the character offsets lie outside their paragraphs", "character offsets out of range (code points)");
  }
  if (text !== span.text) {
    throw invalidField(
      "span.text",
      "does not match the passage at these offsets (counted in code points)",
      `the passage reads ${JSON.stringify(text.slice(0, 200))} there`,
    );
  }
}

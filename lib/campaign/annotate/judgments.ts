import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { campaigns } from "@/db/schema";
import { requireUser, type Actor } from "@/lib/auth/actor";
import { AppError, isUniqueViolation } from "@/lib/errors";
import { breaksGoldRule, goldCountsOf, isGoldCorrect, setStanding, type GoldPassage } from "../quality/standings";
import { nextTask, nextTaskOfCheckedAnnotator, type NextTaskFn } from "./assignment";
import type { Task } from "./judging.contract";
import { checkTaskVerdict, MAX_DURATION_MS, requestHash, type JudgmentInput } from "./judgment-input";
import { checkSpan } from "./judgment-span";
import { buildPartialSets } from "./partial-sets";
import { checkSetVerdict, goldMembersOf, memberSpansJson, storedSpan, storedVerdict } from "./judgment-sets";
import { flagsLiteral, notesOf, type JudgmentView } from "./judgments.contract";
import { findReplay, refuse, replayOf } from "./judgment-replay";
import { autocommitQuery, READ_CLAIM_SQL, WRITE_JUDGMENT_SQL, type ClaimRow, type WriteResult } from "./judgment-statements";

export { checkSpan, spanSchema } from "./judgment-span";
export { judgmentInputSchema, judgmentQuerySchema, MAX_DURATION_MS, requestHash, type JudgmentInput } from "./judgment-input";

/**
 * Records an annotator's judgment on their claim, once. Acknowledged only after commit; a retry with
 * the same idempotency key returns the stored judgment (`replayed`), with another body it is a
 * conflict. The span is checked against the stored page, by code points. An expired claim still
 * counts if its slot is free; if another annotator took the slot, the answer is 410. A judgment on
 * a paused or closed batch is refused (409): pausing and closing end the batch's claims.
 *
 * Two statements, each on its own (judgment-statements.ts): the claim read with what the checks
 * need, then one write that locks the claim (as read, or it is read again), then the passage, moves
 * its counters, stores the judgment, ends the claim and scores gold. No transaction spans the two:
 * the row locks last for the write statement only, never across a round trip to this process.
 * The write measures the judgment's time itself (from the task's hand-out, or the annotator's
 * previous judgment if later, to now: judgment-statements.ts); the body's `durationMs` is kept as
 * `client_duration_ms`, a hint no rule reads.
 */
export async function submitJudgment(
  db: Db,
  actor: Actor,
  handle: string,
  input: JudgmentInput,
): Promise<{ judgment: JudgmentView; replayed: boolean; campaignId: number; accessChecked?: true }> {
  const user = requireUser(actor);
  const q = autocommitQuery(db);
  let hash: string | undefined;
  let campaignId = 0;
  try {
    // The claim changes between the two statements only in a race (a pause, close or reaping that
    // ends it; a second submission on it that came first): then the read is taken again, once.
    for (let attempt = 1; ; attempt++) {
      const [claim] = await q<ClaimRow>(READ_CLAIM_SQL, [handle, user.id, input.span !== null || !!input.spans, input.idempotencyKey]);
      if (!claim) throw new AppError("not_found", "No such claim.");
      if (claim.owner !== user.id) throw new AppError("forbidden", "This claim belongs to another annotator.");
      hash = requestHash(claim.claim_id, input);
      campaignId = claim.campaign_id;
      if (claim.previous) return { ...replayOf(claim.previous, hash, handle), campaignId };
      checkAccess(actor, claim);
      checkSetVerdict(claim, input);
      checkTaskVerdict(claim.task_kind, { ...input, span: storedSpan(input) });
      if (input.span) checkSpan(claim, input.span);
      const correct = claim.is_gold && isGoldCorrect(goldOf(claim), input, claim.gold_span_slack);
      const [row] = await q<WriteResult>(WRITE_JUDGMENT_SQL, writeParams(claim, user.id, input, hash, correct));
      if (!row?.created_at) {
        if (!row?.claim_same && attempt < 2) continue;
        return { ...(await refuse(q, claim, user.id, input.idempotencyKey, hash, handle)), campaignId };
      }
      // The gold rule pauses after the judgment is stored: the judgment is acknowledged either way.
      const paused =
        row.status === "active" &&
        row.gold_judged !== null &&
        breaksGoldRule(goldCountsOf(row), { minJudgments: claim.gold_min_judgments, threshold: claim.gold_accuracy_threshold });
      if (paused) await pauseByGoldRule(db, claim.campaign_id, user.id);
      // Part of the evidence: pairs of the question's passages that T annotators marked so become sets (partial-sets.ts).
      if (input.verdict === "partial") await buildPartialSets(db, claim.passage_id);
      const view = viewOf(input, handle, new Date(row.created_at), row.duration_ms!);
      // An annotator (a crowd worker's next task also depends on their session) whose membership
      // and standing the claim read checked and the write saw unpaused, and whom this judgment left so.
      const checked = user.role === "annotator" && !paused;
      return { judgment: view, replayed: false, campaignId, ...(checked ? { accessChecked: true as const } : {}) };
    }
  } catch (error) {
    // Two submissions with one key raced: the loser finds the winner's row.
    if (isUniqueViolation(error) && hash) {
      const again = await findReplay(db, user.id, input.idempotencyKey, hash, handle);
      if (again) return { ...again, campaignId };
      throw new AppError("conflict", "You have already judged this passage.");
    }
    throw error;
  }
}

/**
 * Whether the judgment is page-level: an entity-linking sufficient verdict without a highlight judges
 * the page itself and stores no span (judgments.page_level; judgments_span_iff_sufficient). Decided
 * here from the task's kind, never by the client; other kinds' missing span is refused before (checkTaskVerdict).
 */
export function isPageLevel(taskKind: ClaimRow["task_kind"], input: Pick<JudgmentInput, "verdict" | "span" | "spans">): boolean {
  return taskKind === "entity-linking" && input.verdict === "sufficient" && storedSpan(input) === null;
}

export async function pauseByGoldRule(db: Db, campaignId: number, userId: number): Promise<void> {
  const [campaign] = await db.select().from(campaigns).where(eq(campaigns.id, campaignId));
  if (campaign) await setStanding(db, campaign, userId, { status: "paused", reason: "gold_rule", by: null });
}

/**
 * A judgment and, with `next`, the annotator's next task in the same request (one round trip per
 * passage): `nextTask` with `after`, the claim the client already holds prefetched. A replay answers
 * the same way without claiming twice: `nextTask` gives the live claim first, so the task the first
 * answer claimed comes back. `next` is left out when no task can be given now (the annotator was
 * just paused, the batch stopped): the client then asks `…/next`, which says why. `next` finds the
 * task: `nextTask`, or for a route that serves crowd workers too, lib/crowd/work.ts's `nextTaskFor`;
 * after an annotator's judgment stored now, `nextTaskOfCheckedAnnotator`, which does not read again
 * the access the claim read has just read.
 */
export async function submitJudgmentAndNext(
  db: Db,
  actor: Actor,
  handle: string,
  input: JudgmentInput,
  query: { next?: "1"; after?: string },
  next: NextTaskFn = nextTask,
): Promise<{ judgment: JudgmentView; replayed: boolean; next?: Task | null }> {
  const { judgment, replayed, campaignId, accessChecked } = await submitJudgment(db, actor, handle, input);
  if (query.next !== "1") return { judgment, replayed };
  try {
    const where = { campaignId, after: query.after };
    // A judgment stored now has just read the annotator's access: the next task does not look it up again.
    const task = accessChecked ? await nextTaskOfCheckedAnnotator(db, requireUser(actor), where) : await next(db, actor, where);
    return { judgment, replayed, next: task };
  } catch (error) {
    if (error instanceof AppError) return { judgment, replayed };
    throw error;
  }
}

/** The annotator works on the claim's campaign and is not paused there (requireActiveAnnotator's rule, on the row read with the claim). */
function checkAccess(actor: Actor, claim: ClaimRow): void {
  const user = requireUser(actor);
  if (user.role !== "annotator" && user.role !== "crowd") throw new AppError("forbidden", "Only annotators judge passages.");
  // A crowd worker's claims are only ever given in the one campaign it entered (requireActiveAnnotator).
  if (user.role === "annotator" && !claim.all_annotators && !claim.member)
    throw new AppError("not_found", `No campaign with id ${claim.campaign_id} for you.`);
  if (claim.standing === "paused") {
    throw new AppError("forbidden", "Your work on this campaign is paused. Your coordinator can resume it.", { paused: true });
  }
}

export function goldOf(
  c: Pick<
    ClaimRow,
    | "expected_verdict"
    | "expected_start_paragraph_id"
    | "expected_start_character"
    | "expected_end_paragraph_id"
    | "expected_end_character"
    | "start_paragraph_id"
    | "slice"
    | "task_kind"
    | "expected_label"
    | "set_members"
    | "member_slices"
  >,
): GoldPassage {
  return {
    members: goldMembersOf(c.set_members, c.member_slices),
    taskKind: c.task_kind,
    expectedLabel: c.expected_label,
    startParagraphId: c.start_paragraph_id,
    paragraphs: c.slice,
    expectedVerdict: c.expected_verdict,
    expectedStartParagraphId: c.expected_start_paragraph_id,
    expectedStartCharacter: c.expected_start_character,
    expectedEndParagraphId: c.expected_end_paragraph_id,
    expectedEndCharacter: c.expected_end_character,
  };
}

function writeParams(c: ClaimRow, userId: number, input: JudgmentInput, hash: string, correct: boolean): unknown[] {
  const s = storedSpan(input);
  return [
    c.claim_id,
    userId,
    c.passage_id,
    c.live,
    c.unended,
    c.r,
    c.t,
    c.early_stop,
    storedVerdict(input.verdict),
    input.unreadable,
    s?.startParagraphId ?? null,
    s?.startCharacter ?? null,
    s?.endParagraphId ?? null,
    s?.endCharacter ?? null,
    s?.text ?? null,
    MAX_DURATION_MS,
    input.idempotencyKey,
    hash,
    c.is_gold,
    correct,
    notesOf(input).comment,
    flagsLiteral(notesOf(input).flags),
    input.durationMs,
    input.label ?? null,
    isPageLevel(c.task_kind, input),
    input.verdict === "partial",
    memberSpansJson(input.spans),
  ];
}

/** The stored judgment's view: `durationMs` is the time the server measured, as a replay answers it. */
function viewOf(input: JudgmentInput, handle: string, createdAt: Date, durationMs: number): JudgmentView {
  const { verdict, unreadable } = input;
  const label = input.label ?? null;
  const spans = input.spans ? { spans: input.spans.map((s) => ({ ...s })) } : {};
  return {
    claim: handle,
    verdict,
    label,
    unreadable,
    span: input.span && { ...input.span },
    ...spans,
    durationMs,
    createdAt,
    ...notesOf(input),
  };
}

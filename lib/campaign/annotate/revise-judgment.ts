import "server-only";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { rowsOf, type Db, type Tx } from "@/db/client";
import { requireUser, type Actor } from "@/lib/auth/actor";
import { AppError, isUniqueViolation } from "@/lib/errors";
import { breaksGoldRule, goldCountsOf, isGoldCorrect } from "../quality/standings";
import { spanWithTextOf, type JudgmentVersionRow } from "../report/rows";
import type { ClaimRow } from "./judgment-statements";
import { memberSlicesSql } from "../set-members.internal";
import { buildPartialSets } from "./partial-sets";
import { flagsLiteral, notesOf, type RevisedJudgmentView } from "./judgments.contract";
import { checkTaskVerdict } from "./judgment-input";
import { checkSetVerdict, memberSpansJson, storedSpan, storedVerdict, verdictName } from "./judgment-sets";
import type { MemberSpan } from "@/db/schema";
import type { FactLabel } from "@/lib/kilt/task-kind";
import { checkSpan, goldOf, isPageLevel, judgmentInputSchema, pauseByGoldRule, requestHash, type JudgmentInput } from "./judgments";

/**
 * The body of PUT /api/claims/:handle/judgment: a judgment's new version, checked as a submission
 * is, and `revision`, the version it replaces (what the client last saw): a stale client or a late
 * retry of an older revision is refused rather than overwriting a newer one.
 */
export const revisionInputSchema = judgmentInputSchema.safeExtend({
  revision: z.number("must be the judgment's revision (a number)").int().min(0, "must be 0 or more"),
});

export type RevisionInput = z.infer<typeof revisionInputSchema>;

/** The judgment as the revision reads it, under its lock. */
interface Locked extends JudgmentVersionRow {
  judgment_id: number;
  passage_id: number;
  campaign_id: number;
  user_id: number;
  revised_at: string | null;
  created_at: string;
  idempotency_key: string;
  request_hash: string;
  label: FactLabel | null;
  partial: boolean;
  member_spans: MemberSpan[] | null;
}

/** The passage, its campaign's rules and the caller's standing, as the revision reads them under the passage lock. */
type PassageState = Pick<
  ClaimRow,
  | "r"
  | "t"
  | "early_stop"
  | "gold_min_judgments"
  | "gold_accuracy_threshold"
  | "all_annotators"
  | "member"
  | "is_gold"
  | "start_paragraph_id"
  | "end_paragraph_id"
  | "slice"
  | "gold_span_slack"
  | "task_kind"
  | "expected_label"
  | "set_members"
  | "member_slices"
  | "partial_evidence"
> &
  Parameters<typeof goldOf>[0] & {
    paused: boolean;
    batch_status: string;
    sealed: boolean;
    is_decided: boolean;
    judgment_count: number;
    sufficient_count: number;
    /** The caller proposed this passage: the judgment is their proposal's highlight. */
    proposed: boolean;
  };

/** Why a judgment cannot change now (409), in the order the rule applies; null when it can. */
export function revisionRefusal(
  p: Pick<PassageState, "paused" | "batch_status" | "sealed" | "is_decided" | "judgment_count" | "r" | "proposed">,
): { reason: string; message: string } | null {
  // A proposer judges their own passage once, by proposing it: other annotators judge it from then on.
  if (p.proposed)
    return { reason: "proposed", message: "You proposed this passage: your highlight is its first judgment and stays as you proposed it." };
  if (p.paused) return { reason: "paused", message: "Your work on this campaign is paused: your judgments can no longer change." };
  if (p.batch_status === "closed" || p.sealed)
    return { reason: "closed", message: "This passage's batch is closed: its judgments can no longer change." };
  if (p.batch_status !== "launched")
    return { reason: "batch_paused", message: `This passage's batch is ${p.batch_status}: its judgments cannot change now.` };
  if (p.is_decided || p.judgment_count >= p.r)
    return { reason: "finished", message: "This passage is finished: its judgments can no longer change." };
  return null;
}

function viewOf(j: Locked, handle: string): RevisedJudgmentView {
  const at = (s: string | null) => (s === null ? null : new Date(s));
  return {
    claim: handle,
    verdict: verdictName(j.verdict, j.partial),
    label: j.label ?? null,
    unreadable: j.unreadable,
    span: j.member_spans ? null : spanWithTextOf(j),
    ...(j.member_spans ? { spans: j.member_spans.map((m) => ({ ...m })) } : {}),
    durationMs: j.duration_ms,
    createdAt: new Date(j.created_at),
    comment: j.comment,
    flags: j.flags,
    revision: j.revision,
    revisedAt: at(j.revised_at),
  };
}

/** The caller's judgment on the claim `handle` (no lock): which passage to lock first. */
async function findOwn(tx: Tx, handle: string, userId: number): Promise<{ judgment_id: number; passage_id: number }> {
  const [found] = rowsOf<{ judgment_id: number; passage_id: number }>(
    await tx.execute(sql`select j.id::float8 as judgment_id, j.passage_id::float8 as passage_id
      from claims c join judgments j on j.claim_id = c.id where c.handle = ${handle} and j.user_id = ${userId}`),
  );
  if (!found) throw new AppError("not_found", "No judgment of yours on this claim.");
  return found;
}

/** Locks the passage (first, as every writer of its counters does) and reads what the rule and the checks need. */
async function lockPassage(tx: Tx, passageId: number, userId: number, withSlice: boolean): Promise<PassageState> {
  const [p] = rowsOf<PassageState>(
    await tx.execute(sql`
      select cp.judgments_per_passage::int as r, cp.endorsement_threshold::int as t, cp.early_stop,
        cp.gold_min_judgments::int as gold_min_judgments, cp.gold_accuracy_threshold::float8 as gold_accuracy_threshold,
        cp.all_annotators, exists (select 1 from campaign_members m where m.campaign_id = p.campaign_id and m.user_id = ${userId}) as member,
        exists (select 1 from annotator_standings s where s.campaign_id = p.campaign_id and s.user_id = ${userId} and s.status = 'paused') as paused,
        b.status::text as batch_status, p.sealed_judgment_count is not null as sealed,
        p.is_decided, p.judgment_count::int as judgment_count, p.sufficient_count::int as sufficient_count,
        exists (select 1 from proposals pr where pr.passage_id = p.id and pr.user_id = ${userId}) as proposed,
        p.is_gold, p.expected_verdict::text as expected_verdict, p.expected_start_paragraph_id, p.expected_start_character,
        p.expected_end_paragraph_id, p.expected_end_character, p.start_paragraph_id, p.end_paragraph_id,
        cp.gold_span_slack::float8 as gold_span_slack, b.task_kind,
        case when p.is_gold and b.task_kind = 'fact-checking' then (select q.answers[1] from queries q where q.id = p.query_id) end as expected_label,
        case when ${withSlice}::boolean or (p.is_gold and p.expected_start_paragraph_id is not null) then (select array_to_json(pg.paragraphs[p.start_paragraph_id + 1 : p.end_paragraph_id + 1])
          from pages pg where pg.wikipedia_id = p.wikipedia_id) end as slice,
        p.set_members, b.partial_evidence,
        ${sql.raw(memberSlicesSql("p", `${withSlice}`))} as member_slices
      from passages p join batches b on b.id = p.batch_id join campaigns cp on cp.id = p.campaign_id
      where p.id = ${passageId}
      for no key update of p`),
  );
  if (!p) throw new AppError("not_found", "No judgment of yours on this claim.");
  return p;
}

async function lockJudgment(tx: Tx, judgmentId: number): Promise<Locked> {
  const [j] = rowsOf<Locked>(
    await tx.execute(sql`
      select id::float8 as judgment_id, passage_id::float8 as passage_id, campaign_id::float8 as campaign_id, user_id::float8 as user_id,
        verdict::text as verdict, unreadable, start_paragraph_id, start_character, end_paragraph_id, end_character, span_text,
        duration_ms, comment, flags, revision, revised_at, created_at, idempotency_key, request_hash, label, partial, member_spans
      from judgments where id = ${judgmentId} for update`),
  );
  if (!j) throw new AppError("not_found", "No judgment of yours on this claim.");
  return j;
}

/** The writes of one revision, in the transaction that holds the passage and judgment locks. */
async function writeRevision(tx: Tx, p: PassageState, j: Locked, input: RevisionInput, hash: string) {
  const notes = notesOf(input);
  const s = storedSpan(input);
  const delta = (input.verdict === "sufficient" ? 1 : 0) - (j.verdict === "sufficient" ? 1 : 0);
  const gold = p.is_gold ? goldOf(p) : null;
  const before = { verdict: j.verdict, span: spanWithTextOf(j), spans: j.member_spans, label: j.label };
  const goldDelta = gold
    ? Number(isGoldCorrect(gold, input, p.gold_span_slack)) - Number(isGoldCorrect(gold, before, p.gold_span_slack))
    : 0;
  const negativeDelta = gold?.expectedVerdict === "insufficient" ? goldDelta : 0;
  // Time: `duration_ms` keeps the time the server measured for the first submission (from handing
  // out the task to receiving it; what the speed rule, the warnings and the histogram read): a
  // revision has no hand-out of its own to measure from, and the time it takes falls in the
  // annotator's next judgment, measured from this one's first submission. The client's hint adds
  // up the first submission's and every revision's time it claims (`client_duration_ms`), read by no rule.
  await tx.execute(sql`
    insert into judgment_versions (judgment_id, campaign_id, revision, verdict, unreadable, start_paragraph_id, start_character,
      end_paragraph_id, end_character, span_text, comment, flags, duration_ms, client_duration_ms, submitted_at, replaced_at, label, page_level,
      partial, member_spans)
    select id, campaign_id, revision, verdict, unreadable, start_paragraph_id, start_character, end_paragraph_id, end_character,
      span_text, comment, flags, duration_ms, client_duration_ms, coalesce(revised_at, created_at), now(), label, page_level, partial, member_spans
    from judgments where id = ${j.judgment_id}`);
  const [updated] = rowsOf<Locked>(
    await tx.execute(sql`
      update judgments set verdict = ${storedVerdict(input.verdict)}::verdict, partial = ${input.verdict === "partial"},
        member_spans = ${memberSpansJson(input.spans)}::jsonb, label = ${input.label ?? null}::text, unreadable = ${input.unreadable},
        start_paragraph_id = ${s?.startParagraphId ?? null}::int, start_character = ${s?.startCharacter ?? null}::int,
        end_paragraph_id = ${s?.endParagraphId ?? null}::int, end_character = ${s?.endCharacter ?? null}::int, span_text = ${s?.text ?? null}::text,
        page_level = ${isPageLevel(p.task_kind, input)}, comment = ${notes.comment}::text, flags = ${flagsLiteral(notes.flags)}::text[],
        client_duration_ms = least(coalesce(client_duration_ms, 0)::bigint + ${input.durationMs}::int, 2147483647)::int,
        revision = revision + 1, revised_at = now(), idempotency_key = ${input.idempotencyKey}, request_hash = ${hash}
      where id = ${j.judgment_id}
      returning id::float8 as judgment_id, verdict::text as verdict, unreadable, start_paragraph_id, start_character, end_paragraph_id,
        end_character, span_text, duration_ms, comment, flags, revision, revised_at, created_at, label, partial, member_spans`),
  );
  // The annotators' tallies keep judgments by half-second bucket of duration_ms, which a revision leaves as it was: nothing moves.
  if (delta !== 0) {
    // The judgment counts (the passage is not finished and its annotator is active): the counters move as a judgment's write moves them.
    await tx.execute(sql`
      update passages p set sufficient_count = p.sufficient_count + ${delta}::int,
        is_decided = p.is_decided or kps_closes_early(${p.early_stop}, p.judgment_count, p.sufficient_count + ${delta}::int, ${p.r}::int, ${p.t}::int),
        open_slots = case when kps_closes_early(${p.early_stop}, p.judgment_count, p.sufficient_count + ${delta}::int, ${p.r}::int, ${p.t}::int)
          then 0 else p.open_slots end
      where p.id = ${j.passage_id}`);
  }
  if (!gold) return { updated: updated!, standing: null };
  const [standing] = rowsOf<{
    status: string;
    gold_judged: number;
    gold_correct: number;
    negative_gold_judged: number;
    negative_gold_correct: number;
  }>(
    await tx.execute(sql`
      update annotator_standings s set gold_correct = s.gold_correct + ${goldDelta}::int,
        negative_gold_correct = s.negative_gold_correct + ${negativeDelta}::int, updated_at = now()
      where s.campaign_id = ${j.campaign_id} and s.user_id = ${j.user_id}
      returning s.status::text as status, s.gold_judged::int as gold_judged, s.gold_correct::int as gold_correct,
        s.negative_gold_judged::int as negative_gold_judged, s.negative_gold_correct::int as negative_gold_correct`),
  );
  return { updated: updated!, standing: standing ?? null };
}

/**
 * Revises the caller's judgment on claim `handle` (undo on the judging page, or the history page):
 * allowed while its batch is launched and not sealed, the annotator is active in the campaign and
 * its passage is not finished — the judgment then counts, so the passage's sufficient count moves by
 * the change and early stop applies as for a new judgment; on gold the annotator's score follows
 * (and the gold rule may pause them). The old version goes to judgment_versions. One transaction,
 * the passage locked first and then the judgment, so concurrent revisions and submissions take
 * turns. Idempotent per key: the same key and body answer the stored revision (`replayed`).
 */
export async function reviseJudgment(
  db: Db,
  actor: Actor,
  handle: string,
  input: RevisionInput,
): Promise<{ judgment: RevisedJudgmentView; replayed: boolean }> {
  const user = requireUser(actor);
  if (user.role !== "annotator" && user.role !== "crowd") throw new AppError("forbidden", "Only annotators revise judgments.");
  try {
    const { pauseIn, ...result } = await db.transaction(async (tx) => {
      const own = await findOwn(tx, handle, user.id);
      const p = await lockPassage(tx, own.passage_id, user.id, input.span !== null || !!input.spans);
      const j = await lockJudgment(tx, own.judgment_id);
      // A crowd worker's judgments all lie in the one campaign it entered.
      if (user.role === "annotator" && !p.all_annotators && !p.member)
        throw new AppError("not_found", "No judgment of yours on this claim.");
      const { revision: expected, ...body } = input;
      const hash = requestHash(j.judgment_id, body as JudgmentInput, { revise: expected });
      if (j.idempotency_key === input.idempotencyKey) {
        if (j.request_hash !== hash)
          throw new AppError("conflict", "This idempotency key was used with a different judgment; send a new key for a new revision.");
        return { judgment: viewOf(j, handle), replayed: true, pauseIn: null, passageId: j.passage_id };
      }
      const refused = revisionRefusal(p);
      if (refused) throw new AppError("conflict", refused.message, { reason: refused.reason });
      if (j.revision !== expected) {
        throw new AppError(
          "conflict",
          `This judgment was revised since you opened it (it is at revision ${j.revision}); reload to see it.`,
          { reason: "stale" },
        );
      }
      checkSetVerdict(p, input);
      checkTaskVerdict(p.task_kind, { ...input, span: storedSpan(input) });
      if (input.span) checkSpan(p, input.span);
      const { updated, standing } = await writeRevision(tx, p, j, input, hash);
      const failsGold =
        standing?.status === "active" &&
        breaksGoldRule(goldCountsOf(standing), { minJudgments: p.gold_min_judgments, threshold: p.gold_accuracy_threshold });
      return {
        judgment: viewOf({ ...j, ...updated }, handle),
        replayed: false,
        pauseIn: failsGold ? j.campaign_id : null,
        passageId: j.passage_id,
      };
    });
    // The gold rule pauses after the revision is stored, as after a new judgment.
    if (pauseIn !== null) await pauseByGoldRule(db, pauseIn, user.id);
    if (input.verdict === "partial" && !result.replayed) await buildPartialSets(db, result.passageId);
    return { judgment: result.judgment, replayed: result.replayed };
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError("conflict", "This idempotency key was used with another judgment of yours; send a new key.");
    throw error;
  }
}

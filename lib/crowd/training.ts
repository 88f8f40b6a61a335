import "server-only";
import { z } from "zod";
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { rowsOf } from "@/db/client";
import { claims, crowdSessions, trainingAnswers, type Campaign } from "@/db/schema";
import {
  checkTaskVerdict,
  checkVerdictRules,
  clientDurationSchema,
  labelSchema,
  verdictSchema,
} from "@/lib/campaign/annotate/judgment-input";
import { checkSpan, spanSchema } from "@/lib/campaign/annotate/judgments";
import { newClaimHandle, taskFromRow, type TaskRow } from "@/lib/campaign/claims.internal";
import { isGoldCorrect } from "@/lib/campaign/quality/standings";
import { AppError, parseInput } from "@/lib/errors";
import { sliceLocation } from "@/lib/kilt/codepoints";
import type { FactLabel } from "@/lib/kilt/task-kind";
import { endSession, sessionView, trainingTotal, type SessionContext } from "./session-state";
import { requireCrowdSession } from "./crowd-actor";
import type { TrainingFeedback, TrainingItemView, TrainingSpan } from "./session.contract";

export const trainingAnswerSchema = z
  .object({
    position: z.number().int().min(0, "must be 0 or more").max(1000),
    verdict: verdictSchema,
    unreadable: z.boolean().default(false),
    span: spanSchema.nullable().default(null),
    label: labelSchema,
    durationMs: clientDurationSchema,
  })
  .strict()
  .superRefine(checkVerdictRules);
export type TrainingAnswerInput = z.infer<typeof trainingAnswerSchema>;

/** The task view's columns (without claim and progress), the passage's end and what gold expects. */
interface TrainingRow extends Omit<TaskRow, "handle" | "expires_ms" | "today" | "done" | "total"> {
  passage_id: number;
  end: number;
  expected_verdict: "sufficient" | "insufficient";
  expected_start_paragraph_id: number | null;
  expected_start_character: number | null;
  expected_end_paragraph_id: number | null;
  expected_end_character: number | null;
  expected_text: string[] | null;
  explanation: string | null;
}

/**
 * A training passage of the campaign's launched batches, with its question and the paragraphs the
 * judging page shows (a single passage: training items are never evidence sets, which the import refuses): for `userId`, the next one they have not answered, in an order fixed per worker
 * (md5(id:user), as assignment orders passages).
 */
async function trainingPassage(db: Db, campaignId: number, userId: number): Promise<TrainingRow | null> {
  const [row] = rowsOf<TrainingRow>(
    await db.execute(sql`
      select p.id::float8 as passage_id, q.kilt_id, q.input, to_json(q.answers) as answers, b.task_kind, pg.wikipedia_id, pg.title,
        p.start_paragraph_id as start, p.end_paragraph_id as "end",
        array_to_json(pg.paragraphs[p.start_paragraph_id + 1 : p.end_paragraph_id + 1]) as paragraphs,
        (select e from unnest(pg.paragraphs[2 : p.start_paragraph_id]) with ordinality as h(e, i) where e like 'Section::::%' order by i desc limit 1) as header_above,
        p.expected_verdict::text as expected_verdict, p.expected_start_paragraph_id, p.expected_start_character, p.expected_end_paragraph_id, p.expected_end_character,
        case when p.expected_start_paragraph_id is null then null
          else array_to_json(pg.paragraphs[p.expected_start_paragraph_id + 1 : p.expected_end_paragraph_id + 1]) end as expected_text,
        p.explanation
      from passages p join batches b on b.id = p.batch_id join queries q on q.id = p.query_id join pages pg on pg.wikipedia_id = p.wikipedia_id
      where p.campaign_id = ${campaignId} and p.is_training and p.set_members is null and b.status = 'launched'
        and not exists (select 1 from training_answers t where t.user_id = ${userId}::bigint and t.passage_id = p.id)
      order by md5(p.id::text || ':' || ${userId}::bigint::text)
      limit 1`),
  );
  return row ? { ...row, passage_id: Number(row.passage_id) } : null;
}

function itemOf(row: TrainingRow, campaign: Pick<Campaign, "showAnswers">, position: number, total: number): TrainingItemView {
  const taskRow = { ...row, handle: "", expires_ms: 0, today: 0, done: 0, total: 0 };
  const { query, passage } = taskFromRow(taskRow, campaign as Campaign);
  return { position, total, query, passage };
}

/** The worker's next training item (their own session, in its training stage); null otherwise. */
export async function getTrainingItem(
  db: Db,
  actor: Parameters<typeof requireCrowdSession>[1],
): Promise<{ item: TrainingItemView | null; session: Awaited<ReturnType<typeof sessionView>> }> {
  const { ctx } = await requireCrowdSession(db, actor);
  const row = ctx.session.stage === "training" ? await trainingPassage(db, ctx.campaign.id, ctx.session.userId) : null;
  const total = await trainingTotal(db, ctx);
  return { item: row ? itemOf(row, ctx.campaign, ctx.session.trainingJudged, total) : null, session: await sessionView(db, ctx) };
}

/** Fact-checking training expected sufficient: the line's dataset label (its first answer), which the worker's label must match. */
function expectedLabelOf(row: TrainingRow): FactLabel | null {
  const a = row.answers[0];
  return row.task_kind === "fact-checking" && row.expected_verdict === "sufficient" && (a === "SUPPORTS" || a === "REFUTES") ? a : null;
}

function expectedSpan(row: TrainingRow): TrainingSpan | null {
  if (row.expected_start_paragraph_id === null || !row.expected_text) return null;
  const paragraphs: string[] = [];
  row.expected_text.forEach((text, i) => (paragraphs[row.expected_start_paragraph_id! + i] = text));
  const loc = {
    startParagraphId: row.expected_start_paragraph_id,
    startCharacter: row.expected_start_character!,
    endParagraphId: row.expected_end_paragraph_id!,
    endCharacter: row.expected_end_character!,
  };
  return { ...loc, text: sliceLocation(paragraphs, loc) ?? "" };
}

/**
 * A training answer: checked like a judgment (the span must read as the passage does), scored as gold
 * is, stored apart from judgments (it never counts), and answered with the expected verdict and span
 * and the explanation. The feedback shows this item only: its passage, verdict, span and
 * explanation. From then on no passage of its question — this one, its candidates, other gold,
 * passages added to it later — is given to this worker as work (the claim statement skips the
 * questions of the caller's training answers: `trained` in lib/campaign/annotate/claim-next.internal.ts), so
 * nothing the feedback shows is hidden gold of their own work. The last answer of the round decides:
 * pass → real work, else the session ends with the "training not passed" code.
 */
export async function answerTraining(
  db: Db,
  actor: Parameters<typeof requireCrowdSession>[1],
  input: TrainingAnswerInput,
): Promise<TrainingFeedback> {
  const answer = parseInput(trainingAnswerSchema, input);
  const { ctx } = await requireCrowdSession(db, actor);
  const s = ctx.session;
  if (s.stage !== "training")
    throw new AppError("conflict", s.stage === "ended" ? "This session is over." : "Training is not under way in this session.", {
      stage: s.stage,
    });
  if (answer.position !== s.trainingJudged) {
    throw new AppError(
      "conflict",
      `This answer is for training item ${answer.position + 1}, but item ${s.trainingJudged + 1} is on screen; reload the page.`,
    );
  }
  const row = await trainingPassage(db, ctx.campaign.id, s.userId);
  if (!row) throw new AppError("conflict", "No training item is left for you; reload the page.");
  checkTaskVerdict(row.task_kind, answer);
  if (answer.span) checkSpan({ start_paragraph_id: row.start, end_paragraph_id: row.end, slice: row.paragraphs }, answer.span);
  const expected = {
    startParagraphId: row.start,
    paragraphs: row.paragraphs,
    expectedVerdict: row.expected_verdict,
    expectedStartParagraphId: row.expected_start_paragraph_id,
    expectedStartCharacter: row.expected_start_character,
    expectedEndParagraphId: row.expected_end_paragraph_id,
    expectedEndCharacter: row.expected_end_character,
    taskKind: row.task_kind,
    expectedLabel: expectedLabelOf(row),
  };
  // Scored as a judgment on gold is: the span check of sufficient gold with the campaign's slack.
  const correct = isGoldCorrect(expected, answer, ctx.campaign.goldSpanSlack);
  const session = await recordAnswer(db, ctx, row.passage_id, answer, correct);
  const settled = await finishRoundIfDone(db, { ...ctx, session });
  return {
    correct,
    given: { verdict: answer.verdict, span: answer.span, label: answer.label ?? null },
    expected: { verdict: row.expected_verdict, span: expectedSpan(row), label: expectedLabelOf(row) },
    explanation: row.explanation,
    session: await sessionView(db, settled),
  };
}

async function recordAnswer(db: Db, ctx: SessionContext, passageId: number, a: TrainingAnswerInput, correct: boolean) {
  const s = ctx.session;
  return db.transaction(async (tx) => {
    const [session] = await tx
      .update(crowdSessions)
      .set({
        trainingJudged: sql`${crowdSessions.trainingJudged} + 1`,
        trainingCorrect: sql`${crowdSessions.trainingCorrect} + ${correct ? 1 : 0}`,
      })
      .where(sql`${crowdSessions.id} = ${s.id} and ${crowdSessions.trainingJudged} = ${a.position} and ${crowdSessions.stage} = 'training'`)
      .returning();
    if (!session) throw new AppError("conflict", "This training item was answered already; reload the page.");
    const span = a.span;
    await tx.insert(trainingAnswers).values({
      sessionId: s.id,
      passageId,
      userId: s.userId,
      position: a.position,
      verdict: a.verdict,
      startParagraphId: span?.startParagraphId ?? null,
      startCharacter: span?.startCharacter ?? null,
      endParagraphId: span?.endParagraphId ?? null,
      endCharacter: span?.endCharacter ?? null,
      spanText: span?.text ?? null,
      label: a.label ?? null,
      correct,
      // The client's figure, for the record only: no hand-out time is kept per training item, so no
      // rule and no report reads it (the payment report times training by the server's clock).
      durationMs: a.durationMs,
    });
    // An ended claim (it occupies no slot: the counters stay as they are), as before the question-wide rule: the
    // training answer stored above is what keeps the whole question from this worker, at claim time.
    await tx
      .insert(claims)
      .values({
        handle: newClaimHandle(),
        passageId,
        userId: s.userId,
        campaignId: s.campaignId,
        expiresAt: sql`now()`,
        endedAt: sql`now()`,
      })
      .onConflictDoNothing();
    return session;
  });
}

async function finishRoundIfDone(db: Db, ctx: SessionContext): Promise<SessionContext> {
  const s = ctx.session;
  const total = await trainingTotal(db, ctx);
  if (s.trainingJudged < total) return ctx;
  const passed = s.trainingCorrect >= Math.ceil(ctx.entry.trainingPassShare * total - 1e-9);
  if (!passed) return endSession(db, ctx, "training_failed");
  const [session] = await db
    .update(crowdSessions)
    .set({ stage: "working", workStartedAt: new Date() })
    .where(sql`${crowdSessions.id} = ${s.id} and ${crowdSessions.stage} = 'training'`)
    .returning();
  return { ...ctx, session: session ?? s };
}

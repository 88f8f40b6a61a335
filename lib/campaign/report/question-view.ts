import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import type { Aggregation, PassageOrigin, SetMember, TaskKind } from "@/db/schema";
import { requireCoordinator, type Actor } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import { codePointLength, type Location } from "@/lib/kilt/codepoints";
import { getCampaign } from "../campaigns";
import { campaignFit } from "../quality/aggregation";
import { liveAdjudicationsOf } from "../quality/adjudication";
import type { AdjudicationView } from "../quality/adjudication.contract";
import { consensusSpan } from "../quality/consensus";
import { answerKeepingConsensus } from "../quality/consensus-answer";
import { isUnanswerable, type OutcomeSettings, type PassageOutcome } from "../quality/outcome";
import { answersInText } from "./provenance-kinds";
import { explanationsOf, proposerNamesOf, proposersOf, type ExplanationView } from "./question-responses";
import { memberRowsSql, type MemberRow } from "../set-members.internal";
import type { SetMemberView } from "./annotators.contract";
import { countedInOrder, type QuestionJudgment, type ViewedJudgmentRow } from "./question-judgments";
import { outcomeOfRow, spanOf, type PassageOutcomeRow } from "./rows";
import { memberConsensus, memberViewsOf } from "./set-views";

export type { QuestionJudgment } from "./question-judgments";

/** A member of an evidence set in the question view: its page and paragraphs, and the consensus of the endorsing highlights in it (when endorsed). */
export type QuestionSetMember = SetMemberView & { consensus: Location | null };

export interface QuestionPassage {
  id: number;
  wikipediaId: string;
  title: string;
  startParagraphId: number;
  endParagraphId: number;
  /** The passage's paragraphs, verbatim (code-point offsets index into these). */
  paragraphs: { id: number; text: string }[];
  isGold: boolean;
  expectedVerdict: "sufficient" | "insufficient" | null;
  expectedSpan: Location | null;
  judgmentCount: number;
  sufficientCount: number;
  claimCount: number;
  openSlots: number;
  isDecided: boolean;
  finished: boolean;
  endorsed: boolean;
  /** The consensus span of the counted sufficient highlights (what the export writes, widened to an answer it lost: consensus-answer.ts), when endorsed. */
  consensus: Location | null;
  /** P(sufficient) under the campaign's Dawid–Skene fit (gold: its expected verdict); null without counted judgments. */
  posterior: number | null;
  /** The span an endorsement without a span of its own exports: the consensus of the counted highlights, endorsed or not (null: nobody highlighted). */
  consensusOfHighlights: Location | null;
  /** The coordinator's live decision, which overrides the vote in the export (null: the vote decides). */
  adjudication: AdjudicationView | null;
  /** An evidence set's members in page order, member 0 being the passage's own location (null: a single passage). */
  members: QuestionSetMember[] | null;
  /** Proposed by annotators who found no passage of the question sufficient (usernames; a crowd worker's pseudonym); empty for imported passages. */
  proposedBy: string[];
  judgments: QuestionJudgment[];
}

export interface QuestionView {
  campaign: { id: number; name: string; judgmentsPerPassage: number; endorsementThreshold: number; aggregation: Aggregation };
  query: {
    id: number;
    kiltId: string;
    input: string;
    answers: string[];
    batchId: number;
    lineNumber: number;
    /** Its batch's KILT task, and the KILT dataset the batch came from (null: not named). */
    taskKind: TaskKind;
    dataset: string | null;
  };
  /** A sufficient gold passage finished without endorsement: unanswerable from the snapshot. */
  unanswerable: boolean;
  passages: QuestionPassage[];
  /** Why annotators found no passage answers it (issue 16), oldest first. */
  explanations: ExplanationView[];
}

interface PassageRow extends PassageOutcomeRow {
  id: string | number;
  wikipedia_id: string;
  title: string;
  start_paragraph_id: number;
  end_paragraph_id: number;
  paragraphs: string[];
  expected_start_paragraph_id: number | null;
  expected_start_character: number | null;
  expected_end_paragraph_id: number | null;
  expected_end_character: number | null;
  claim_count: number;
  open_slots: number;
  origins: PassageOrigin[];
  set_members: SetMember[] | null;
  members: MemberRow[] | null;
}

/** Every passage of one question with its judgments, highlights, consensus span and gold (coordinators). */
export async function getQuestionView(db: Db, actor: Actor, campaignId: number, queryId: number): Promise<QuestionView> {
  requireCoordinator(actor);
  const campaign = await getCampaign(db, actor, campaignId);
  const [q] = rowsOf<{
    id: string | number;
    kilt_id: string;
    input: string;
    answers: string[];
    batch_id: string | number;
    line_number: number;
    task_kind: TaskKind;
    dataset: string | null;
  }>(
    await db.execute(
      sql`select q.id, q.kilt_id, q.input, q.answers, q.batch_id, q.line_number, b.task_kind, b.dataset
          from queries q join batches b on b.id = q.batch_id where q.id = ${queryId} and q.campaign_id = ${campaignId}`,
    ),
  );
  if (!q) throw new AppError("not_found", `No question with id ${queryId} in campaign ${campaignId}.`);
  const { passageRows, judgmentRows } = await readQuestion(db, queryId);
  const decisions = await liveAdjudicationsOf(
    db,
    passageRows.map((p) => Number(p.id)),
  );
  const passages = passageRows.map((p) =>
    questionPassage(
      p,
      judgmentRows.filter((j) => Number(j.passage_id) === Number(p.id)),
      campaign,
      decisions.get(Number(p.id)) ?? null,
      q,
    ),
  );
  const fit = await campaignFit(db, campaign);
  for (const { passage } of passages) passage.posterior = fit.posteriors.get(passage.id) ?? null;
  const names = await proposerNamesOf(
    db,
    passages.flatMap((p) => p.passage.proposedBy),
  );
  for (const { passage } of passages) passage.proposedBy = passage.proposedBy.map((p) => names.get(p) ?? p);
  return {
    campaign: {
      id: campaign.id,
      name: campaign.name,
      judgmentsPerPassage: campaign.judgmentsPerPassage,
      endorsementThreshold: campaign.endorsementThreshold,
      aggregation: campaign.aggregation,
    },
    query: {
      id: Number(q.id),
      kiltId: q.kilt_id,
      input: q.input,
      answers: q.answers,
      batchId: Number(q.batch_id),
      lineNumber: q.line_number,
      taskKind: q.task_kind,
      dataset: q.dataset,
    },
    // A gold passage the coordinator decided no longer makes the question unanswerable (as in the export).
    unanswerable: isUnanswerable(passages.map((p) => ({ missesGold: p.outcome.missesGold && !p.passage.adjudication }))),
    passages: passages.map((p) => p.passage),
    explanations: (await explanationsOf(db, campaignId, [queryId])).get(queryId) ?? [],
  };
}

async function readQuestion(db: Db, queryId: number): Promise<{ passageRows: PassageRow[]; judgmentRows: ViewedJudgmentRow[] }> {
  const passageRows = rowsOf<PassageRow>(
    await db.execute(sql`
      select p.id, p.wikipedia_id, pg.title, p.start_paragraph_id, p.end_paragraph_id,
             array_to_json(pg.paragraphs[p.start_paragraph_id + 1 : p.end_paragraph_id + 1]) as paragraphs,
             p.is_gold, p.expected_verdict, p.expected_start_paragraph_id, p.expected_start_character,
             p.expected_end_paragraph_id, p.expected_end_character,
             p.judgment_count, p.sufficient_count, p.claim_count, p.open_slots, p.is_decided, p.origins,
             p.set_members, ${sql.raw(memberRowsSql("p"))} as members
      from passages p join pages pg on pg.wikipedia_id = p.wikipedia_id
      where p.query_id = ${queryId}
      order by p.is_gold desc, p.id`),
  );
  const judgmentRows = rowsOf<ViewedJudgmentRow>(
    await db.execute(sql`
      select j.id, j.passage_id, u.username, j.verdict, j.unreadable, j.start_paragraph_id, j.start_character,
             j.end_paragraph_id, j.end_character, j.span_text, j.duration_ms, j.created_at, j.comment, j.flags, j.revision,
             j.label, j.partial, j.member_spans, coalesce(s.status, 'active') = 'paused' as paused
      from judgments j join passages p on p.id = j.passage_id join users u on u.id = j.user_id
      left join annotator_standings s on s.campaign_id = j.campaign_id and s.user_id = j.user_id
      where p.query_id = ${queryId}
      order by j.passage_id, j.created_at, j.id`),
  );
  return { passageRows, judgmentRows };
}

/** One passage of the view from its row and its judgments (in time order), with its outcome. */
function questionPassage(
  p: PassageRow,
  judgmentRows: ViewedJudgmentRow[],
  campaign: OutcomeSettings,
  adjudication: AdjudicationView | null,
  query: { task_kind: TaskKind; answers: string[] },
): { passage: QuestionPassage; outcome: PassageOutcome } {
  const judgments = countedInOrder(judgmentRows, campaign.judgmentsPerPassage, query.task_kind === "fact-checking" ? query.answers : []);
  const answers = answersInText(query.task_kind, query.answers);
  const outcome = outcomeOfRow(p, campaign);
  const highlights = judgments.filter((j) => j.counted && j.verdict === "sufficient" && j.span).map((j) => j.span!);
  const shape = { startParagraphId: p.start_paragraph_id, paragraphLengths: p.paragraphs.map(codePointLength) };
  const passage: QuestionPassage = {
    id: Number(p.id),
    wikipediaId: p.wikipedia_id,
    title: p.title,
    startParagraphId: p.start_paragraph_id,
    endParagraphId: p.end_paragraph_id,
    paragraphs: p.paragraphs.map((text, i) => ({ id: p.start_paragraph_id + i, text })),
    isGold: p.is_gold,
    expectedVerdict: p.expected_verdict,
    expectedSpan: spanOf({
      start_paragraph_id: p.expected_start_paragraph_id,
      start_character: p.expected_start_character,
      end_paragraph_id: p.expected_end_paragraph_id,
      end_character: p.expected_end_character,
    }),
    judgmentCount: p.judgment_count,
    sufficientCount: p.sufficient_count,
    claimCount: p.claim_count,
    openSlots: p.open_slots,
    isDecided: p.is_decided,
    finished: outcome.finished,
    endorsed: outcome.endorsed,
    consensus: outcome.endorsed
      ? (answerKeepingConsensus(shape, p.paragraphs, highlights, campaign.endorsementThreshold, answers) ?? null)
      : null,
    posterior: null,
    consensusOfHighlights: consensusSpan(shape, highlights, campaign.endorsementThreshold) ?? null,
    adjudication,
    members: setMembersOf(p, judgments, outcome.endorsed ? campaign.endorsementThreshold : null, answers),
    proposedBy: proposersOf(p.origins),
    judgments,
  };
  return { passage, outcome };
}

/** A set's members with the consensus of the counted sufficient highlights in each (`threshold` null: not endorsed, no consensus). */
function setMembersOf(
  p: PassageRow,
  judgments: QuestionJudgment[],
  threshold: number | null,
  answers: string[],
): QuestionSetMember[] | null {
  const members = memberViewsOf(p.members, p.set_members);
  if (!members) return null;
  const highlights = judgments.filter((j) => j.counted && j.verdict === "sufficient" && j.memberSpans).map((j) => j.memberSpans!);
  const consensus = threshold === null ? members.map(() => null) : memberConsensus(members, highlights, threshold, answers);
  return members.map((m, i) => ({ ...m, consensus: consensus[i] ?? null }));
}

import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import type { PassageOrigin, TaskKind } from "@/db/schema";
import { codePointLength, sectionOf } from "@/lib/kilt/codepoints";
import type { CampaignView } from "../campaigns";
import { endorsementRuleOf, type EndorsementRule } from "../quality/aggregation";
import { adjudicatedByMeta, applyAdjudications, liveAdjudicationsOf } from "../quality/adjudication";
import type { AdjudicationView } from "../quality/adjudication.contract";
import { answerKeepingConsensus, locationHoldsAnswer } from "../quality/consensus-answer";
import { countedJudgmentsOf } from "../quality/counted-judgments";
import { isUnanswerable, type PassageOutcome } from "../quality/outcome";
import { answersInText, pageEntries } from "./provenance-kinds";
import { proposersOf } from "./question-responses";
import { groupBy, outcomeOfRow, spanOf, type JudgmentRow, type PassageOutcomeRow } from "./rows";

// What the campaign makes of each question's provenance, read a page of questions at a time: the
// one way the KILT export (export-kilt.ts) and the runs' golds (lib/campaign/runs/) turn a question
// and its endorsed passages into KILT provenance entries. Internal: callers authorize first.

/** Questions read per round trip: memory stays flat whatever the campaign's size. */
export const PAGE_QUERIES = 500;

/** Where a question stands for the export: its endorsed passages' entries, or why it has none. */
export type ProvenanceStatus = "endorsed" | "unanswerable" | "none-endorsed";

/** One question of a page, with the export's provenance entries (JSON texts `{"provenance": [item]}`, one per endorsed passage). */
export interface QuestionProvenance {
  id: number;
  kiltId: string;
  input: string;
  originalLine: string;
  batchId: number;
  status: ProvenanceStatus;
  /** Empty unless `status` is "endorsed". */
  entries: string[];
  /** The exported locations (of `entries`) whose text holds none of the question's answers; empty for a question without answers. */
  withoutAnswer: SpanWithoutAnswer[];
  /** Its passages: how many, how many finished, and the votes of those that decide its status (the export report's page shows them). */
  passages: number;
  finished: number;
  /** The gold passages expected sufficient that finished unendorsed (what makes it unanswerable). */
  missedGold: PassageVotes[];
  /** The endorsed passages (negative gold left aside), exported unless the question is unanswerable. */
  endorsed: PassageVotes[];
}

/** A passage of the report with its counted votes. */
export interface PassageVotes {
  passageId: number;
  wikipediaId: string;
  title: string;
  startParagraphId: number;
  endParagraphId: number;
  sufficient: number;
  judgments: number;
  /** The coordinator decided it (adjudication), over the vote. */
  adjudicated: boolean;
}

/** An exported provenance item whose text holds none of its question's normalised answers (the export report lists them). */
export interface SpanWithoutAnswer {
  queryId: string;
  passageId: number;
  wikipediaId: string;
  startParagraphId: number;
  startCharacter: number;
  endParagraphId: number;
  endCharacter: number;
}

export interface ProvenancePageOptions {
  /** `span`: the consensus span's offsets; `passage`: the passage's paragraphs with -1 characters. */
  location: "span" | "passage";
  /** The questions after this id (0: from the first). */
  after: number;
  batchId?: number;
  /** A further condition on the question (alias `q`). */
  where?: SQL;
  limit?: number;
  /** What "endorsed" means (default: the campaign's aggregation setting). */
  endorsement?: EndorsementRule;
}

interface QueryRow {
  id: number;
  kilt_id: string;
  input: string;
  original_line: string;
  batch_id: number;
  answers: string[];
  task_kind: TaskKind;
}

interface PassageRow extends PassageOutcomeRow {
  id: number;
  query_id: number;
  batch_id: number;
  wikipedia_id: string;
  start_paragraph_id: number;
  end_paragraph_id: number;
  title: string;
  /** The passage's paragraphs (read as JSON: the driver's text[] parser is slow), and the section header above it (null for the lead). */
  paragraphs: string[];
  header_above: string | null;
  /** R and T of a closed batch as sealed at close; null while the batch is open (the campaign's then). */
  sealed_r: number | null;
  sealed_t: number | null;
  origins: PassageOrigin[];
  /** The coordinator's live decision, which overrides the vote (quality/adjudication.ts). */
  adjudication?: AdjudicationView;
}

type HighlightRow = Pick<
  JudgmentRow,
  "passage_id" | "start_paragraph_id" | "start_character" | "end_paragraph_id" | "end_character" | "span_text"
>;

/**
 * The questions after `options.after` (a page of them, in id order) with the export's verdict on
 * each: unanswerable (a sufficient gold passage ended up not endorsed), no endorsed passage yet, or
 * the provenance entries of its endorsed passages. A passage of a closed batch is read as sealed at
 * close (counters, R and T, and which judgments counted: internal/seal.ts), so it never changes.
 */
export async function readProvenancePage(db: Db, campaign: CampaignView, options: ProvenancePageOptions): Promise<QuestionProvenance[]> {
  const batchFilter = options.batchId === undefined ? sql`` : sql`and q.batch_id = ${options.batchId}`;
  const where = options.where ? sql`and ${options.where}` : sql``;
  const queries = rowsOf<QueryRow>(
    await db.execute(sql`
      select q.id, q.kilt_id, q.input, q.original_line, q.batch_id, q.answers, b.task_kind from queries q join batches b on b.id = q.batch_id
      where q.campaign_id = ${campaign.id} and q.id > ${options.after} ${batchFilter} ${where}
      order by q.id limit ${options.limit ?? PAGE_QUERIES}`),
  );
  if (!queries.length) return [];
  const ps = await passagesOf(db, campaign, queries);
  const rule = options.endorsement ?? (await endorsementRuleOf(db, campaign));
  for (const p of ps) p.outcome.endorsed = rule.endorses(Number(p.id), p.outcome);
  const highlights = groupBy(await highlightsOf(db, campaign, ps), (h) => Number(h.passage_id));
  const byQuery = groupBy(ps, (p) => Number(p.query_id));
  return queries.map((q) => {
    const own = byQuery.get(Number(q.id)) ?? [];
    // Negative gold (expected insufficient: imported controls and decoys) is never exported, even endorsed.
    const mine = own.filter((p) => p.outcome.endorsed && !(p.is_gold && p.expected_verdict === "insufficient"));
    const base = {
      id: Number(q.id),
      kiltId: q.kilt_id,
      input: q.input,
      originalLine: q.original_line,
      batchId: Number(q.batch_id),
      withoutAnswer: [] as SpanWithoutAnswer[],
      passages: own.length,
      finished: own.filter((p) => p.outcome.finished).length,
      missedGold: own.filter((p) => p.outcome.missesGold).map(votesOf),
      endorsed: mine.map(votesOf),
    };
    if (isUnanswerable(own.map((p) => p.outcome))) return { ...base, status: "unanswerable" as const, entries: [] };
    if (!mine.length) return { ...base, status: "none-endorsed" as const, entries: [] };
    if (q.task_kind === "entity-linking") return { ...base, status: "endorsed" as const, entries: pageEntries(mine) };
    const ctx = {
      campaignId: campaign.id,
      location: options.location,
      rule,
      kiltId: q.kilt_id,
      answers: answersInText(q.task_kind, q.answers),
      withoutAnswer: base.withoutAnswer,
    };
    const entries = mine.map((p) =>
      provenanceEntry(p, highlights.get(Number(p.id)) ?? [], { ...ctx, t: p.sealed_t ?? campaign.endorsementThreshold }),
    );
    return { ...base, status: "endorsed" as const, entries };
  });
}

function votesOf(p: PassageRow): PassageVotes {
  return {
    passageId: Number(p.id),
    wikipediaId: p.wikipedia_id,
    title: p.title,
    startParagraphId: p.start_paragraph_id,
    endParagraphId: p.end_paragraph_id,
    sufficient: p.sufficient_count,
    judgments: p.judgment_count,
    adjudicated: p.adjudication !== undefined,
  };
}

/** The questions' passages with their outcomes. */
async function passagesOf(db: Db, campaign: CampaignView, queries: QueryRow[]): Promise<(PassageRow & { outcome: PassageOutcome })[]> {
  const ps = rowsOf<PassageRow & { outcome: PassageOutcome }>(
    await db.execute(sql`
      select p.id, p.query_id, p.batch_id, p.wikipedia_id, p.start_paragraph_id, p.end_paragraph_id, p.is_gold,
             p.expected_verdict, coalesce(p.sealed_judgment_count, p.judgment_count) as judgment_count,
             coalesce(p.sealed_sufficient_count, p.sufficient_count) as sufficient_count,
             coalesce(p.sealed_is_decided, p.is_decided) as is_decided, pg.title, p.origins,
             b.sealed_judgments_per_passage as sealed_r, b.sealed_endorsement_threshold as sealed_t,
             array_to_json(pg.paragraphs[p.start_paragraph_id + 1 : p.end_paragraph_id + 1]) as paragraphs,
             (select e from unnest(pg.paragraphs[2 : p.start_paragraph_id]) with ordinality as h(e, i)
              where e like 'Section::::%' order by i desc limit 1) as header_above
      from passages p join pages pg on pg.wikipedia_id = p.wikipedia_id join batches b on b.id = p.batch_id
      where p.query_id = any(${sql.param(queries.map((q) => Number(q.id)))}::bigint[])
      order by p.query_id, p.id`),
  );
  for (const p of ps) p.outcome = outcomeOfRow(p, settingsOf(p, campaign));
  // The coordinator's word over the vote, closed batches included.
  return applyAdjudications(
    ps,
    await liveAdjudicationsOf(
      db,
      ps.map((p) => Number(p.id)),
    ),
  );
}

/** The endorsing highlights: the sufficient judgments that count (in a closed batch: that counted at close). */
async function highlightsOf(db: Db, campaign: CampaignView, ps: (PassageRow & { outcome: PassageOutcome })[]): Promise<HighlightRow[]> {
  const endorsed = ps.filter((p) => p.outcome.endorsed);
  const ids = (sealed: boolean) => endorsed.filter((p) => (p.sealed_r !== null) === sealed).map((p) => Number(p.id));
  return [
    ...(ids(false).length
      ? rowsOf<HighlightRow>(
          await db.execute(sql`
            select passage_id, start_paragraph_id, start_character, end_paragraph_id, end_character, span_text
            from ${countedJudgmentsOf(ids(false), campaign.judgmentsPerPassage)}
            where verdict = 'sufficient'
            order by passage_id, created_at, id`),
        )
      : []),
    ...(ids(true).length
      ? rowsOf<HighlightRow>(
          await db.execute(sql`
            select passage_id, start_paragraph_id, start_character, end_paragraph_id, end_character, span_text
            from judgments where passage_id = any(${sql.param(ids(true))}::bigint[]) and counted_at_close and verdict = 'sufficient'
            order by passage_id, created_at, id`),
        )
      : []),
  ];
}

/** R and T a passage's outcome is read with: as sealed when its batch closed, else the campaign's. */
function settingsOf(p: PassageRow, campaign: CampaignView): { judgmentsPerPassage: number; endorsementThreshold: number } {
  return p.sealed_r !== null && p.sealed_t !== null
    ? { judgmentsPerPassage: p.sealed_r, endorsementThreshold: p.sealed_t }
    : { judgmentsPerPassage: campaign.judgmentsPerPassage, endorsementThreshold: campaign.endorsementThreshold };
}

/** One endorsed passage as a KILT output entry `{"provenance": [item]}`, located by its consensus span (or the whole passage). */
function provenanceEntry(
  p: PassageRow,
  highlights: HighlightRow[],
  ctx: {
    campaignId: number;
    t: number;
    location: "span" | "passage";
    rule: EndorsementRule;
    kiltId: string;
    answers: string[];
    withoutAnswer: SpanWithoutAnswer[];
  },
): string {
  const start = p.start_paragraph_id;
  const shape = { startParagraphId: start, paragraphLengths: p.paragraphs.map(codePointLength) };
  const locations = highlights.map((h) => spanOf(h)!);
  // The consensus span, widened to an answer an endorser highlighted when it lost them all (consensus-answer.ts).
  const consensus = ctx.location === "span" ? answerKeepingConsensus(shape, p.paragraphs, locations, ctx.t, ctx.answers) : undefined;
  // An adjudicated span replaces the consensus; without one, the consensus (the whole passage when there is none).
  const adjudicated = ctx.location === "span" ? (p.adjudication?.span ?? undefined) : undefined;
  const where = adjudicated ??
    consensus ?? { startParagraphId: start, startCharacter: -1, endParagraphId: p.end_paragraph_id, endCharacter: -1 };
  if (locationHoldsAnswer(shape, p.paragraphs, where, ctx.answers) === false) {
    ctx.withoutAnswer.push({ queryId: ctx.kiltId, passageId: Number(p.id), wikipediaId: p.wikipedia_id, ...where });
  }
  // The section of the span's first paragraph: a header inside the passage before it, else the
  // header above the passage, else the lead. (A stand-in title at index 0, as in a page.)
  const section = sectionOf(["", p.header_above ?? "", ...p.paragraphs], where.startParagraphId - start + 2);
  const item = {
    wikipedia_id: p.wikipedia_id,
    title: p.title,
    section,
    start_paragraph_id: where.startParagraphId,
    start_character: where.startCharacter,
    end_paragraph_id: where.endParagraphId,
    end_character: where.endCharacter,
    bleu_score: -1,
    meta: {
      evidence_span: highlights.map((h) => h.span_text),
      passage: { start_paragraph_id: start, end_paragraph_id: p.end_paragraph_id },
      votes: { sufficient: p.sufficient_count, insufficient: p.judgment_count - p.sufficient_count },
      campaign: ctx.campaignId,
      batch: Number(p.batch_id),
      // What endorsed it, and how surely: its posterior (dawid-skene) or its share of sufficient votes (majority).
      aggregation: ctx.rule.aggregation,
      confidence: ctx.rule.confidence(Number(p.id), { sufficient: p.sufficient_count, judgments: p.judgment_count }),
      // A passage an annotator proposed names its origins, the proposers by pseudonym (imported passages: as before, none).
      ...(proposersOf(p.origins).length ? { origins: p.origins } : {}),
      ...(p.adjudication ? { adjudicated_by: adjudicatedByMeta(p.adjudication) } : {}),
    },
  };
  return JSON.stringify({ provenance: [item] });
}

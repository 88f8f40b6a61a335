import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import type { TaskKind } from "@/db/schema";
import type { CampaignView } from "../campaigns";
import { endorsementRuleOf, type EndorsementRule } from "../quality/aggregation";
import { applyAdjudications, liveAdjudicationsOf } from "../quality/adjudication";
import { countedJudgmentsOf } from "../quality/counted-judgments";
import { isUnanswerable } from "../quality/outcome";
import { memberRowsSql } from "../set-members.internal";
import { partialEvidenceItems, partialMarksOf, type PartialRow } from "./partial-evidence";
import { provenanceEntry, type HighlightRow, type OutcomePassage, type PassageRow, type SpanWithoutAnswer } from "./provenance-entry";
import { answersInText, pageEntries } from "./provenance-kinds";
import { groupBy, outcomeOfRow } from "./rows";

export type { SpanWithoutAnswer } from "./provenance-entry";

// What the campaign makes of each question's provenance, read a page of questions at a time: the
// one way the KILT export (export-kilt.ts) and the runs' golds (lib/campaign/runs/) turn a question
// and its endorsed passages into KILT provenance entries. Internal: callers authorize first.

/** Questions read per round trip: memory stays flat whatever the campaign's size. */
export const PAGE_QUERIES = 500;

/** Where a question stands for the export: its endorsed passages' entries, or why it has none. */
export type ProvenanceStatus = "endorsed" | "unanswerable" | "none-endorsed";

/**
 * One question of a page, with the export's provenance entries (JSON texts `{"provenance": [items]}`,
 * one per endorsed passage: one item, or one per member of an evidence set) and its partial evidence.
 */
export interface QuestionProvenance {
  id: number;
  kiltId: string;
  input: string;
  originalLine: string;
  batchId: number;
  status: ProvenanceStatus;
  /** Empty unless `status` is "endorsed". */
  entries: string[];
  /** Its `meta.partial_evidence` items (JSON texts, partial-evidence.ts); empty unless `status` is "endorsed". */
  partialEvidence: string[];
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
  /** An evidence set's members in page order (the fields above are member 0's); null for a single passage. */
  members: { wikipediaId: string; title: string; startParagraphId: number; endParagraphId: number }[] | null;
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

/**
 * The questions after `options.after` (a page of them, in id order) with the export's verdict on
 * each: unanswerable (a sufficient gold passage ended up not endorsed), no endorsed passage yet, or
 * the provenance entries of its endorsed passages. A passage of a closed batch is read as sealed at
 * close (counters, R and T, and which judgments counted: internal/seal.ts), so it never changes.
 */
export async function readProvenancePage(db: Db, campaign: CampaignView, options: ProvenancePageOptions): Promise<QuestionProvenance[]> {
  return (await readProvenancePageAt(db, campaign, options, [campaign.endorsementThreshold]))[0]!;
}

/**
 * The page as readProvenancePage reads it with the campaign's T at each of `ts` in turn (R and the
 * rest as they are): one list per T, in the order of `ts`, from one reading of the database.
 */
export async function readProvenancePageAt(
  db: Db,
  campaign: CampaignView,
  options: ProvenancePageOptions,
  ts: readonly number[],
): Promise<QuestionProvenance[][]> {
  const batchFilter = options.batchId === undefined ? sql`` : sql`and q.batch_id = ${options.batchId}`;
  const where = options.where ? sql`and ${options.where}` : sql``;
  const queries = rowsOf<QueryRow>(
    await db.execute(sql`
      select q.id, q.kilt_id, q.input, q.original_line, q.batch_id, q.answers, b.task_kind from queries q join batches b on b.id = q.batch_id
      where q.campaign_id = ${campaign.id} and q.id > ${options.after} ${batchFilter} ${where}
      order by q.id limit ${options.limit ?? PAGE_QUERIES}`),
  );
  if (!queries.length) return ts.map(() => []);
  const rows = await passagesOf(db, queries);
  const live = await liveAdjudicationsOf(
    db,
    rows.map((p) => Number(p.id)),
  );
  const rule = options.endorsement ?? (await endorsementRuleOf(db, campaign));
  const views = ts.map((t) => ({ ...campaign, endorsementThreshold: t }));
  // Each T's own passages (the rows themselves for the first T, copies for the others), with their
  // outcomes at that T (the coordinator's word over the vote).
  const perT = views.map((view, i) => {
    const ps = i === 0 ? rows : rows.map((p) => ({ ...p }));
    for (const p of ps) p.outcome = outcomeOfRow(p, settingsOf(p, view));
    applyAdjudications(ps, live);
    for (const p of ps) p.outcome.endorsed = rule.endorses(Number(p.id), p.outcome);
    return ps;
  });
  const all = perT.flat();
  const highlights = groupBy(await highlightsOf(db, campaign, all), (h) => Number(h.passage_id));
  const partialMarks = await partialMarksOf(db, campaign, all);
  // The texts of the passages an entry or an item of partial evidence may be written from (and a set's members, which its votes name).
  await readTexts(
    db,
    all.filter((p) => p.outcome.endorsed || p.set_members !== null || partialMarks.has(Number(p.id))),
  );
  return views.map((view, i) => assemble(queries, perT[i]!, { highlights, partialMarks, rule, location: options.location }, view));
}

/** A page's questions put together from their passages at one T (`campaign`'s). */
function assemble(
  queries: QueryRow[],
  ps: OutcomePassage[],
  read: {
    highlights: Map<number, HighlightRow[]>;
    partialMarks: Map<number, PartialRow[]>;
    rule: EndorsementRule;
    location: "span" | "passage";
  },
  campaign: CampaignView,
): QuestionProvenance[] {
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
    if (isUnanswerable(own.map((p) => p.outcome))) return { ...base, status: "unanswerable" as const, entries: [], partialEvidence: [] };
    if (!mine.length) return { ...base, status: "none-endorsed" as const, entries: [], partialEvidence: [] };
    const partialEvidence = partialEvidenceItems(own, read.partialMarks, campaign);
    if (q.task_kind === "entity-linking") return { ...base, status: "endorsed" as const, entries: pageEntries(mine), partialEvidence };
    const ctx = {
      campaignId: campaign.id,
      location: read.location,
      rule: read.rule,
      kiltId: q.kilt_id,
      answers: answersInText(q.task_kind, q.answers),
      withoutAnswer: base.withoutAnswer,
    };
    const entries = mine.map((p) =>
      provenanceEntry(p, read.highlights.get(Number(p.id)) ?? [], { ...ctx, t: p.sealed_t ?? campaign.endorsementThreshold }),
    );
    return { ...base, status: "endorsed" as const, entries, partialEvidence };
  });
}

/** Each passage once (the first of its copies). */
function uniqueById<P extends { id: number | string }>(ps: P[]): P[] {
  const seen = new Set<number>();
  return ps.filter((p) => !seen.has(Number(p.id)) && (seen.add(Number(p.id)), true));
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
    members:
      p.members?.map((m, i) => ({
        wikipediaId: m.wikipedia_id,
        title: m.title,
        startParagraphId: m.start,
        endParagraphId: p.set_members?.[i]?.endParagraphId ?? m.start + m.paragraphs.length - 1,
      })) ?? null,
  };
}

/** The questions' passages, without their outcomes (read at each T by the caller). */
async function passagesOf(db: Db, queries: QueryRow[]): Promise<OutcomePassage[]> {
  return rowsOf<OutcomePassage>(
    await db.execute(sql`
      select p.id, p.query_id, p.batch_id, p.wikipedia_id, p.start_paragraph_id, p.end_paragraph_id, p.is_gold,
             p.expected_verdict, coalesce(p.sealed_judgment_count, p.judgment_count) as judgment_count,
             coalesce(p.sealed_sufficient_count, p.sufficient_count) as sufficient_count,
             coalesce(p.sealed_is_decided, p.is_decided) as is_decided, pg.title, p.origins,
             b.sealed_judgments_per_passage as sealed_r, b.sealed_endorsement_threshold as sealed_t, p.set_members
      from passages p join pages pg on pg.wikipedia_id = p.wikipedia_id join batches b on b.id = p.batch_id
      where p.query_id = any(${sql.param(queries.map((q) => Number(q.id)))}::bigint[])
      order by p.query_id, p.id`),
  );
}

/**
 * Reads the passages' texts into them: their paragraphs, the section header above them and a set's
 * members. Cutting them out of each page's text is most of the passages' reading, and a question's
 * other passages need none; a passage left without (undefined) fails where it is read.
 */
async function readTexts(db: Db, ps: OutcomePassage[]): Promise<void> {
  if (!ps.length) return;
  const texts = rowsOf<Pick<PassageRow, "id" | "paragraphs" | "header_above" | "members">>(
    await db.execute(sql`
      select p.id, array_to_json(pg.paragraphs[p.start_paragraph_id + 1 : p.end_paragraph_id + 1]) as paragraphs,
             (select e from unnest(pg.paragraphs[2 : p.start_paragraph_id]) with ordinality as h(e, i)
              where e like 'Section::::%' order by i desc limit 1) as header_above,
             ${sql.raw(memberRowsSql("p"))} as members
      from passages p join pages pg on pg.wikipedia_id = p.wikipedia_id
      where p.id = any(${sql.param(ps.map((p) => Number(p.id)))}::bigint[])`),
  );
  const byId = new Map(texts.map((t) => [Number(t.id), t]));
  for (const p of ps) {
    const t = byId.get(Number(p.id));
    if (!t) continue;
    p.paragraphs = t.paragraphs;
    p.header_above = t.header_above;
    p.members = t.members;
  }
}

/** The endorsing highlights: the sufficient judgments that count (in a closed batch: that counted at close). */
async function highlightsOf(db: Db, campaign: CampaignView, ps: OutcomePassage[]): Promise<HighlightRow[]> {
  const endorsed = uniqueById(ps.filter((p) => p.outcome.endorsed));
  const ids = (sealed: boolean) => endorsed.filter((p) => (p.sealed_r !== null) === sealed).map((p) => Number(p.id));
  return [
    ...(ids(false).length
      ? rowsOf<HighlightRow>(
          await db.execute(sql`
            select passage_id, start_paragraph_id, start_character, end_paragraph_id, end_character, span_text, member_spans
            from ${countedJudgmentsOf(ids(false), campaign.judgmentsPerPassage)}
            where verdict = 'sufficient'
            order by passage_id, created_at, id`),
        )
      : []),
    ...(ids(true).length
      ? rowsOf<HighlightRow>(
          await db.execute(sql`
            select passage_id, start_paragraph_id, start_character, end_paragraph_id, end_character, span_text, member_spans
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

import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import type { PassageOrigin } from "@/db/schema";
import { requireCoordinator, type Actor } from "@/lib/auth/actor";
import { codePointLength, sectionOf } from "@/lib/kilt/codepoints";
import { appendOutputEntries } from "@/lib/kilt/line-edit";
import { getCampaign, type CampaignView } from "../campaigns";
import { consensusSpan } from "../quality/consensus";
import { countedJudgmentsOf } from "../quality/counted-judgments";
import { isUnanswerable, type PassageOutcome } from "../quality/outcome";
import { explanationsOf, proposersOf, type ExplanationView } from "./question-responses";
import { outcomeOfRow, spanOf, type JudgmentRow, type PassageOutcomeRow } from "./rows";

/** Questions read per round trip: memory stays flat whatever the campaign's size. */
const PAGE_QUERIES = 500;

export interface KiltExportOptions {
  batchId?: number;
  /** `span`: the consensus span's offsets; `passage`: the passage's paragraphs with -1 characters. */
  location: "span" | "passage";
}

export interface ExportReport {
  campaignId: number;
  batchId: number | null;
  queries: number;
  queriesExported: number;
  passagesEndorsed: number;
  /** Questions whose sufficient gold passage ended up not endorsed (kilt ids). */
  unanswerable: string[];
  /** Questions with no endorsed passage (yet). */
  withoutEndorsement: number;
  /** Questions annotators explained no passage answers (issue 16), each with its explanations, in question order. */
  explained: { queryId: string; explanations: ExplanationView[] }[];
}

interface QueryRow {
  id: number;
  kilt_id: string;
  original_line: string;
  batch_id: number;
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
}

type HighlightRow = Pick<JudgmentRow, "passage_id" | "start_paragraph_id" | "start_character" | "end_paragraph_id" | "end_character" | "span_text">;

/** One page of questions with their passages (and outcomes) and the highlights of the endorsed ones. */
interface Page {
  queries: QueryRow[];
  passagesOf: Map<number, (PassageRow & { outcome: PassageOutcome })[]>;
  highlightsOf: Map<number, HighlightRow[]>;
  explanationsOf: Map<number, ExplanationView[]>;
}

/**
 * KILT provenance JSONL: one line per question with at least one endorsed passage, its original line
 * untouched but for one new output entry `{"provenance": [item]}` per endorsed passage (never
 * merged, never empty). Questions whose sufficient gold passage ended up not endorsed are
 * unanswerable from the snapshot and left out. Streams in pages of questions; `report` receives the
 * counts at the end.
 */
export async function* exportKilt(
  db: Db,
  actor: Actor,
  campaignId: number,
  options: KiltExportOptions,
  report?: (r: ExportReport) => void,
): AsyncGenerator<string> {
  requireCoordinator(actor);
  const campaign = await getCampaign(db, actor, campaignId);
  const counts: ExportReport = {
    campaignId,
    batchId: options.batchId ?? null,
    queries: 0,
    queriesExported: 0,
    passagesEndorsed: 0,
    unanswerable: [],
    withoutEndorsement: 0,
    explained: [],
  };
  const ctx = { campaignId, t: campaign.endorsementThreshold, location: options.location };
  let after = 0;
  for (;;) {
    const page = await readPage(db, campaign, after, options.batchId);
    if (!page.queries.length) break;
    after = Number(page.queries[page.queries.length - 1]!.id);
    for (const q of page.queries) {
      counts.queries++;
      const explanations = page.explanationsOf.get(Number(q.id));
      if (explanations) counts.explained.push({ queryId: q.kilt_id, explanations });
      const own = page.passagesOf.get(Number(q.id)) ?? [];
      if (isUnanswerable(own.map((p) => p.outcome))) {
        counts.unanswerable.push(q.kilt_id);
        continue;
      }
      const mine = own.filter((p) => p.outcome.endorsed);
      if (!mine.length) {
        counts.withoutEndorsement++;
        continue;
      }
      const entries = mine.map((p) => provenanceEntry(p, page.highlightsOf.get(Number(p.id)) ?? [], { ...ctx, t: p.sealed_t ?? ctx.t }));
      counts.queriesExported++;
      counts.passagesEndorsed += mine.length;
      yield appendOutputEntries(q.original_line, entries) + "\n";
    }
    if (page.queries.length < PAGE_QUERIES) break;
  }
  report?.(counts);
}

/**
 * The questions after `after` (a page of them), their passages with outcomes, and the endorsing
 * highlights. A passage of a closed batch is read as sealed at close (counters, R and T, and which
 * judgments counted: internal/seal.ts), so the export of a closed batch never changes.
 */
async function readPage(db: Db, campaign: CampaignView, after: number, batchId: number | undefined): Promise<Page> {
  const batchFilter = batchId === undefined ? sql`` : sql`and q.batch_id = ${batchId}`;
  const queries = rowsOf<QueryRow>(
    await db.execute(sql`
      select q.id, q.kilt_id, q.original_line, q.batch_id from queries q
      where q.campaign_id = ${campaign.id} and q.id > ${after} ${batchFilter}
      order by q.id limit ${PAGE_QUERIES}`),
  );
  if (!queries.length) return { queries, passagesOf: new Map(), highlightsOf: new Map(), explanationsOf: new Map() };
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
  const endorsed = ps.filter((p) => p.outcome.endorsed);
  const ids = (sealed: boolean) => endorsed.filter((p) => (p.sealed_r !== null) === sealed).map((p) => Number(p.id));
  // The endorsing highlights: the sufficient judgments that count (in a closed batch: that counted at close).
  const highlights = [
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
  return {
    queries,
    passagesOf: groupBy(ps, (p) => Number(p.query_id)),
    highlightsOf: groupBy(highlights, (h) => Number(h.passage_id)),
    explanationsOf: await explanationsOf(db, campaign.id, queries.map((q) => Number(q.id))),
  };
}

/** R and T a passage's outcome is read with: as sealed when its batch closed, else the campaign's. */
function settingsOf(p: PassageRow, campaign: CampaignView): { judgmentsPerPassage: number; endorsementThreshold: number } {
  return p.sealed_r !== null && p.sealed_t !== null
    ? { judgmentsPerPassage: p.sealed_r, endorsementThreshold: p.sealed_t }
    : { judgmentsPerPassage: campaign.judgmentsPerPassage, endorsementThreshold: campaign.endorsementThreshold };
}

function groupBy<T>(rows: T[], key: (row: T) => number): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = groups.get(k);
    if (list) list.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}

function provenanceEntry(
  p: PassageRow,
  highlights: HighlightRow[],
  ctx: { campaignId: number; t: number; location: "span" | "passage" },
): string {
  const start = p.start_paragraph_id;
  const shape = { startParagraphId: start, paragraphLengths: p.paragraphs.map(codePointLength) };
  const locations = highlights.map((h) => spanOf(h)!);
  const consensus = ctx.location === "span" ? consensusSpan(shape, locations, ctx.t) : undefined;
  const where = consensus ?? { startParagraphId: start, startCharacter: -1, endParagraphId: p.end_paragraph_id, endCharacter: -1 };
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
      // A passage an annotator proposed names its origins, the proposers by pseudonym (imported passages: as before, none).
      ...(proposersOf(p.origins).length ? { origins: p.origins } : {}),
    },
  };
  return JSON.stringify({ provenance: [item] });
}

/** The export's counts without the lines (the same walk). */
export async function exportReport(db: Db, actor: Actor, campaignId: number, options: KiltExportOptions): Promise<ExportReport> {
  let report: ExportReport | undefined;
  for await (const _ of exportKilt(db, actor, campaignId, options, (r) => (report = r)));
  return report!;
}

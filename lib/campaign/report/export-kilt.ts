import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import type { Campaign } from "@/db/schema";
import { requireCoordinator, type Actor } from "@/lib/auth/actor";
import { codePointLength, sectionOf, type Location } from "@/lib/kilt/codepoints";
import { appendOutputEntries } from "@/lib/kilt/line-edit";
import { getCampaign } from "../campaigns";
import { consensusSpan } from "../quality/consensus";
import { countedJudgmentsOf } from "../quality/counted-judgments";

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
}

interface QueryRow {
  id: number;
  kilt_id: string;
  original_line: string;
  batch_id: number;
}

interface PassageRow {
  id: number;
  query_id: number;
  batch_id: number;
  wikipedia_id: string;
  start_paragraph_id: number;
  end_paragraph_id: number;
  is_gold: boolean;
  expected_verdict: string | null;
  judgment_count: number;
  sufficient_count: number;
  is_decided: boolean;
  title: string;
  /** The passage's paragraphs (read as JSON: the driver's text[] parser is slow), and the section header above it (null for the lead). */
  paragraphs: string[];
  header_above: string | null;
}

interface HighlightRow {
  passage_id: number;
  start_paragraph_id: number;
  start_character: number;
  end_paragraph_id: number;
  end_character: number;
  span_text: string;
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
  await getCampaign(db, actor, campaignId);
  const [campaign] = rowsOf<Campaign & { judgments_per_passage: number; endorsement_threshold: number }>(
    await db.execute(sql`select * from campaigns where id = ${campaignId}`),
  );
  const r = Number(campaign!.judgments_per_passage);
  const t = Number(campaign!.endorsement_threshold);
  const counts: ExportReport = {
    campaignId,
    batchId: options.batchId ?? null,
    queries: 0,
    queriesExported: 0,
    passagesEndorsed: 0,
    unanswerable: [],
    withoutEndorsement: 0,
  };
  const batchFilter = options.batchId === undefined ? sql`` : sql`and q.batch_id = ${options.batchId}`;

  let after = 0;
  for (;;) {
    const qs = rowsOf<QueryRow>(
      await db.execute(sql`
        select q.id, q.kilt_id, q.original_line, q.batch_id from queries q
        where q.campaign_id = ${campaignId} and q.id > ${after} ${batchFilter}
        order by q.id limit ${PAGE_QUERIES}`),
    );
    if (!qs.length) break;
    after = Number(qs[qs.length - 1]!.id);
    const queryIds = qs.map((q) => Number(q.id));

    const ps = rowsOf<PassageRow>(
      await db.execute(sql`
        select p.id, p.query_id, p.batch_id, p.wikipedia_id, p.start_paragraph_id, p.end_paragraph_id, p.is_gold,
               p.expected_verdict, p.judgment_count, p.sufficient_count, p.is_decided, pg.title,
               array_to_json(pg.paragraphs[p.start_paragraph_id + 1 : p.end_paragraph_id + 1]) as paragraphs,
               (select e from unnest(pg.paragraphs[2 : p.start_paragraph_id]) with ordinality as h(e, i)
                where e like 'Section::::%' order by i desc limit 1) as header_above
        from passages p join pages pg on pg.wikipedia_id = p.wikipedia_id
        where p.query_id = any(${sql.param(queryIds)}::bigint[])
        order by p.query_id, p.id`),
    );
    const endorsed = ps.filter((p) => p.sufficient_count >= t);
    // The endorsing highlights: the sufficient judgments that count.
    const highlights = endorsed.length
      ? rowsOf<HighlightRow>(
          await db.execute(sql`
            select passage_id, start_paragraph_id, start_character, end_paragraph_id, end_character, span_text
            from ${countedJudgmentsOf(endorsed.map((p) => Number(p.id)), r)}
            where verdict = 'sufficient'
            order by passage_id, created_at, id`),
        )
      : [];

    const passagesOf = groupBy(ps, (p) => Number(p.query_id));
    const highlightsOf = groupBy(highlights, (h) => Number(h.passage_id));
    for (const q of qs) {
      counts.queries++;
      const own = passagesOf.get(Number(q.id)) ?? [];
      const goldMissed = own.some(
        (p) => p.is_gold && p.expected_verdict === "sufficient" && (p.judgment_count >= r || p.is_decided) && p.sufficient_count < t,
      );
      if (goldMissed) {
        counts.unanswerable.push(q.kilt_id);
        continue;
      }
      const mine = own.filter((p) => p.sufficient_count >= t);
      if (!mine.length) {
        counts.withoutEndorsement++;
        continue;
      }
      const entries = mine.map((p) =>
        provenanceEntry(p, highlightsOf.get(Number(p.id)) ?? [], { campaignId, r, t, location: options.location }),
      );
      counts.queriesExported++;
      counts.passagesEndorsed += mine.length;
      yield appendOutputEntries(q.original_line, entries) + "\n";
    }
    if (qs.length < PAGE_QUERIES) break;
  }
  report?.(counts);
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
  ctx: { campaignId: number; r: number; t: number; location: "span" | "passage" },
): string {
  const start = p.start_paragraph_id;
  const shape = { startParagraphId: start, paragraphLengths: p.paragraphs.map(codePointLength) };
  const locations: Location[] = highlights.map((h) => ({
    startParagraphId: h.start_paragraph_id,
    startCharacter: h.start_character,
    endParagraphId: h.end_paragraph_id,
    endCharacter: h.end_character,
  }));
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

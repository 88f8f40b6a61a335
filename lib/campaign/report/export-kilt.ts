import "server-only";
import type { Db } from "@/db/client";
import { requireCoordinator, type Actor } from "@/lib/auth/actor";
import { appendOutputEntries, appendPartialEvidence } from "@/lib/kilt/line-edit";
import type { Aggregation } from "@/db/schema";
import { getCampaign } from "../campaigns";
import { endorsementRuleOf } from "../quality/aggregation";
import { PAGE_QUERIES, readProvenancePage, type SpanWithoutAnswer } from "./kilt-provenance";
import { explanationsOf, type ExplanationView } from "./question-responses";

export interface KiltExportOptions {
  batchId?: number;
  /** `span`: the consensus span's offsets; `passage`: the passage's paragraphs with -1 characters. */
  location: "span" | "passage";
  /** What "endorsed" means for this export (default: the campaign's aggregation setting). */
  aggregation?: Aggregation;
}

export interface ExportReport {
  campaignId: number;
  batchId: number | null;
  /** What "endorsed" meant in this export. */
  aggregation: Aggregation;
  queries: number;
  queriesExported: number;
  passagesEndorsed: number;
  /** Questions whose sufficient gold passage ended up not endorsed (kilt ids). */
  unanswerable: string[];
  /** Questions with no endorsed passage (yet). */
  withoutEndorsement: number;
  /** Questions annotators explained no passage answers (issue 16), each with its explanations, in question order. */
  explained: { queryId: string; explanations: ExplanationView[] }[];
  /**
   * Every exported provenance item whose text holds none of its question's normalised answers (even
   * after the consensus span was widened to an answer an endorser highlighted), in question order;
   * questions without answers are never listed. Its length is the count.
   */
  spansWithoutAnswer: SpanWithoutAnswer[];
}

/**
 * KILT provenance JSONL: one line per question with at least one endorsed passage, its original line
 * untouched but for one new output entry `{"provenance": [item]}` per endorsed passage (never
 * merged, never empty; an evidence set's entry holds one item per member, in page order) and its
 * partial evidence appended to `meta.partial_evidence` (partial-evidence.ts); the original line's
 * answers stay as imported (fact checking's label among them). Entity linking's entries are page-level, `{"provenance": [{wikipedia_id, title}]}`, one per
 * endorsed page (kilt-provenance.ts); the batch's kind decides, per question. Questions whose
 * sufficient gold passage ended up not endorsed are unanswerable from the snapshot and left out.
 * Streams in pages of questions; `report` receives the counts at the end.
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
  // One reading of the votes for the whole file (a Dawid–Skene fit is not redone page by page).
  const endorsement = await endorsementRuleOf(db, campaign, options.aggregation);
  const counts: ExportReport = {
    campaignId,
    batchId: options.batchId ?? null,
    aggregation: endorsement.aggregation,
    queries: 0,
    queriesExported: 0,
    passagesEndorsed: 0,
    unanswerable: [],
    withoutEndorsement: 0,
    explained: [],
    spansWithoutAnswer: [],
  };
  let after = 0;
  for (;;) {
    const page = await readProvenancePage(db, campaign, { after, batchId: options.batchId, location: options.location, endorsement });
    if (!page.length) break;
    after = page[page.length - 1]!.id;
    const explained = await explanationsOf(
      db,
      campaign.id,
      page.map((q) => q.id),
    );
    for (const q of page) {
      counts.queries++;
      const explanations = explained.get(q.id);
      if (explanations) counts.explained.push({ queryId: q.kiltId, explanations });
      if (q.status === "unanswerable") counts.unanswerable.push(q.kiltId);
      else if (q.status === "none-endorsed") counts.withoutEndorsement++;
      else {
        counts.queriesExported++;
        counts.passagesEndorsed += q.endorsed.length;
        counts.spansWithoutAnswer.push(...q.withoutAnswer);
        yield appendPartialEvidence(appendOutputEntries(q.originalLine, q.entries), q.partialEvidence) + "\n";
      }
    }
    if (page.length < PAGE_QUERIES) break;
  }
  report?.(counts);
}

/** The export's counts without the lines (the same walk). */
export async function exportReport(db: Db, actor: Actor, campaignId: number, options: KiltExportOptions): Promise<ExportReport> {
  let report: ExportReport | undefined;
  for await (const _ of exportKilt(db, actor, campaignId, options, (r) => (report = r)));
  return report!;
}

import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { requireCoordinator, type Actor } from "@/lib/auth/actor";
import { pageSize } from "@/lib/list-options.contract";
import type { Aggregation } from "@/db/schema";
import { getCampaign } from "../campaigns";
import { endorsementRuleOf } from "../quality/aggregation";
import {
  readProvenancePage,
  type PassageVotes,
  type ProvenanceStatus,
  type QuestionProvenance,
  type SpanWithoutAnswer,
} from "./kilt-provenance";
import { explanationsOf, type ExplanationView } from "./question-responses";

// The export report (export-kilt.ts `exportReport`) a section and a page at a time, for the
// coordinator's page: the same walk of the questions (readProvenancePage, the campaign's aggregation,
// consensus-span locations), so the page and the JSON download never disagree on a question.

/**
 * The sections of the report: the questions left out of the export as unanswerable (a sufficient gold
 * passage finished unendorsed, or every passage finished and none endorsed); the questions annotators
 * explained; the exported questions with their endorsed passages; the exported spans that hold none of
 * their question's answers.
 */
export const EXPORT_REPORT_SECTIONS = ["unanswerable", "explained", "endorsed", "spans"] as const;
export type ExportReportSection = (typeof EXPORT_REPORT_SECTIONS)[number];

/** The page's options, as they arrive in a query string (`?show=explained&after=120`). */
export const exportReportQuerySchema = z.object({
  show: z.enum(EXPORT_REPORT_SECTIONS, { error: `must be one of ${EXPORT_REPORT_SECTIONS.join(", ")}` }).default("unanswerable"),
  after: z.coerce.number().int().positive("must be a question id").optional(),
  limit: pageSize(100, 25),
});
export type ExportReportQuery = z.infer<typeof exportReportQuerySchema>;

/** Why a question is left out of the export as unanswerable. */
export type UnanswerableReason = "gold-missed" | "none-endorsed";

/** One question of a section. */
export interface ExportReportRow {
  /** The question's id (its question view is /campaigns/:id/questions/:id). */
  id: number;
  kiltId: string;
  input: string;
  status: ProvenanceStatus;
  /** Set in the unanswerable section. */
  reason: UnanswerableReason | null;
  passages: number;
  finished: number;
  missedGold: PassageVotes[];
  endorsed: PassageVotes[];
  /** Annotators' explanations, oldest first, named as coordinators see them (question-responses.ts). */
  explanations: ExplanationView[];
  /** The exported spans that hold none of the question's answers (only exported questions have them). */
  spansWithoutAnswer: SpanWithoutAnswer[];
}

export interface ExportReportPage {
  show: ExportReportSection;
  aggregation: Aggregation;
  rows: ExportReportRow[];
  /** The `after` of the next page, or null when no question after this page is left to look at. */
  next: number | null;
  /** Questions looked at for this page (a page stops after SCAN_BUDGET of them even when it found fewer than `limit`). */
  scanned: number;
}

/** Questions read per round trip. */
const CHUNK = 200;
/** The most questions one page looks at: a section with few entries in a long campaign pages on rather than walking it all. */
export const SCAN_BUDGET = 2000;

/** A question's reason to be in the unanswerable section, or null. */
function unanswerableReason(q: QuestionProvenance): UnanswerableReason | null {
  if (q.status === "unanswerable") return "gold-missed";
  if (q.status === "none-endorsed" && q.passages > 0 && q.finished === q.passages) return "none-endorsed";
  return null;
}

const belongs: Record<ExportReportSection, (q: QuestionProvenance, explained: boolean) => boolean> = {
  unanswerable: (q) => unanswerableReason(q) !== null,
  explained: (_q, explained) => explained,
  endorsed: (q) => q.status === "endorsed",
  spans: (q) => q.status === "endorsed" && q.withoutAnswer.length > 0,
};

/** A condition on the question (alias `q`) that narrows what is read; the section's own test decides. */
function narrowing(section: ExportReportSection, campaignId: number): SQL | undefined {
  if (section === "explained") {
    return sql`exists (select 1 from explanations e where e.campaign_id = ${campaignId} and e.query_id = q.id)`;
  }
  return undefined;
}

/**
 * One page of one section of a campaign's export report, in question order (keyset: `after` is the
 * `next` of the page before). Coordinators only. Reads the questions after `after` in rounds of
 * CHUNK until `limit` belong to the section, or SCAN_BUDGET were looked at; `next` then says where
 * to go on, so a late page costs what the first does.
 */
export async function listExportReport(
  db: Db,
  actor: Actor,
  campaignId: number,
  query: ExportReportQuery,
  /** The round and budget sizes (tests make them small). */
  sizes: { chunk: number; scanBudget: number } = { chunk: CHUNK, scanBudget: SCAN_BUDGET },
): Promise<ExportReportPage> {
  requireCoordinator(actor);
  const campaign = await getCampaign(db, actor, campaignId);
  const endorsement = await endorsementRuleOf(db, campaign);
  const where = narrowing(query.show, campaign.id);
  const rows: ExportReportRow[] = [];
  let cursor = query.after ?? 0;
  let scanned = 0;
  for (;;) {
    const page = await readProvenancePage(db, campaign, { after: cursor, limit: sizes.chunk, location: "span", endorsement, where });
    const explained = await explanationsOf(
      db,
      campaign.id,
      page.map((q) => q.id),
    );
    for (const q of page) {
      const explanations = explained.get(q.id) ?? [];
      if (!belongs[query.show](q, explanations.length > 0)) {
        cursor = q.id;
        scanned++;
        continue;
      }
      // One more than the page holds: there is a next page, starting after the page's last row.
      if (rows.length === query.limit) return { show: query.show, aggregation: endorsement.aggregation, rows, next: cursor, scanned };
      cursor = q.id;
      scanned++;
      rows.push({
        id: q.id,
        kiltId: q.kiltId,
        input: q.input,
        status: q.status,
        reason: unanswerableReason(q),
        passages: q.passages,
        finished: q.finished,
        missedGold: q.missedGold,
        endorsed: q.endorsed,
        explanations,
        spansWithoutAnswer: q.withoutAnswer,
      });
    }
    const done = page.length < sizes.chunk;
    if (done) return { show: query.show, aggregation: endorsement.aggregation, rows, next: null, scanned };
    if (scanned >= sizes.scanBudget) return { show: query.show, aggregation: endorsement.aggregation, rows, next: cursor, scanned };
  }
}

import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import { sectionOf } from "@/lib/kilt/codepoints";
import type { CampaignView } from "../campaigns";
import { countedJudgmentsOf } from "../quality/counted-judgments";
import type { OutcomePassage } from "./provenance-entry";
import { groupBy } from "./rows";

// Partial evidence in the KILT export: a single passage that at least T annotators in good standing
// marked "part of the evidence" (their counted judgments), and that was not endorsed by itself, goes
// into its line's `meta.partial_evidence` in the shape of KILT's ELI5 lines: the page and the
// passage's paragraphs, no characters, the partial highlights as `meta.evidence_span`.

export interface PartialRow {
  passage_id: string | number;
  span_text: string | null;
}

/** The passages that can hold partial evidence: single, not endorsed, not negative gold (controls and decoys are never exported). */
function candidatesOf(ps: OutcomePassage[]): OutcomePassage[] {
  return ps.filter((p) => !p.set_members && !p.outcome.endorsed && !(p.is_gold && p.expected_verdict === "insufficient"));
}

/**
 * The counted partial judgments of the passages that can hold partial evidence, by passage id (in a
 * closed batch: those that counted at close, as the endorsing highlights are read).
 */
export async function partialMarksOf(db: Db, campaign: CampaignView, ps: OutcomePassage[]): Promise<Map<number, PartialRow[]>> {
  const candidates = candidatesOf(ps);
  const ids = (sealed: boolean) => candidates.filter((p) => (p.sealed_r !== null) === sealed).map((p) => Number(p.id));
  const open = ids(false);
  const sealed = ids(true);
  const rows = [
    ...(open.length
      ? rowsOf<PartialRow>(
          await db.execute(sql`
            select passage_id, span_text from ${countedJudgmentsOf(open, campaign.judgmentsPerPassage)}
            where partial order by passage_id, created_at, id`),
        )
      : []),
    ...(sealed.length
      ? rowsOf<PartialRow>(
          await db.execute(sql`
            select passage_id, span_text from judgments
            where passage_id = any(${sql.param(sealed)}::bigint[]) and counted_at_close and partial
            order by passage_id, created_at, id`),
        )
      : []),
  ];
  return groupBy(rows, (r) => Number(r.passage_id));
}

/**
 * A question's partial evidence as `meta.partial_evidence` items (JSON texts), in its passages'
 * order: each passage with at least T counted partial marks (`t`: its batch's sealed T, else the
 * campaign's), as `{wikipedia_id, title, section, start_paragraph_id, end_paragraph_id, meta:
 * {evidence_span, votes, campaign, batch}}`.
 */
export function partialEvidenceItems(
  own: OutcomePassage[],
  marks: Map<number, PartialRow[]>,
  campaign: { id: number; endorsementThreshold: number },
): string[] {
  return candidatesOf(own).flatMap((p) => {
    const mine = marks.get(Number(p.id)) ?? [];
    if (!mine.length || mine.length < (p.sealed_t ?? campaign.endorsementThreshold)) return [];
    const item = {
      wikipedia_id: p.wikipedia_id,
      title: p.title,
      section: sectionOf(["", p.header_above ?? "", ...p.paragraphs], 2),
      start_paragraph_id: p.start_paragraph_id,
      end_paragraph_id: p.end_paragraph_id,
      meta: {
        evidence_span: mine.map((m) => m.span_text).filter((t): t is string => t !== null),
        votes: { partial: mine.length, judgments: p.judgment_count },
        campaign: campaign.id,
        batch: Number(p.batch_id),
      },
    };
    return [JSON.stringify(item)];
  });
}

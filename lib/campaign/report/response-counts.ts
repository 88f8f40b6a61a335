import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import type { ResponseCounts } from "./dashboard.contract";

/**
 * Internal to getDashboard (which authorized the coordinator). Not a tally: two counts over the
 * campaign's own rows of explanations and proposals through their campaign indexes
 * (explanations_campaign_idx, proposals_campaign_idx: index-only scans). Bounded by how many
 * responses annotators gave — at most one per annotator and question, and each follows that
 * annotator's judgments of all the question's passages — never by the number of passages or judgments.
 */
export async function responseCounts(db: Db, campaignId: number): Promise<ResponseCounts> {
  const [r] = rowsOf<{ explained: number; proposals: number }>(
    await db.execute(sql`select
      (select count(distinct query_id)::int from explanations where campaign_id = ${campaignId}) as explained,
      (select count(*)::int from proposals where campaign_id = ${campaignId}) as proposals`),
  );
  return { questionsWithExplanations: r?.explained ?? 0, proposals: r?.proposals ?? 0 };
}

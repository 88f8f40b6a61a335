import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import type { GoldSummary } from "./dashboard.contract";

/** Every annotator's gold judgments in the campaign summed, per kind (paused annotators' included: their gold judgments were scored). */
export async function goldSummary(db: Db, campaignId: number): Promise<GoldSummary> {
  const [r] = rowsOf<{ judged: number; correct: number; negative_judged: number; negative_correct: number }>(
    await db.execute(sql`
      select coalesce(sum(gold_judged), 0)::int as judged, coalesce(sum(gold_correct), 0)::int as correct,
             coalesce(sum(negative_gold_judged), 0)::int as negative_judged, coalesce(sum(negative_gold_correct), 0)::int as negative_correct
      from annotator_standings where campaign_id = ${campaignId}`),
  );
  const judged = r?.judged ?? 0;
  const correct = r?.correct ?? 0;
  const negative = { judged: r?.negative_judged ?? 0, correct: r?.negative_correct ?? 0 };
  return { sufficient: { judged: judged - negative.judged, correct: correct - negative.correct }, negative };
}

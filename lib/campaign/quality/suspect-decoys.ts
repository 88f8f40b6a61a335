import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import { requireCoordinator, type Actor } from "@/lib/auth/actor";
import { getCampaign } from "../campaigns";
import type { SuspectDecoys, SuspectDecoysQuery } from "./suspect-decoys.contract";

export { suspectDecoysQuerySchema, type SuspectDecoy, type SuspectDecoys, type SuspectDecoysQuery } from "./suspect-decoys.contract";

const PREVIEW = 300;

/**
 * The campaign's suspect decoys (coordinators): decoys that at least T counted judgments — by
 * annotators in good standing — found sufficient (T of the batch as sealed at close, else the
 * campaign's). A decoy holds none of the answer's tokens, so careful annotators agreeing that it
 * answers the question means the answer is worded otherwise there, or that they are not careful.
 */
export async function listSuspectDecoys(db: Db, actor: Actor, campaignId: number, query: SuspectDecoysQuery): Promise<SuspectDecoys> {
  requireCoordinator(actor);
  const campaign = await getCampaign(db, actor, campaignId);
  const decoys = sql`
    select p.id, p.query_id, p.wikipedia_id, p.start_paragraph_id,
           coalesce(p.sealed_judgment_count, p.judgment_count)::int as judgments,
           coalesce(p.sealed_sufficient_count, p.sufficient_count)::int as sufficient,
           coalesce(b.sealed_endorsement_threshold, ${campaign.endorsementThreshold}::int) as t
    from passages p join batches b on b.id = p.batch_id
    where p.campaign_id = ${campaignId} and p.is_decoy`;
  const [counts] = rowsOf<{ total: number; decoys: number }>(
    await db.execute(sql`select (count(*) filter (where sufficient >= t))::int as total, count(*)::int as decoys from (${decoys}) d`),
  );
  const rows = rowsOf<{
    passage_id: string | number;
    query_id: string | number;
    kilt_id: string;
    input: string;
    wikipedia_id: string;
    title: string;
    paragraph_id: number;
    text: string;
    judgments: number;
    sufficient: number;
  }>(
    await db.execute(sql`
      select s.id as passage_id, s.query_id, q.kilt_id, q.input, s.wikipedia_id, pg.title, s.start_paragraph_id as paragraph_id,
             left(pg.paragraphs[s.start_paragraph_id + 1], ${PREVIEW}) as text, s.judgments, s.sufficient
      from (select * from (${decoys}) d where sufficient >= t order by sufficient desc, id limit ${query.limit}) s
      join queries q on q.id = s.query_id
      join pages pg on pg.wikipedia_id = s.wikipedia_id
      order by s.sufficient desc, s.id`),
  );
  return {
    decoys: rows.map((r) => ({
      passageId: Number(r.passage_id),
      queryId: Number(r.query_id),
      kiltId: r.kilt_id,
      input: r.input,
      wikipediaId: r.wikipedia_id,
      title: r.title,
      paragraphId: r.paragraph_id,
      text: r.text.trimEnd(),
      judgments: r.judgments,
      sufficient: r.sufficient,
    })),
    total: counts?.total ?? 0,
    decoyCount: counts?.decoys ?? 0,
  };
}

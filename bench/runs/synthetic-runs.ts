// The runs of bench/runs/run.ts, written in SQL: for every question of the campaign, run r ranks
// the question's passages by a hash of (passage, r) (items without title or text) and answers right
// half of the time.
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";

/** R runs of predictions for every question, in SQL: run r ranks the question's passages by a hash of (passage, r). */
export async function writeRuns(db: Db, campaignId: number, runs: number): Promise<number[]> {
  const ids: number[] = [];
  for (let r = 0; r < runs; r++) {
    const [row] = rowsOf<{ id: number }>(
      await db.execute(sql`
        insert into runs (campaign_id, name, questions, has_provenance, has_answers)
        values (${campaignId}, ${`system-${r + 1}`}, (select count(*) from queries where campaign_id = ${campaignId}), true, true) returning id`),
    );
    const runId = Number(row!.id);
    await db.execute(sql`
      insert into run_predictions (run_id, query_id, answer, provenance)
      select ${runId}, q.id,
             case when abs(hashint4((q.id * ${r + 3})::int)) % 2 = 0 then q.answers[1] else 'no idea' end,
             (select jsonb_agg(jsonb_build_object('wikipedia_id', p.wikipedia_id, 'start_paragraph_id', p.start_paragraph_id::text,
                                                  'end_paragraph_id', p.end_paragraph_id::text, 'title', null, 'text', null)
                               order by hashint4((p.id * ${r + 7})::int))
              from passages p where p.query_id = q.id)
      from queries q where q.campaign_id = ${campaignId}`);
    await db.execute(sql`update run_predictions set provenance = '[]'::jsonb where run_id = ${runId} and provenance is null`);
    ids.push(runId);
  }
  return ids;
}

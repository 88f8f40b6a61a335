// Internal: no authorization of its own. Called by domain functions that checked the caller
// (pausing and resuming annotators, the gold rule, a change of R or T).
import "server-only";
import { sql } from "drizzle-orm";
import type { Db, Tx } from "@/db/client";
import type { Campaign } from "@/db/schema";
import { countedJudgmentsOf } from "./counted-judgments";
import { outcomeSql } from "./outcome";

/**
 * Recomputes the counters of passages from the judgments themselves (the judgments that count:
 * `countedJudgmentsOf`). Early stop is re-decided from the counts.
 * Rows are locked in id order, so concurrent recounts cannot deadlock.
 */
export async function recountPassages(tx: Db | Tx, campaign: Campaign, passageIds: number[]): Promise<void> {
  if (!passageIds.length) return;
  const ids = [...new Set(passageIds)].sort((a, b) => a - b);
  const r = campaign.judgmentsPerPassage;
  await tx.execute(sql`select id from passages where id = any(${sql.param(ids)}::bigint[]) order by id for no key update`);
  await tx.execute(sql`
    with counted as (select passage_id, verdict from ${countedJudgmentsOf(ids, r)}
    ), totals as (
      select p.id,
        (select count(*) from counted c where c.passage_id = p.id)::int as jc,
        (select count(*) from counted c where c.passage_id = p.id and c.verdict = 'sufficient')::int as sc,
        (select count(*) from claims c where c.passage_id = p.id and c.ended_at is null)::int as cc
      from passages p where p.id = any(${sql.param(ids)}::bigint[])
    ), decided as (
      select id, jc, sc, cc, ${outcomeSql.closesEarly(campaign.earlyStop, sql`jc`, sql`sc`, r, campaign.endorsementThreshold)} as d from totals
    )
    update passages p set
      judgment_count = decided.jc,
      sufficient_count = decided.sc,
      claim_count = decided.cc,
      is_decided = decided.d,
      open_slots = case when decided.d then 0 else greatest(0, ${r} - decided.jc - decided.cc) end
    from decided where p.id = decided.id`);
}

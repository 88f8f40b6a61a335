import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import { WAITING_REASONS, type WaitingCounts, type WaitingReason } from "./adjudication.contract";

/**
 * Questions that wait for the coordinator's word (quality/adjudication.ts records it): the
 * conditions as SQL, for the question list's filters, and their counts, for the dashboard.
 */

/**
 * Whether passage `wp` (with its batch `wb` and campaign `wc`) makes its question wait, per reason,
 * read as a closed batch sealed it (counters, R and T).
 */
const passageWaits = (() => {
  const n = sql`coalesce(wp.sealed_judgment_count, wp.judgment_count)`;
  const s = sql`coalesce(wp.sealed_sufficient_count, wp.sufficient_count)`;
  const decided = sql`coalesce(wp.sealed_is_decided, wp.is_decided)`;
  const r = sql`coalesce(wb.sealed_judgments_per_passage, wc.judgments_per_passage)`;
  const t = sql`coalesce(wb.sealed_endorsement_threshold, wc.endorsement_threshold)`;
  const finished = sql`kps_is_finished(${decided}, ${n}, ${r})`;
  return {
    split: sql`${finished} and kps_is_disputed(${n}, ${s})`,
    decoy: sql`wp.is_decoy and ${s} >= ${t}`,
    gold: sql`kps_misses_gold(wp.is_gold, wp.expected_verdict, ${finished}, kps_is_endorsed(${s}, ${t}))`,
  };
})();

/**
 * The condition that question `q` (an alias of `queries`) waits for the coordinator for `reason`:
 * - split: a finished passage with split counted verdicts;
 * - decoy: a decoy that at least T counted judgments call sufficient (a suspect decoy);
 * - gold: a sufficient gold passage finished without endorsement (gold the vote missed);
 * each with no live decision on that passage; and
 * - explained: annotators explained that no passage answers it, and it has neither a live endorse
 *   nor a live decision on every passage.
 * Read as a closed batch sealed them (counters, R and T).
 */
export function waitingSql(reason: WaitingReason | "any", q: SQL = sql.raw("q")): SQL {
  if (reason === "any")
    return sql`(${sql.join(
      WAITING_REASONS.map((r) => waitingSql(r, q)),
      sql` or `,
    )})`;
  if (reason === "explained") {
    return sql`(exists (select 1 from explanations e where e.query_id = ${q}.id)
      and not exists (select 1 from passages wp join adjudications wa on wa.passage_id = wp.id and wa.reverted_at is null
                      where wp.query_id = ${q}.id and wa.decision = 'endorse')
      and exists (select 1 from passages wp where wp.query_id = ${q}.id
                  and not exists (select 1 from adjudications wa where wa.passage_id = wp.id and wa.reverted_at is null)))`;
  }
  const condition = passageWaits[reason];
  return sql`exists (
    select 1 from passages wp join batches wb on wb.id = wp.batch_id join campaigns wc on wc.id = wp.campaign_id
    where wp.query_id = ${q}.id and ${condition}
      and not exists (select 1 from adjudications wa where wa.passage_id = wp.id and wa.reverted_at is null))`;
}

/**
 * How many of the campaign's questions wait for the coordinator, in all and for each reason (internal: callers authorized).
 * The same conditions as `waitingSql`, read in one pass over the campaign's passages (each passage's
 * flags, grouped by question) instead of five correlated look-ups per question, plus the explained
 * questions, which start from the explanations: 1.1–1.5 s the old way at 200,000 passages in
 * bench/dashboard. The adjudication tests hold both to the same answers.
 */
export async function waitingCounts(db: Db, campaignId: number): Promise<WaitingCounts> {
  const [row] = rowsOf<WaitingCounts>(
    await db.execute(sql`
      with flagged as (
        select wp.query_id,
          bool_or(${passageWaits.split}) as split, bool_or(${passageWaits.decoy}) as decoy, bool_or(${passageWaits.gold}) as gold
        from passages wp join batches wb on wb.id = wp.batch_id join campaigns wc on wc.id = wp.campaign_id
        where wp.campaign_id = ${campaignId}
          and not exists (select 1 from adjudications wa where wa.passage_id = wp.id and wa.reverted_at is null)
        group by wp.query_id
      ),
      explained as (
        select q.id as query_id from queries q
        where q.campaign_id = ${campaignId} and q.id in (select e.query_id from explanations e where e.campaign_id = ${campaignId})
          and ${waitingSql("explained")}
      ),
      waiting as (
        select coalesce(f.query_id, x.query_id) as query_id, coalesce(f.split, false) as split, x.query_id is not null as explained,
          coalesce(f.decoy, false) as decoy, coalesce(f.gold, false) as gold
        from (select * from flagged where split or decoy or gold) f full join explained x on x.query_id = f.query_id
      )
      select count(*)::int as "any",
        ${sql.join(
          WAITING_REASONS.map((reason) => sql`(count(*) filter (where ${sql.identifier(reason)}))::int as ${sql.identifier(reason)}`),
          sql`, `,
        )}
      from waiting`),
  );
  return row ?? { any: 0, split: 0, explained: 0, decoy: 0, gold: 0 };
}

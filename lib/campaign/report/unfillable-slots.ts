import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import type { UnfillableSlots } from "./dashboard.contract";

/**
 * Internal to getDashboard (which authorized the coordinator): the open slots of launched batches
 * that nobody eligible can fill. Eligible: the campaign's annotators (every annotator account when the
 * campaign is open to all, else its members) and its crowd workers, not disabled and not paused. A
 * passage with k open slots takes them only from eligible people who never claimed it — a claim,
 * ended or live, is what the assignment skips: it is left by judging, by proposing (the proposer's
 * ended claim), by a lease that ran out — so when fewer than k such people are left, the rest of its
 * slots stay open for good (a campaign with exactly R annotators and a passage one of them let
 * lapse, or proposals when T = 1, which need R judges besides their proposer).
 *
 * Not a tally: it walks the open passages of the campaign (passages_open_idx: finished work is not
 * read) and counts each one's eligible claimers through claims_passage_user_key, at most E rows a
 * passage (E eligible people). Its cost grows with the work left, not the work done.
 */
export async function unfillableSlots(db: Db, campaignId: number): Promise<UnfillableSlots> {
  const [r] = rowsOf<{ slots: number; passages: number; eligible: number }>(
    await db.execute(sql`
      with eligible as materialized (
        select u.id from campaigns c join users u on u.disabled_at is null and (
            (u.role = 'annotator' and (c.all_annotators
              or exists (select 1 from campaign_members m where m.campaign_id = c.id and m.user_id = u.id)))
            or (u.role = 'crowd' and exists (select 1 from crowd_workers w where w.campaign_id = c.id and w.user_id = u.id)))
        where c.id = ${campaignId}
          and not exists (select 1 from annotator_standings s where s.campaign_id = c.id and s.user_id = u.id and s.status = 'paused')
      ),
      n as materialized (select count(*)::int as e, coalesce(array_agg(id), '{}') as ids from eligible),
      short as (
        select greatest(0, p.open_slots - (n.e - (
          select count(*)::int from claims c where c.passage_id = p.id and c.user_id = any(n.ids)))) as slots
        from passages p cross join n
        where p.campaign_id = ${campaignId} and p.open_slots > 0
          and p.batch_id in (select b.id from batches b where b.campaign_id = ${campaignId} and b.status = 'launched')
      )
      select coalesce(sum(slots), 0)::int as slots, count(*) filter (where slots > 0)::int as passages, (select e from n) as eligible
      from short`),
  );
  return { slots: r?.slots ?? 0, passages: r?.passages ?? 0, eligible: r?.eligible ?? 0 };
}

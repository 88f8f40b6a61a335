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
 * Not a walk of every open passage (that took 13 s at 200,000 passages and 300 annotators in
 * bench/dashboard). Let K be the most open slots any passage has (one look at passages_open_idx) and
 * E the eligible people. When E ≥ K, a passage short of people has at most k − 1 ≤ K − 1 eligible
 * people who never claimed it, so any K eligible people include one who claimed it: the candidates
 * are the passages claimed by K of them — the K with the fewest judgments in the campaign, whose
 * claims are the fewest to read (claims_user_campaign_idx) — and only those are counted. When E < K
 * every open passage may be short, and all are counted (a campaign with fewer people than R).
 */
export async function unfillableSlots(db: Db, campaignId: number): Promise<UnfillableSlots> {
  const [head] = rowsOf<{ k: number | null; eligible: number[]; probe: number[] }>(
    await db.execute(sql`
      with eligible as materialized (
        select u.id from campaigns c join users u on u.disabled_at is null and (
            (u.role = 'annotator' and (c.all_annotators
              or exists (select 1 from campaign_members m where m.campaign_id = c.id and m.user_id = u.id)))
            or (u.role = 'crowd' and exists (select 1 from crowd_workers w where w.campaign_id = c.id and w.user_id = u.id)))
        where c.id = ${campaignId}
          and not exists (select 1 from annotator_standings s where s.campaign_id = c.id and s.user_id = u.id and s.status = 'paused')
      ),
      k as (select max(open_slots)::int as k from passages where campaign_id = ${campaignId} and open_slots > 0),
      judged as (select user_id, sum(judgments) as n from annotator_tallies where campaign_id = ${campaignId} group by user_id)
      select (select k from k) as k,
        (select coalesce(array_agg(id::float8), '{}') from eligible) as eligible,
        (select coalesce(array_agg(id::float8), '{}') from (
          select e.id from eligible e left join judged j on j.user_id = e.id
          order by coalesce(j.n, 0), e.id limit (select coalesce(k, 0) from k)) p) as probe`),
  );
  const eligible = (head?.eligible ?? []).map(Number);
  const k = head?.k ?? 0;
  if (k === 0) return { slots: 0, passages: 0, eligible: eligible.length };
  const probe = (head?.probe ?? []).map(Number);
  const everyOpenPassage = eligible.length < k;
  const launched = sql`p.open_slots > 0
    and p.batch_id in (select b.id from batches b where b.campaign_id = ${campaignId} and b.status = 'launched')`;
  const candidates = everyOpenPassage
    ? sql`select p.id, p.open_slots from passages p where p.campaign_id = ${campaignId} and ${launched}`
    : sql`select p.id, p.open_slots
        from (select distinct c.passage_id from claims c where c.user_id = any(${sql.param(probe)}::bigint[]) and c.campaign_id = ${campaignId}) pc
        join passages p on p.id = pc.passage_id
        where ${launched}`;
  const [r] = rowsOf<{ slots: number; passages: number }>(
    await db.execute(sql`
      with candidates as (${candidates}),
      short as (
        select greatest(0, o.open_slots - (${eligible.length}::int - (
          select count(*)::int from claims c where c.passage_id = o.id and c.user_id = any(${sql.param(eligible)}::bigint[])))) as slots
        from candidates o
      )
      select coalesce(sum(slots), 0)::int as slots, count(*) filter (where slots > 0)::int as passages from short`),
  );
  return { slots: r?.slots ?? 0, passages: r?.passages ?? 0, eligible: eligible.length };
}

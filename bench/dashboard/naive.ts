// The comparison baseline: the dashboard's figures computed the naive way, by scanning the
// campaign's passages and judgments on every call (what the tallies replace). Same shape of work as
// getDashboard: the campaign and its batches, then the independent statements in parallel, then the
// activity chart once its bin is known.
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import { chartBinMinutes } from "@/lib/campaign/report/dashboard";
import { outcomeSql } from "@/lib/campaign/quality/outcome";

export interface NaiveDashboard {
  cells: { batchId: number; judgments: number; sufficient: number; passages: number; claimed: number; open: number; decided: number }[];
  annotators: {
    userId: number;
    username: string;
    judgments: number;
    compared: number;
    agreed: number;
    medianSeconds: number;
    under2s: number;
  }[];
  questions: { unanswerable: number; answered: number };
  disputed: { queryId: number; kiltId: string; passages: number; disputed: number }[];
  activity: { first: Date | null; last: Date | null; recent: number; binMinutes: number; points: { at: Date; judgments: number }[] };
}

const WINDOW_MINUTES = 60;

export async function naiveDashboard(db: Db, campaignId: number, now = new Date()): Promise<NaiveDashboard> {
  const [campaign] = rowsOf<{ r: number; t: number }>(
    await db.execute(sql`select judgments_per_passage::int as r, endorsement_threshold::int as t from campaigns where id = ${campaignId}`),
  );
  if (!campaign) throw new Error(`no campaign ${campaignId}`);
  const { r, t } = campaign;
  const since = new Date(now.getTime() - WINDOW_MINUTES * 60_000);

  // A passage `p`'s outcome, by the rules (lib/campaign/quality/outcome.ts).
  const finished = outcomeSql.isFinished(sql`p.is_decided`, sql`p.judgment_count`, r);
  const endorsed = outcomeSql.isEndorsed(sql`p.sufficient_count`, t);
  const perQuestion = sql`
    select query_id, count(*) as passages,
      count(*) filter (where ${finished}) as finished,
      count(*) filter (where ${endorsed}) as endorsed,
      count(*) filter (where ${outcomeSql.isDisputed(sql`p.judgment_count`, sql`p.sufficient_count`)}) as disputed,
      count(*) filter (where ${outcomeSql.missesGold(sql`p.is_gold`, sql`p.expected_verdict`, finished, endorsed)}) as gold_missed
    from passages p where campaign_id = ${campaignId} group by query_id`;

  const [, cells, annotators, questions, disputed, span] = await Promise.all([
    db.execute(sql`select id, name, status from batches where campaign_id = ${campaignId} order by id`),
    db.execute(sql`
      select batch_id, judgment_count::int as jc, sufficient_count::int as sc, count(*)::int as passages,
             sum(claim_count)::int as claimed, sum(open_slots)::int as open, (count(*) filter (where is_decided))::int as decided
      from passages where campaign_id = ${campaignId} group by 1, 2, 3`),
    db.execute(sql`
      with a as (
        select j.user_id, count(*)::int as judgments,
          (count(*) filter (where ${finished}))::int as compared,
          (count(*) filter (where ${outcomeSql.agreesWithOutcome(sql`j.verdict`, finished, endorsed)}))::int as agreed,
          percentile_cont(0.5) within group (order by j.duration_ms) / 1000 as median_seconds,
          (count(*) filter (where j.duration_ms < 2000))::int as under2s
        from judgments j join passages p on p.id = j.passage_id
        where j.campaign_id = ${campaignId}
        group by j.user_id)
      select a.*, u.username, s.status, s.gold_judged, s.gold_correct
      from a join users u on u.id = a.user_id
      left join annotator_standings s on s.campaign_id = ${campaignId} and s.user_id = a.user_id
      order by u.username`),
    db.execute(sql`
      select (count(*) filter (where gold_missed > 0))::int as unanswerable, (count(*) filter (where endorsed > 0))::int as answered
      from (${perQuestion}) q`),
    db.execute(sql`
      select q.query_id, x.kilt_id, x.input, q.passages::int as passages, q.disputed::int as disputed
      from (${perQuestion}) q join queries x on x.id = q.query_id
      where q.disputed > 0 order by q.disputed desc, q.query_id limit 20`),
    db.execute(sql`
      select min(created_at) as first, max(created_at) as last, (count(*) filter (where created_at >= ${since.toISOString()}::timestamptz))::int as recent
      from judgments where campaign_id = ${campaignId}`),
  ]);

  const [s] = rowsOf<{ first: string | Date | null; last: string | Date | null; recent: number }>(span);
  const first = s?.first ? new Date(s.first) : null;
  const last = s?.last ? new Date(s.last) : null;
  const binMinutes = first && last ? chartBinMinutes((last.getTime() - first.getTime()) / 60_000 + 1) : 1;
  const points = first
    ? rowsOf<{ at: string | Date; judgments: number }>(
        await db.execute(sql`
          select date_bin(make_interval(mins => ${binMinutes}::int), created_at, timestamptz '2000-01-01 00:00:00+00') as at, count(*)::int as judgments
          from judgments where campaign_id = ${campaignId} group by 1 order by 1`),
      ).map((p) => ({ at: new Date(p.at), judgments: p.judgments }))
    : [];

  return {
    cells: rowsOf<{ batch_id: string | number; jc: number; sc: number; passages: number; claimed: number; open: number; decided: number }>(
      cells,
    ).map((c) => ({
      batchId: Number(c.batch_id),
      judgments: c.jc,
      sufficient: c.sc,
      passages: c.passages,
      claimed: c.claimed,
      open: c.open,
      decided: c.decided,
    })),
    annotators: rowsOf<{
      user_id: string | number;
      username: string;
      judgments: number;
      compared: number;
      agreed: number;
      median_seconds: number;
      under2s: number;
    }>(annotators).map((a) => ({
      userId: Number(a.user_id),
      username: a.username,
      judgments: a.judgments,
      compared: a.compared,
      agreed: a.agreed,
      medianSeconds: Number(a.median_seconds),
      under2s: a.under2s,
    })),
    questions: rowsOf<{ unanswerable: number; answered: number }>(questions)[0] ?? { unanswerable: 0, answered: 0 },
    disputed: rowsOf<{ query_id: string | number; kilt_id: string; passages: number; disputed: number }>(disputed).map((d) => ({
      queryId: Number(d.query_id),
      kiltId: d.kilt_id,
      passages: d.passages,
      disputed: d.disputed,
    })),
    activity: { first, last, recent: s?.recent ?? 0, binMinutes, points },
  };
}

import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import { likePattern, type AnnotatorListQuery, type AnnotatorSort, type Page } from "@/lib/list-options.contract";
import { DURATION_BUCKET_MS, MAX_DURATION_BUCKET, medianSecondsFromBuckets, shareUnder } from "@/lib/metrics/durations";
import { annotatorSummaries, type AnnotatorSummary } from "../tallies.internal";
import { smoothedAccuracy } from "../quality/consensus";
import type { AnnotatorRow } from "./annotators.contract";

/** Builds annotator rows from their tallies and standings. */
export function annotatorRowsOf(
  summaries: readonly AnnotatorSummary[],
  people: readonly {
    userId: number;
    username: string;
    status: string | null;
    pauseReason: string | null;
    goldJudged: number | null;
    goldCorrect: number | null;
    negativeGoldJudged?: number | null;
    negativeGoldCorrect?: number | null;
  }[],
): AnnotatorRow[] {
  const byUser = new Map(summaries.map((s) => [s.userId, s]));
  return people.map((p) => {
    const mine = byUser.get(p.userId);
    return {
      userId: p.userId,
      username: p.username,
      status: (p.status ?? "active") as "active" | "paused",
      pauseReason: (p.pauseReason ?? null) as "coordinator" | "gold_rule" | "speed_rule" | null,
      judgments: mine?.judgments ?? 0,
      goldJudged: p.goldJudged ?? 0,
      goldCorrect: p.goldCorrect ?? 0,
      goldAccuracy: smoothedAccuracy(p.goldCorrect ?? 0, p.goldJudged ?? 0),
      ...kindsOf(p.goldJudged ?? 0, p.goldCorrect ?? 0, p.negativeGoldJudged ?? 0, p.negativeGoldCorrect ?? 0),
      agreement: mine && mine.compared > 0 ? mine.agreed / mine.compared : null,
      compared: mine?.compared ?? 0,
      medianSeconds: mine ? medianSecondsFromBuckets(mine.buckets) : null,
      shareUnder2s: mine ? shareUnder(mine.buckets, 2_000) : null,
    };
  });
}

/** The two kinds of gold apart (gold_judged counts both; negative_gold_judged the negative ones). */
function kindsOf(judged: number, correct: number, negativeJudged: number, negativeCorrect: number) {
  return {
    sufficientGoldJudged: judged - negativeJudged,
    sufficientGoldCorrect: correct - negativeCorrect,
    negativeGoldJudged: negativeJudged,
    negativeGoldCorrect: negativeCorrect,
  };
}

/** Which annotators: `q` a part of the username, `userId` one of them. */
export interface AnnotatorFilter {
  q?: string;
  userId?: number;
}

/**
 * The annotators who judged in a campaign or have a standing there, with their figures (from the
 * tallies), in user id order. The members are found through the standings' and tallies' campaign
 * keys, never by scanning every account. Internal: no authorization of its own; the standings functions call it
 * after theirs.
 */
export async function annotatorRows(db: Db, campaignId: number, filter: AnnotatorFilter = {}): Promise<AnnotatorRow[]> {
  const matches = sql.join(
    [
      filter.q ? sql`and u.username ilike ${likePattern(filter.q)}` : sql``,
      filter.userId === undefined ? sql`` : sql`and u.id = ${filter.userId}`,
    ],
    sql` `,
  );
  // Both at once: who has tallies is read by the people query itself.
  const [summaries, people] = await Promise.all([
    annotatorSummaries(db, campaignId, filter.userId),
    db.execute(sql`
      select u.id as user_id, u.username, s.status, s.pause_reason, s.gold_judged, s.gold_correct,
        s.negative_gold_judged, s.negative_gold_correct
      from (select user_id from annotator_standings where campaign_id = ${campaignId}
            union select user_id from annotator_tallies where campaign_id = ${campaignId}
            union select user_id from annotator_tally_deltas where campaign_id = ${campaignId}) m
      join users u on u.id = m.user_id
      left join annotator_standings s on s.campaign_id = ${campaignId} and s.user_id = m.user_id
      where true ${matches}
      order by u.id`),
  ]);
  return annotatorRowsOf(
    summaries,
    rowsOf<{
      user_id: string | number;
      username: string;
      status: string | null;
      pause_reason: string | null;
      gold_judged: number | null;
      gold_correct: number | null;
      negative_gold_judged: number | null;
      negative_gold_correct: number | null;
    }>(people).map((p) => ({
      userId: Number(p.user_id),
      username: p.username,
      status: p.status,
      pauseReason: p.pause_reason,
      goldJudged: p.gold_judged,
      goldCorrect: p.gold_correct,
      negativeGoldJudged: p.negative_gold_judged,
      negativeGoldCorrect: p.negative_gold_correct,
    })),
  );
}

/** The SQL of each sort column, over the `figures` rows of `annotatorPageRows`. */
const SORT_SQL: Record<AnnotatorSort, SQL> = {
  username: sql.raw(`username collate "C"`),
  judgments: sql.raw("judgments"),
  goldJudged: sql.raw("gold_judged"),
  goldAccuracy: sql.raw("gold_accuracy"),
  agreement: sql.raw("agreement"),
  medianSeconds: sql.raw("median_seconds"),
  shareUnder2s: sql.raw("share_under_2s"),
  status: sql.raw("status"),
};

/** The judgment of 1-based rank `rank` in a bucket row of `cumulative`, as `valueAtRank` (lib/metrics/durations.ts) reads it. */
const valueAtRank = (rank: SQL) => sql`
  case when n > 0 and ${rank} > before and ${rank} <= before + n
       then case when bucket = ${MAX_DURATION_BUCKET} then ${(MAX_DURATION_BUCKET * DURATION_BUCKET_MS) / 1000}::float8
                 else ((bucket::float8 + ((${rank} - before)::float8 - 0.5) / n) * ${DURATION_BUCKET_MS}) / 1000 end end`;

/**
 * One page of a campaign's annotators, sorted and cut in one statement: the figures of every member
 * are computed in SQL from the tallies (the same rules as `annotatorRowsOf`: the median and the share
 * under 2 s of lib/metrics/durations.ts, the smoothed gold accuracy), ranked by `sort` in `dir` order
 * with "no data yet" (null) last either way and ties by user id, and only the page's rows leave the
 * database. `after`: the user id of the page before's last row; a page follows that annotator
 * wherever the ranking puts them now, and one no longer listed (their name no longer matches) ends
 * the list. Internal: no authorization of its own (listStandings calls it after its own).
 */
export async function annotatorPageRows(db: Db, campaignId: number, query: AnnotatorListQuery): Promise<Page<AnnotatorRow>> {
  const tallies = (table: string) =>
    sql`select user_id, duration_bucket, judgments, compared, agreed from ${sql.raw(table)} where campaign_id = ${campaignId}`;
  const afterPos =
    query.after === undefined
      ? sql`0`
      : sql`coalesce((select pos from ranked where user_id = ${query.after}), (select count(*) from ranked))`;
  const rows = rowsOf<PageRow>(
    await db.execute(sql`
      with members as (
        select user_id from annotator_standings where campaign_id = ${campaignId}
        union select user_id from annotator_tallies where campaign_id = ${campaignId}
        union select user_id from annotator_tally_deltas where campaign_id = ${campaignId}
      ), per_bucket as (
        select user_id, duration_bucket::int as bucket, sum(judgments)::int as n, sum(compared)::int as c, sum(agreed)::int as a
        from (${tallies("annotator_tallies")} union all ${tallies("annotator_tally_deltas")}) b
        group by 1, 2 having sum(judgments) <> 0 or sum(compared) <> 0
      ), cumulative as (
        select *, (sum(n) over (partition by user_id order by bucket) - n)::int as before, (sum(n) over (partition by user_id))::int as total from per_bucket
      ), figures as (
        select user_id, sum(n)::int as judgments, sum(c)::int as compared, sum(a)::int as agreed, max(total) as total,
               coalesce(sum(n) filter (where bucket < ${2_000 / DURATION_BUCKET_MS}), 0)::int as under_2s,
               sum(${valueAtRank(sql`(total + 1) / 2`)}) as low_median, sum(${valueAtRank(sql`total / 2 + 1`)}) as high_median
        from cumulative group by user_id
      ), listed as (
        select u.id as user_id, u.username, coalesce(s.status, 'active') as status, s.pause_reason,
               coalesce(s.gold_judged, 0) as gold_judged, coalesce(s.gold_correct, 0) as gold_correct,
               coalesce(s.negative_gold_judged, 0) as negative_gold_judged, coalesce(s.negative_gold_correct, 0) as negative_gold_correct,
               coalesce(f.judgments, 0) as judgments, coalesce(f.compared, 0) as compared,
               (0.5::float8 + coalesce(s.gold_correct, 0)) / (1 + coalesce(s.gold_judged, 0))::float8 as gold_accuracy,
               case when f.compared > 0 then f.agreed::float8 / f.compared end as agreement,
               case when f.total > 0 then (f.low_median + f.high_median) / 2 end as median_seconds,
               case when f.total > 0 then f.under_2s::float8 / f.total end as share_under_2s
        from members m
        join users u on u.id = m.user_id
        left join annotator_standings s on s.campaign_id = ${campaignId} and s.user_id = m.user_id
        left join figures f on f.user_id = m.user_id
        ${query.q ? sql`where u.username ilike ${likePattern(query.q)}` : sql``}
      ), ranked as (
        select *, row_number() over (order by ${SORT_SQL[query.sort]} ${sql.raw(query.dir)} nulls last, user_id) as pos from listed
      )
      select * from ranked where pos > ${afterPos} order by pos limit ${query.limit + 1}`),
  );
  const page = rows.slice(0, query.limit).map(rowOfPage);
  return { rows: page, next: rows.length > query.limit ? page[page.length - 1]!.userId : null };
}

interface PageRow {
  user_id: string | number;
  username: string;
  status: "active" | "paused";
  pause_reason: "coordinator" | "gold_rule" | "speed_rule" | null;
  gold_judged: number;
  gold_correct: number;
  negative_gold_judged: number;
  negative_gold_correct: number;
  judgments: number;
  compared: number;
  gold_accuracy: number;
  agreement: number | null;
  median_seconds: number | null;
  share_under_2s: number | null;
}

const rowOfPage = (r: PageRow): AnnotatorRow => ({
  userId: Number(r.user_id),
  username: r.username,
  status: r.status,
  pauseReason: r.pause_reason,
  judgments: r.judgments,
  goldJudged: r.gold_judged,
  goldCorrect: r.gold_correct,
  goldAccuracy: Number(r.gold_accuracy),
  ...kindsOf(r.gold_judged, r.gold_correct, r.negative_gold_judged, r.negative_gold_correct),
  agreement: r.agreement === null ? null : Number(r.agreement),
  compared: r.compared,
  medianSeconds: r.median_seconds === null ? null : Number(r.median_seconds),
  shareUnder2s: r.share_under_2s === null ? null : Number(r.share_under_2s),
});

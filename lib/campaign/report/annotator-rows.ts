import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import { likePattern, type AnnotatorListQuery, type AnnotatorSort, type Page } from "@/lib/lists/list-options";
import { medianSecondsFromBuckets, shareUnder } from "@/lib/metrics/durations";
import { annotatorSummaries, type AnnotatorSummary } from "../internal/tallies";
import { smoothedAccuracy } from "../quality/consensus";

/** One row of a campaign's annotators table: their tallies and standing. */
export interface AnnotatorRow {
  userId: number;
  username: string;
  status: "active" | "paused";
  pauseReason: "coordinator" | "gold_rule" | null;
  judgments: number;
  goldJudged: number;
  goldCorrect: number;
  /** (0.5 + correct) / (1 + judged) */
  goldAccuracy: number;
  /** Share of judgments on finished passages whose verdict matches the outcome; null before any. */
  agreement: number | null;
  compared: number;
  medianSeconds: number | null;
  shareUnder2s: number | null;
}

/** Builds annotator rows from their tallies and standings. */
export function annotatorRowsOf(
  summaries: readonly AnnotatorSummary[],
  people: readonly { userId: number; username: string; status: string | null; pauseReason: string | null; goldJudged: number | null; goldCorrect: number | null }[],
): AnnotatorRow[] {
  const byUser = new Map(summaries.map((s) => [s.userId, s]));
  return people.map((p) => {
    const mine = byUser.get(p.userId);
    return {
      userId: p.userId,
      username: p.username,
      status: (p.status ?? "active") as "active" | "paused",
      pauseReason: (p.pauseReason ?? null) as "coordinator" | "gold_rule" | null,
      judgments: mine?.judgments ?? 0,
      goldJudged: p.goldJudged ?? 0,
      goldCorrect: p.goldCorrect ?? 0,
      goldAccuracy: smoothedAccuracy(p.goldCorrect ?? 0, p.goldJudged ?? 0),
      agreement: mine && mine.compared > 0 ? mine.agreed / mine.compared : null,
      compared: mine?.compared ?? 0,
      medianSeconds: mine ? medianSecondsFromBuckets(mine.buckets) : null,
      shareUnder2s: mine ? shareUnder(mine.buckets, 2_000) : null,
    };
  });
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
      select u.id as user_id, u.username, s.status, s.pause_reason, s.gold_judged, s.gold_correct
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
    rowsOf<{ user_id: string | number; username: string; status: string | null; pause_reason: string | null; gold_judged: number | null; gold_correct: number | null }>(people).map((p) => ({
      userId: Number(p.user_id),
      username: p.username,
      status: p.status,
      pauseReason: p.pause_reason,
      goldJudged: p.gold_judged,
      goldCorrect: p.gold_correct,
    })),
  );
}

const collator = new Intl.Collator("en");

/** Orders rows by `sort` in `dir` order; "no data yet" (null) last either way; ties by user id. */
export function compareAnnotators(a: AnnotatorRow, b: AnnotatorRow, sort: AnnotatorSort, dir: "asc" | "desc"): number {
  const x = a[sort];
  const y = b[sort];
  const sign = dir === "asc" ? 1 : -1;
  let order = 0;
  if (x === null || y === null) order = x === y ? 0 : x === null ? 1 : -1;
  else if (typeof x === "number" && typeof y === "number") order = (x - y) * sign;
  else order = collator.compare(String(x), String(y)) * sign;
  return order || a.userId - b.userId;
}

/**
 * One page of the sorted rows: those after the row of user `after` (the `next` of the page before),
 * at most `limit`. A page follows that annotator wherever the sort puts them now; one no longer listed
 * (their name no longer matches) ends the list.
 */
export function annotatorPage(rows: readonly AnnotatorRow[], query: AnnotatorListQuery): Page<AnnotatorRow> {
  const sorted = [...rows].sort((a, b) => compareAnnotators(a, b, query.sort, query.dir));
  const start = query.after === undefined ? 0 : sorted.findIndex((r) => r.userId === query.after) + 1 || sorted.length;
  const page = sorted.slice(start, start + query.limit);
  return { rows: page, next: start + query.limit < sorted.length ? page[page.length - 1]!.userId : null };
}

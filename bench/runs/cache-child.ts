// Child process of bench/runs/run.ts: the leaderboard cache, through the app's own path
// (getLeaderboard → score-cache.ts), in a process of its own. Prints one JSON line.
//
//   node --import tsx bench/runs/cache-child.ts --url URL --campaign ID [--reads 30] [--recompute-runs 3] [--quick]
//
// In order: the first read (every run computed and stored), `reads` reads with nothing changed,
// a change (an outcome-version delta appended, as any outcome write's trigger does) then the
// figures of `recompute-runs` runs recomputed, the same for every run (the leaderboard read after
// a change), and a run whose entries are gone (a new upload) scored alone.
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { openDatabase, type Db } from "@/db/client";
import { system } from "@/lib/auth/actor";
import { getCampaign } from "@/lib/campaign/campaigns";
import { getLeaderboard } from "@/lib/campaign/runs/leaderboard";
import { runRows } from "@/lib/campaign/runs/list-runs";
import { cachedScores } from "@/lib/campaign/runs/score-cache";
import { cpuSince, reportResult, runMain } from "../common";

export interface CacheChildReport {
  runs: number;
  firstSeconds: number;
  /** Milliseconds of each read with nothing changed. */
  readsMs: number[];
  recomputeRuns: number;
  recomputeSeconds: number;
  recomputeAllSeconds: number;
  newRunSeconds: number;
  cpuSeconds: number;
  /** process.resourceUsage().maxRSS, in KiB. */
  maxRssKiB: number;
  /** A figure per run and gold, to compare with the uncached read's. */
  rprec: Record<string, Record<string, number | undefined>>;
}

const QUERY = { level: "paragraph", ks: [1, 5, 10] } as const;

async function timed<T>(f: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const value = await f();
  return [value, (performance.now() - t0) / 1000];
}

const bump = (db: Db, campaignId: number) =>
  db.execute(sql`insert into outcome_version_deltas (campaign_id, changes) values (${campaignId}, 1)`);

runMain(async () => {
  const { values } = parseArgs({
    options: {
      url: { type: "string" },
      campaign: { type: "string" },
      reads: { type: "string", default: "30" },
      "recompute-runs": { type: "string", default: "3" },
      quick: { type: "boolean", default: false },
    },
  });
  const handle = await openDatabase({ url: values.url! });
  const db = handle.db;
  const campaignId = Number(values.campaign);
  const read = () => getLeaderboard(db, system, { campaignId, ...QUERY, ks: [...QUERY.ks] });
  const cpu = process.cpuUsage();
  const [board, firstSeconds] = await timed(read);
  const readsMs: number[] = [];
  for (let i = 0; i < Number(values.reads); i++) readsMs.push((await timed(read))[1] * 1000);
  const campaign = await getCampaign(db, system, campaignId);
  const runList = await runRows(db, campaignId);
  const some = runList.slice(0, Number(values["recompute-runs"]));
  await bump(db, campaignId);
  const [, recomputeSeconds] = await timed(() => cachedScores(db, campaign, some, [...QUERY.ks], [QUERY.level]));
  // --quick: the two measures below are skipped (-1).
  let [recomputeAllSeconds, newRunSeconds] = [-1, -1];
  if (!values.quick) {
    await bump(db, campaignId);
    recomputeAllSeconds = (await timed(read))[1];
    await db.execute(sql`delete from leaderboard_scores where run_id = ${runList[0]!.id}`);
    newRunSeconds = (await timed(read))[1];
  }
  const rprec: CacheChildReport["rprec"] = {};
  for (const row of board.rows)
    rprec[row.run.name] = {
      original: row.scores.original.paragraph?.Rprec,
      endorsed: row.scores.endorsed.paragraph?.Rprec,
      both: row.scores.both.paragraph?.Rprec,
    };
  const report: CacheChildReport = {
    runs: runList.length,
    firstSeconds,
    readsMs,
    recomputeRuns: some.length,
    recomputeSeconds,
    recomputeAllSeconds,
    newRunSeconds,
    cpuSeconds: cpuSince(cpu),
    maxRssKiB: process.resourceUsage().maxRSS,
    rprec,
  };
  await handle.close();
  reportResult(report);
});

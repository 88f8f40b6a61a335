// Runs benchmark: the leaderboard of a campaign of Q questions with R runs, each measure in a child
// process (own peak RSS): the baseline, computed without the cache (every question's three golds
// rebuilt from the outcomes, a ScoreAccumulator per run and gold: the path every read took before
// the cache); then through the app's own path with the cache (getLeaderboard → score-cache.ts): the
// first read, reads with nothing changed (p50/p95), 3 runs read after a change confined to one
// question (updated in place), the leaderboard after that change's revert and after a campaign-wide
// change (every question read again), and a new run scored alone; and one run's results download (its first read). The campaign is bench/export's synthetic one (built in SQL); the runs' predictions are
// written in SQL: each question's passages in a per-run shuffled order (title and text-free items)
// and an answer right half of the time.
//
//   tsx bench/runs/run.ts [--judgments 300000] [--runs 10] [--reads 30]
//
// Needs a PostgreSQL server whose user may create databases (DATABASE_URL, else
// postgres://postgres@127.0.0.1:5432/postgres). A throwaway database kps_bench_runs_<random> is
// created and dropped at the end (also on Ctrl-C).
import os from "node:os";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { migrateDatabase } from "@/db/migrate";
import { buildCampaign } from "../export/synthetic";
import { writeRuns } from "./synthetic-runs";
import {
  benchChild,
  benchWorkspace,
  createBenchDatabase,
  childResult,
  fmt,
  int,
  integerOption,
  loadAverage,
  runMain,
  timedRun,
} from "../common";
import type { CacheChildReport } from "./cache-child";
import type { LeaderboardChildReport } from "./leaderboard-child";

const CHILD = benchChild("runs", "leaderboard-child.ts");
const CACHE_CHILD = benchChild("runs", "cache-child.ts");

function parseOptions() {
  const { values } = parseArgs({
    options: {
      judgments: { type: "string", default: "300000" },
      runs: { type: "string", default: "10" },
      reads: { type: "string", default: "30" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    console.log("usage: tsx bench/runs/run.ts [--judgments 300000] [--runs 10] [--reads 30]");
    process.exit(0);
  }
  return {
    judgments: integerOption("--judgments", values.judgments, 9),
    runs: integerOption("--runs", values.runs, 1),
    reads: integerOption("--reads", values.reads, 1),
  };
}

async function main() {
  const opts = parseOptions();
  const ws = benchWorkspace("kps_bench_runs", "kps-bench-runs-");
  const { benchUrl, cleanup } = ws;
  try {
    console.log(`Runs benchmark — ${int(opts.judgments)} judgments, ${opts.runs} runs`);
    console.log(
      `machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "?"}, Node ${process.version}, ${new Date().toISOString()}, load average ${loadAverage()}`,
    );
    const bench = await createBenchDatabase(ws);
    await migrateDatabase(bench);
    const t0 = performance.now();
    const built = await buildCampaign(bench.db, { judgments: opts.judgments, annotators: 300 });
    const runIds = await writeRuns(bench.db, built.campaignId, opts.runs);
    await bench.db.execute(sql.raw("analyze"));
    console.log(
      `built: ${int(built.questions)} questions, ${int(built.passages)} passages, ${int(built.judgments)} judgments, ${opts.runs} runs in ${fmt((performance.now() - t0) / 1000)} s`,
    );
    const child = async <T>(file: string, args: string[]) => {
      const run = await timedRun(process.execPath, [
        "--import",
        "tsx",
        file,
        "--url",
        benchUrl,
        "--campaign",
        String(built.campaignId),
        ...args,
      ]);
      return childResult<T>(run, "leaderboard");
    };
    const board = await child<LeaderboardChildReport>(CHILD, []);
    console.log(
      `golds: ${Object.entries(board.golds)
        .map(([g, v]) => `${g} ${int(v.questions)}`)
        .join(", ")}`,
    );
    const cache = await child<CacheChildReport>(CACHE_CHILD, ["--reads", String(opts.reads), "--recompute-runs", "3"]);
    const results = await child<LeaderboardChildReport>(CHILD, ["--what", "results", "--run", String(runIds[0])]);
    report(built.questions, opts.runs, board, cache, results);
  } finally {
    await cleanup();
  }
}

/** The p-th percentile (nearest rank) of `values`. */
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

function report(questions: number, runs: number, board: LeaderboardChildReport, cache: CacheChildReport, results: LeaderboardChildReport) {
  const row = (what: string, size: string, seconds: string) => console.log(`| ${what} | ${size} | ${seconds} |`);
  const q = int(questions);
  console.log("\n| leaderboard (paragraph, ks 1,5,10) | questions × runs | seconds |\n|---|---|---|");
  row("uncached: golds rebuilt, every run scored (baseline, the path before the cache)", `${q} × ${runs}`, fmt(board.seconds, 2));
  row("cached, first read (every run computed and stored)", `${q} × ${runs}`, fmt(cache.firstSeconds, 2));
  row(
    `cached, nothing changed: p50 / p95 of ${cache.readsMs.length} reads (target p95 < 0.3 s)`,
    `${q} × ${runs}`,
    `${fmt(percentile(cache.readsMs, 50) / 1000, 3)} / ${fmt(percentile(cache.readsMs, 95) / 1000, 3)}`,
  );
  row(
    `after a change confined to one question (a passage rejected): ${cache.recomputeRuns} runs read, every stored entry updated in place (target < 5 s)`,
    `${q} × ${cache.recomputeRuns}`,
    fmt(cache.recomputeSeconds, 2),
  );
  row(
    "the rejection reverted: the leaderboard read (every run, that question updated in place)",
    `${q} × ${runs}`,
    fmt(cache.revertReadSeconds, 2),
  );
  row(
    `an annotator paused: the leaderboard read (the ${int(cache.pausedQuestions)} questions they judged updated in place)`,
    `${q} × ${runs}`,
    fmt(cache.pauseReadSeconds, 2),
  );
  row(
    `a page renamed: the leaderboard read (the ${int(cache.pageQuestions)} questions with a passage on it updated in place)`,
    `${q} × ${runs}`,
    fmt(cache.pageReadSeconds, 2),
  );
  row(
    "after a campaign-wide change of a setting no gold is read with (early stop): the leaderboard read (no question read again)",
    `${q} × ${runs}`,
    fmt(cache.recomputeAllSeconds, 2),
  );
  const t = cache.tChange;
  if (t) {
    row(
      `after T changed from ${t.from} to ${t.to} (campaign-wide; the golds of ${int(t.questions)} questions moved; those kept at ${t.to} taken): ${cache.recomputeRuns} runs read (target < 5 s)`,
      `${q} × ${cache.recomputeRuns}`,
      fmt(t.seconds, 2),
    );
    row(
      `then the leaderboard read (the other ${runs - cache.recomputeRuns} runs scored from the stored golds)`,
      `${q} × ${runs}`,
      fmt(t.readSeconds, 2),
    );
  }
  row("a new run: scored alone, the others from the cache", `${q} × 1`, fmt(cache.newRunSeconds, 2));
  if (t) {
    row(
      `T changed back from ${t.to} to ${t.from} (those kept at ${t.from} taken): ${cache.recomputeRuns} runs read (target < 5 s)`,
      `${q} × ${cache.recomputeRuns}`,
      fmt(t.backSeconds, 2),
    );
    row(
      `T changed to ${t.to} again with the golds kept at ${t.to} dropped (as before they were kept): ${cache.recomputeRuns} runs read (every question's outcomes read again)`,
      `${q} × ${cache.recomputeRuns}`,
      fmt(t.walkSeconds, 2),
    );
  }
  row("one run's results, first read (page + paragraph, ks 1,3,5,10, downstream)", `${q} × 1`, fmt(results.seconds, 2));
  console.log(
    `\npeak RSS: uncached ${fmt(board.maxRssKiB / 1024, 0)} MB (CPU ${fmt(board.cpuSeconds, 1)} s); cached child (all of its reads) ${fmt(cache.maxRssKiB / 1024, 0)} MB (CPU ${fmt(cache.cpuSeconds, 1)} s)`,
  );
  const same = (cached: CacheChildReport["rprec"], digits?: number) =>
    Object.entries(board.rprec).every(([n, r]) =>
      Object.entries(r).every(([g, v]) => {
        const c = cached[n]?.[g];
        return digits === undefined ? c === v : v !== undefined && c !== undefined && Math.abs(c - v) < 10 ** -digits;
      }),
    );
  console.log(`cached figures equal the uncached ones: ${same(cache.rprec) ? "yes" : "NO"}`);
  console.log(
    `the rejection moved a run's figures: ${cache.changedByRejection ? "yes" : "no"}; after it and its revert, both updated in place, they equal the uncached ones to 12 decimals: ${same(cache.rprecAfterRevert, 12) ? "yes" : "NO"}`,
  );
  if (t)
    console.log(
      `after T changed, the ${cache.recomputeRuns} runs' figures equal the uncached scorer's to 12 digits: ${t.sameAsUncached ? "yes" : "NO"}; after T changed back: ${t.backSameAsUncached ? "yes" : "NO"}; after the change with the golds kept dropped: ${t.walkSameAsUncached ? "yes" : "NO"}`,
    );
  console.log(
    `paragraph R-precision per run (original / endorsed / both): ${Object.entries(board.rprec)
      .map(([n, r]) => `${n} ${fmt(r.original ?? 0, 3)} / ${fmt(r.endorsed ?? 0, 3)} / ${fmt(r.both ?? 0, 3)}`)
      .join("; ")}`,
  );
}

runMain(main);

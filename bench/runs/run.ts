// Runs benchmark: the leaderboard of a campaign of Q questions with R runs, and one run's results
// download, each read in a child process (own peak RSS) through the app's own path (getLeaderboard,
// getRunResults: every question's three golds rebuilt from the outcomes, a ScoreAccumulator per run
// and gold). The campaign is bench/export's synthetic one (built in SQL); the runs' predictions are
// written in SQL: each question's passages in a per-run shuffled order (title and text-free items)
// and an answer right half of the time.
//
//   tsx bench/runs/run.ts [--judgments 300000] [--runs 3]
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
import type { LeaderboardChildReport } from "./leaderboard-child";

const CHILD = benchChild("runs", "leaderboard-child.ts");

function parseOptions() {
  const { values } = parseArgs({
    options: {
      judgments: { type: "string", default: "300000" },
      runs: { type: "string", default: "3" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    console.log("usage: tsx bench/runs/run.ts [--judgments 300000] [--runs 3]");
    process.exit(0);
  }
  return { judgments: integerOption("--judgments", values.judgments, 9), runs: integerOption("--runs", values.runs, 1) };
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
    const child = async (args: string[]) => {
      const run = await timedRun(process.execPath, [
        "--import",
        "tsx",
        CHILD,
        "--url",
        benchUrl,
        "--campaign",
        String(built.campaignId),
        ...args,
      ]);
      return childResult<LeaderboardChildReport>(run, "leaderboard");
    };
    const board = await child([]);
    console.log(
      `golds: ${Object.entries(board.golds)
        .map(([g, v]) => `${g} ${int(v.questions)}`)
        .join(", ")}`,
    );
    const results = await child(["--what", "results", "--run", String(runIds[0])]);
    console.log("\n| read | questions × runs | seconds | CPU s | peak RSS |\n|---|---|---|---|---|");
    console.log(
      `| leaderboard (paragraph, ks 1,5,10) | ${int(built.questions)} × ${opts.runs} | ${fmt(board.seconds, 2)} | ${fmt(board.cpuSeconds, 2)} | ${fmt(board.maxRssKiB / 1024, 0)} MB |`,
    );
    console.log(
      `| one run's results (page + paragraph, ks 1,3,5,10, downstream) | ${int(built.questions)} × 1 | ${fmt(results.seconds, 2)} | ${fmt(results.cpuSeconds, 2)} | ${fmt(results.maxRssKiB / 1024, 0)} MB |`,
    );
    console.log(
      `\nparagraph R-precision per run (original / endorsed / both): ${Object.entries(board.rprec)
        .map(([n, r]) => `${n} ${fmt(r.original ?? 0, 3)} / ${fmt(r.endorsed ?? 0, 3)} / ${fmt(r.both ?? 0, 3)}`)
        .join("; ")}`,
    );
  } finally {
    await cleanup();
  }
}

runMain(main);

// Child process of bench/runs/run.ts: one leaderboard read (or one run's results) through the app's
// own path, in a process of its own so that its peak RSS is the read's. Prints one JSON line.
//
//   node --import tsx bench/runs/leaderboard-child.ts --url URL --campaign ID [--what leaderboard|results --run ID]
import { parseArgs } from "node:util";
import { openDatabase } from "@/db/client";
import { system } from "@/lib/auth/actor";
import { getLeaderboard, getRunResults } from "@/lib/campaign/runs/leaderboard";
import { cpuSince, reportResult, runMain } from "../common";

export interface LeaderboardChildReport {
  what: string;
  seconds: number;
  cpuSeconds: number;
  /** process.resourceUsage().maxRSS, in KiB. */
  maxRssKiB: number;
  golds: Record<string, { questions: number }>;
  /** A figure per run and gold, to see the golds differ. */
  rprec: Record<string, Record<string, number | undefined>>;
}

runMain(async () => {
  const { values } = parseArgs({
    options: {
      url: { type: "string" },
      campaign: { type: "string" },
      what: { type: "string", default: "leaderboard" },
      run: { type: "string" },
    },
  });
  const handle = await openDatabase({ url: values.url! });
  const campaignId = Number(values.campaign);
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  let golds: LeaderboardChildReport["golds"] = {};
  const rprec: LeaderboardChildReport["rprec"] = {};
  if (values.what === "results") {
    const { run, results } = await getRunResults(handle.db, system, { campaignId, runId: Number(values.run) });
    rprec[run.name] = {
      original: results.original.paragraph?.Rprec,
      endorsed: results.endorsed.paragraph?.Rprec,
      both: results.both.paragraph?.Rprec,
    };
  } else {
    const board = await getLeaderboard(handle.db, system, { campaignId, level: "paragraph", ks: [1, 5, 10] });
    golds = board.golds;
    for (const row of board.rows)
      rprec[row.run.name] = {
        original: row.scores.original.paragraph?.Rprec,
        endorsed: row.scores.endorsed.paragraph?.Rprec,
        both: row.scores.both.paragraph?.Rprec,
      };
  }
  const seconds = (performance.now() - t0) / 1000;
  const report: LeaderboardChildReport = {
    what: values.what!,
    seconds,
    cpuSeconds: cpuSince(cpu),
    maxRssKiB: process.resourceUsage().maxRSS,
    golds,
    rprec,
  };
  await handle.close();
  reportResult(report);
});

// Child process of bench/runs/run.ts: the leaderboard computed without the cache (the baseline:
// the path every read took before the cache, getCampaign + runRows + scoreRuns: every question's
// golds rebuilt, every run scored), or one run's results through the app's own path (getRunResults,
// its first read: computed and stored), in a process of its own so that its peak RSS is the read's.
// Prints one JSON line.
//
//   node --import tsx bench/runs/leaderboard-child.ts --url URL --campaign ID [--what leaderboard|results --run ID]
import { parseArgs } from "node:util";
import { openDatabase } from "@/db/client";
import { system } from "@/lib/auth/actor";
import { getCampaign } from "@/lib/campaign/campaigns";
import { getRunResults } from "@/lib/campaign/runs/leaderboard";
import { runRows } from "@/lib/campaign/runs/list-runs";
import { scoreRuns } from "@/lib/campaign/runs/score-runs";
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
    const campaign = await getCampaign(handle.db, system, campaignId);
    const runList = await runRows(handle.db, campaignId);
    const board = await scoreRuns(handle.db, campaign, runList, [1, 5, 10], ["paragraph"]);
    golds = board.golds;
    for (const run of runList) {
      const scores = board.runs.get(run.id)!.scores;
      rprec[run.name] = {
        original: scores.original.paragraph?.Rprec,
        endorsed: scores.endorsed.paragraph?.Rprec,
        both: scores.both.paragraph?.Rprec,
      };
    }
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

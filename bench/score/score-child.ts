// Child process of bench/score/run.ts: `kps score` itself (bin/cli.ts's main with the arguments
// given), in a process of its own so that its peak RSS is the scorer's. Prints what kps prints, then
// one KPS_BENCH_RESULT line.
//
//   node bench/out/score-child.mjs --gold G --guess H --json     (the bundle run.ts builds)
//   node --import tsx bench/score/score-child.ts --gold G --guess H --json
import { main } from "@/bin/cli";

export interface ScoreChildReport {
  /** kps's exit code. */
  code: number;
  /** From the start of main to its end (no process start-up). */
  seconds: number;
  cpuSeconds: number;
  /** process.resourceUsage().maxRSS, in KiB. */
  maxRssKiB: number;
}

// bench/common.ts is not imported: it brings drizzle along, which kps score never loads.
const t0 = performance.now();
const cpu = process.cpuUsage();
const code = await main(["node", "kps", "score", ...process.argv.slice(2)]);
const used = process.cpuUsage(cpu);
const report: ScoreChildReport = {
  code,
  seconds: (performance.now() - t0) / 1000,
  cpuSeconds: (used.user + used.system) / 1e6,
  maxRssKiB: process.resourceUsage().maxRSS,
};
process.stdout.write(`KPS_BENCH_RESULT ${JSON.stringify(report)}\n`);
process.exitCode = code;

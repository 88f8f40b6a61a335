// Child process of the benchmarks that time a kps command (bench/score, bench/map): the command
// itself (bin/cli.ts's main with the arguments given), in a process of its own so that its peak RSS
// is the command's. Prints what kps prints, then one KPS_BENCH_RESULT line.
//
//   node bench/out/kps-child.mjs score --gold G --guess H --json     (the bundle run.ts builds)
//   node --import tsx bench/kps-child.ts map --knowledge K --items I --min-bleu 0
import { main } from "@/bin/cli";

export interface KpsChildReport {
  /** kps's exit code. */
  code: number;
  /** From the start of main to its end (no process start-up). */
  seconds: number;
  cpuSeconds: number;
  /** process.resourceUsage().maxRSS, in KiB. */
  maxRssKiB: number;
}

// bench/common.ts is not imported: it brings drizzle along, which kps score and kps map never load.
const t0 = performance.now();
const cpu = process.cpuUsage();
const code = await main(["node", "kps", ...process.argv.slice(2)]);
const used = process.cpuUsage(cpu);
const report: KpsChildReport = {
  code,
  seconds: (performance.now() - t0) / 1000,
  cpuSeconds: (used.user + used.system) / 1e6,
  maxRssKiB: process.resourceUsage().maxRSS,
};
process.stdout.write(`KPS_BENCH_RESULT ${JSON.stringify(report)}\n`);
process.exitCode = code;

// Child process of bench/map/run.ts: `kps map` itself (bin/cli.ts's main with the arguments given),
// in a process of its own so that its peak RSS is the mapper's. Prints what kps prints (one JSON
// line per item), then one KPS_BENCH_RESULT line.
//
//   node bench/out/map-child.mjs --knowledge K --items I --min-bleu 0     (the bundle run.ts builds)
import { main } from "@/bin/cli";

export interface MapChildReport {
  code: number;
  /** From the start of main to its end (no process start-up). */
  seconds: number;
  cpuSeconds: number;
  /** process.resourceUsage().maxRSS, in KiB. */
  maxRssKiB: number;
}

const t0 = performance.now();
const cpu = process.cpuUsage();
const code = await main(["node", "kps", "map", ...process.argv.slice(2)]);
const used = process.cpuUsage(cpu);
const report: MapChildReport = {
  code,
  seconds: (performance.now() - t0) / 1000,
  cpuSeconds: (used.user + used.system) / 1e6,
  maxRssKiB: process.resourceUsage().maxRSS,
};
process.stdout.write(`KPS_BENCH_RESULT ${JSON.stringify(report)}\n`);
process.exitCode = code;

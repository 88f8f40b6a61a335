// Child process of bench/aggregate/run.ts: one fit in a process of its own, so that its peak RSS is
// that fit's. Generates the judgments (not timed), then times the fit and prints one
// KPS_BENCH_RESULT line.
//
//   node bench/out/aggregate-child.mjs --judgments N --model majority|dawid-skene|dawid-skene-gold|one-coin [--seed S]
import { parseArgs } from "node:util";
import { fitDawidSkeneTraced, fitOneCoinDawidSkeneTraced, majorityVote, type Verdict } from "@/lib/campaign/quality/dawid-skene";
import { type AggregateChildReport, type BenchModel, MODELS } from "./report";
import { synthetic } from "./synthetic";

const MB = 1e6;
const { values } = parseArgs({
  options: { judgments: { type: "string" }, model: { type: "string" }, seed: { type: "string", default: "1" } },
});
const n = Number(values.judgments);
const model = values.model as BenchModel;
if (!Number.isInteger(n) || n < 3 || !MODELS.includes(model)) throw new Error(`usage: --judgments N (≥ 3) --model ${MODELS.join("|")}`);

const data = synthetic(n, Number(values.seed));
(globalThis as { gc?: () => void }).gc?.();
const rssBeforeMB = process.memoryUsage().rss / MB;
const t0 = performance.now();
const cpu = process.cpuUsage();
let labels: Map<string, Verdict>;
let iterations = 0;
if (model === "majority") labels = majorityVote(data.votes).labels;
else {
  const fitted =
    model === "one-coin"
      ? fitOneCoinDawidSkeneTraced(data.votes)
      : fitDawidSkeneTraced(data.votes, model === "dawid-skene-gold" ? { gold: data.gold } : {});
  labels = fitted.fit.labels;
  iterations = fitted.trace.iterations;
}
const seconds = (performance.now() - t0) / 1000;
const used = process.cpuUsage(cpu);
const rssAfterMB = process.memoryUsage().rss / MB;
let right = 0;
for (const [p, t] of data.truth) if (labels.get(p) === t) right++;
const report: AggregateChildReport = {
  model,
  judgments: data.votes.length,
  passages: data.truth.size,
  annotators: data.annotators,
  iterations,
  seconds,
  cpuSeconds: (used.user + used.system) / 1e6,
  rssBeforeMB,
  rssAfterMB,
  peakRssMB: (process.resourceUsage().maxRSS * 1024) / MB,
  accuracy: right / data.truth.size,
};
process.stdout.write(`KPS_BENCH_RESULT ${JSON.stringify(report)}\n`);

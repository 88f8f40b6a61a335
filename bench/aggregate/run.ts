// Aggregation benchmark: Dawid–Skene (without and with 10% gold) and one-coin Dawid–Skene
// (lib/campaign/quality/dawid-skene.ts) on synthetic judgments (bench/aggregate/synthetic.ts), with
// majority vote as the same-process baseline. Each fit runs in a child process of its own, so its
// peak RSS is that fit's. See bench/aggregate/README.md.
//
//   tsx bench/aggregate/run.ts [--judgments 10000,100000,1000000] [--seed 1] [--models majority,dawid-skene,dawid-skene-gold,one-coin]
import os from "node:os";
import { type AggregateChildReport, type BenchModel, MODELS } from "./report";
import { benchChild, benchOptions, bundleChild, seedOption, childResult, fmt, int, loadAverage, runMain, timedRun } from "../common";

const CHILD = benchChild("aggregate", "child.ts");
const MB = 1e6;

function parseOptions() {
  const values = benchOptions(
    `usage: tsx bench/aggregate/run.ts [--judgments 10000,100000,1000000] [--seed 1] [--models ${MODELS.join(",")}]`,
    {
      judgments: { type: "string", default: "10000,100000,1000000" },
      seed: { type: "string", default: "1" },
      models: { type: "string", default: MODELS.join(",") },
    },
  );
  const sizes = values.judgments.split(",").map(Number);
  if (sizes.some((n) => !Number.isInteger(n) || n < 3)) throw new Error(`--judgments must be integers ≥ 3, not '${values.judgments}'`);
  const models = values.models.split(",") as BenchModel[];
  const bad = models.filter((m) => !MODELS.includes(m));
  if (bad.length) throw new Error(`--models: ${bad.join(", ")} is not one of ${MODELS.join(", ")}`);
  const seed = seedOption(values.seed);
  return { sizes, models, seed };
}

const LABEL: Record<BenchModel, string> = {
  majority: "majority vote (baseline)",
  "dawid-skene": "Dawid–Skene",
  "dawid-skene-gold": "Dawid–Skene, 10% gold",
  "one-coin": "one-coin Dawid–Skene",
};

runMain(async () => {
  const opts = parseOptions();
  const bundle = await bundleChild(CHILD, "aggregate-child.mjs", "the child");
  console.log(
    `aggregate bench: ${opts.sizes.map(int).join(", ")} judgments, seed ${opts.seed}; child ${bundle ? "bundled, on plain node --expose-gc" : "under tsx"}; node ${process.version}, ${os.cpus().length} cores, load average ${loadAverage()}`,
  );
  const rows: { r: AggregateChildReport; wall: number; timeRss?: number }[] = [];
  for (const n of opts.sizes) {
    for (const model of opts.models) {
      const args = ["--judgments", String(n), "--model", model, "--seed", String(opts.seed)];
      const run = await timedRun(
        process.execPath,
        bundle ? ["--expose-gc", bundle, ...args] : ["--expose-gc", "--import", "tsx", CHILD, ...args],
      );
      const r = childResult<AggregateChildReport>(run, "aggregate");
      rows.push({ r, wall: run.seconds, timeRss: run.timeRssBytes });
      const timeRss = run.timeRssBytes === undefined ? "" : ` (GNU time: ${fmt(run.timeRssBytes / MB, 0)} MB)`;
      console.log(
        `  ${int(r.judgments)} judgments (${int(r.passages)} passages, ${int(r.annotators)} annotators), ${LABEL[model]}: fit ${fmt(r.seconds, 3)} s (CPU ${fmt(r.cpuSeconds, 2)} s)` +
          `${r.iterations ? `, ${r.iterations} iterations` : ""}; RSS ${fmt(r.rssBeforeMB, 0)} MB before, ${fmt(r.rssAfterMB, 0)} MB after, peak ${fmt(r.peakRssMB, 0)} MB${timeRss}; accuracy ${fmt(r.accuracy * 100, 1)}%`,
      );
    }
  }
  console.log(
    "\n| judgments | passages | annotators | model | iterations | fit s (CPU s) | RSS before fit MB | RSS after fit MB | peak RSS MB | accuracy |",
  );
  console.log("|--:|--:|--:|---|--:|--:|--:|--:|--:|--:|");
  for (const { r } of rows) {
    console.log(
      `| ${int(r.judgments)} | ${int(r.passages)} | ${int(r.annotators)} | ${LABEL[r.model]} | ${r.iterations || "–"} | ${fmt(r.seconds, 3)} (${fmt(r.cpuSeconds, 2)}) | ${fmt(r.rssBeforeMB, 0)} | ${fmt(r.rssAfterMB, 0)} | ${fmt(r.peakRssMB, 0)} | ${fmt(r.accuracy * 100, 1)}% |`,
    );
  }
  const big = rows.filter(({ r }) => r.judgments === Math.max(...rows.map((x) => x.r.judgments)));
  const mv = big.find(({ r }) => r.model === "majority")?.r;
  const ds = big.find(({ r }) => r.model === "dawid-skene")?.r;
  if (mv && ds)
    console.log(
      `\naggregate: Dawid–Skene fits ${int(ds.judgments)} judgments in ${fmt(ds.seconds, 2)} s, CPU ${fmt(ds.cpuSeconds, 2)} s (${ds.iterations} iterations; majority vote ${fmt(mv.seconds, 2)} s, CPU ${fmt(mv.cpuSeconds, 2)} s), peak RSS ${fmt(ds.peakRssMB, 0)} MB; accuracy ${fmt(ds.accuracy * 100, 1)}% (majority ${fmt(mv.accuracy * 100, 1)}%)`,
    );
  console.log(`load average at the end: ${loadAverage()}`);
});

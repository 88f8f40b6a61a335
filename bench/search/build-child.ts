// Child process of bench/search/run.ts: one engine's build of every stale page, in a process of its
// own so that its peak RSS is the build's. The loop is index-build.ts's (chunks of INDEX_CHUNK_PAGES
// pages until none is left), without the lease. `finalSeconds`: the last call, which finds no stale
// page and (LanceDB) builds or optimizes the BM25 index.
//
//   node --import tsx bench/search/build-child.ts --url URL --engine gin|rum|lance|lance-one --dir DIR
import { parseArgs } from "node:util";
import { openDatabase } from "@/db/client";
import { INDEX_CHUNK_PAGES } from "@/lib/knowledge/index-sql";
import { benchEngine, ENGINES, type BenchEngine } from "./engines";

const { values } = parseArgs({ options: { url: { type: "string" }, engine: { type: "string" }, dir: { type: "string" } } });
const name = values.engine as BenchEngine;
if (!values.url || !values.dir || !ENGINES.includes(name)) throw new Error(`usage: --url URL --engine ${ENGINES.join("|")} --dir DIR`);

const handle = await openDatabase({ url: values.url });
const engine = benchEngine(name, values.dir);
const t0 = performance.now();
let pages = 0;
let lastPrint = t0;
let lastCall = 0;
for (;;) {
  const c0 = performance.now();
  const n = await engine.indexStaleChunk(handle.db, INDEX_CHUNK_PAGES);
  lastCall = (performance.now() - c0) / 1000;
  if (n === 0) break;
  pages += n;
  if (performance.now() - lastPrint > 30_000) {
    lastPrint = performance.now();
    console.log(`  ${name}: ${pages} pages in ${((lastPrint - t0) / 1000).toFixed(0)} s`);
  }
}
const seconds = (performance.now() - t0) / 1000;
await handle.close();
process.stdout.write(
  `KPS_BENCH_RESULT ${JSON.stringify({ pages, seconds, finalSeconds: lastCall, maxRssKiB: process.resourceUsage().maxRSS })}\n`,
);

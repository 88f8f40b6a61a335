// Child process of bench/search/run.ts: one engine's build of every stale page, in a process of its
// own so that its peak RSS is the build's. The loop is index-build.ts's (`indexStale`: chunks of
// INDEX_CHUNK_PAGES pages until none is left, as many at once as the engine runs), without the lease.
// `finalSeconds`: the last call to end, which finds no stale page and (LanceDB) builds or optimizes
// the BM25 index.
//
//   node --import tsx bench/search/build-child.ts --url URL --engine gin|rum|lance|lance-glibc|lance-here|lance-one --dir DIR
import { parseArgs } from "node:util";
import { openDatabase } from "@/db/client";
import type { KnowledgeEngine } from "@/lib/knowledge/engine";
import { largestIndexChildKiB } from "@/lib/knowledge/engines/lance-store";
import { indexStale } from "@/lib/knowledge/index-build";
import { benchEngine, ENGINES, type BenchEngine } from "./engines";

const { values } = parseArgs({ options: { url: { type: "string" }, engine: { type: "string" }, dir: { type: "string" } } });
const name = values.engine as BenchEngine;
if (!values.url || !values.dir || !ENGINES.includes(name)) throw new Error(`usage: --url URL --engine ${ENGINES.join("|")} --dir DIR`);

const handle = await openDatabase({ url: values.url });
const engine = benchEngine(name, values.dir);
const t0 = performance.now();
let lastPrint = t0;
let lastCall = 0;
// The engine's chunks timed one by one, through the app's own loop (chunks at once where the engine allows).
const timedEngine: KnowledgeEngine = {
  ...engine,
  async indexStaleChunk(db, limit) {
    const c0 = performance.now();
    const n = await engine.indexStaleChunk(db, limit);
    lastCall = (performance.now() - c0) / 1000;
    return n;
  },
};
const workers = engine.chunkWorkers(handle.db);
const pages = await indexStale(handle.db, timedEngine, {
  onChunk: async (done) => {
    if (performance.now() - lastPrint <= 30_000) return;
    lastPrint = performance.now();
    console.log(`  ${name}: ${done} pages in ${((lastPrint - t0) / 1000).toFixed(0)} s`);
  },
});
const seconds = (performance.now() - t0) / 1000;
await handle.close();
process.stdout.write(
  `KPS_BENCH_RESULT ${JSON.stringify({ pages, seconds, finalSeconds: lastCall, workers, maxRssKiB: process.resourceUsage().maxRSS, indexChildMaxRssKiB: largestIndexChildKiB() })}\n`,
);

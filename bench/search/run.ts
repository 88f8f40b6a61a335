// Knowledge-search benchmark: every engine side by side on the same synthetic knowledge source
// (bench/import/synthetic.ts) at growing sizes — build time, index size, the build's peak RSS, title
// and text query latencies — and an extrapolation to the whole KILT source.
//
//   tsx bench/search/run.ts [--paragraphs 1000000,5000000] [--engines gin,rum,lance,lance-glibc,lance-here,lance-one] [--postgres-max 5000000]
//                           [--queries 100] [--seed 1]
//
// One throwaway PostgreSQL database kps_bench_search_<random> on DATABASE_URL's server (or the local
// one); the pages grow from one size to the next. Per size and engine: every page is marked stale,
// the engine builds in a child process (bench/search/build-child.ts), then the queries run here. See
// bench/search/README.md. Prints figures; asserts nothing.
import fs from "node:fs";
import path from "node:path";
import os from "node:os";
import { sql } from "drizzle-orm";
import { copyTextArray, copyValue, openCopyStream } from "@/db/bulk";
import { type Db } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { system } from "@/lib/auth/actor";
import { searchKnowledge, textSearch } from "@/lib/knowledge/search";
import { syntheticPage } from "../import/synthetic";
import {
  benchChild,
  benchOptions,
  benchWorkspace,
  childResult,
  createBenchDatabase,
  fmt,
  int,
  loadAverage,
  machineLine,
  runMain,
  stringOptions,
  timedRun,
} from "../common";
import { withMallocArenas } from "@/server/malloc-arenas.mjs";
import { benchEngine, ENGINES, isLance, type BenchEngine } from "./engines";
import { benchQueries, timeEach, type Latency } from "./queries";
import { extrapolate, printResults, type EngineResult } from "./report";

/** Indexed paragraphs per synthetic page (2,473,894 for 100,000 pages in the earlier full run). */
const PARAGRAPHS_PER_PAGE = 24.74;
const CHILD = benchChild("search", "build-child.ts");

/** Loads pages from..to-1 of the synthetic source into `pages` with COPY; returns the bytes of paragraph text. */
async function loadPages(db: Db, from: number, to: number, seed: number): Promise<number> {
  const copy = await openCopyStream(db, "pages", ["wikipedia_id", "title", "paragraphs"]);
  let bytes = 0;
  for (let i = from; i < to; i++) {
    const p = syntheticPage(seed, i);
    for (const t of p.text) bytes += Buffer.byteLength(t);
    await copy.writeRow([copyValue(p.wikipedia_id), copyValue(p.wikipedia_title), copyTextArray(p.text)]);
  }
  await copy.end();
  return bytes;
}

async function markBuilt(db: Db): Promise<void> {
  await db.execute(sql`insert into app_meta (key, value) values ('knowledge_index', jsonb_build_object('builtAt', now()::text, 'lease', null))
    on conflict (key) do update set value = excluded.value`);
}

/** User + system CPU seconds of a child run under GNU time -v (NaN without it): on a shared machine, the build's own work. */
function cpuOf(stderr: string): number {
  const user = /User time \(seconds\): ([\d.]+)/.exec(stderr);
  const system = /System time \(seconds\): ([\d.]+)/.exec(stderr);
  return user && system ? Number(user[1]) + Number(system[1]) : NaN;
}

/**
 * The build's environment: two malloc arenas, as the app's server and its index children run
 * (server/malloc-arenas.mjs), unless the environment sets them; for `lance-glibc`, glibc's default
 * (8 per core on 64 bits), which the index children inherit.
 */
function buildEnv(name: BenchEngine): NodeJS.ProcessEnv {
  if (name === "lance-glibc") return { ...process.env, MALLOC_ARENA_MAX: String(8 * os.availableParallelism()) };
  return withMallocArenas(process.env);
}

async function measureEngine(
  db: Db,
  url: string,
  name: BenchEngine,
  dir: string,
  queries: ReturnType<typeof benchQueries>,
): Promise<Omit<EngineResult, "pages" | "textBytes">> {
  fs.rmSync(dir, { recursive: true, force: true });
  await db.execute(sql`truncate paragraph_index`);
  await db.execute(sql`update pages set indexed_at = null where indexed_at is not null`);
  await db.execute(sql`drop index if exists paragraph_index_document_rum_idx`);
  const load = loadAverage();
  const run = await timedRun(process.execPath, ["--import", "tsx", CHILD, "--url", url, "--engine", name, "--dir", dir], {
    env: buildEnv(name),
  });
  const built = childResult<{
    pages: number;
    seconds: number;
    finalSeconds: number;
    workers: number;
    maxRssKiB: number;
    indexChildMaxRssKiB: number;
  }>(run, `${name} build`);
  if (!isLance(name)) await db.execute(sql`vacuum analyze paragraph_index`);
  await markBuilt(db);
  const engine = benchEngine(name, dir);
  const figures = await engine.figures(db);
  console.log(
    `  ${name}: built in ${fmt(built.seconds)} s (${built.workers} chunk${built.workers === 1 ? "" : "s"} at once), ${int(figures.paragraphs)} paragraphs, ${fmt((figures.bytes ?? 0) / 1e6)} MB; ` +
      `peak RSS ${fmt((built.maxRssKiB * 1024) / 1e6, 0)} MB in the build's process` +
      (built.indexChildMaxRssKiB ? ` + ${fmt((built.indexChildMaxRssKiB * 1024) / 1e6, 0)} MB in its largest index child` : ""),
  );
  const rank = (q: string) => engine.rank(db, q, 20).then((r) => r.length);
  const search = async (q: string) => (await textSearch(db, engine, q, 20)).length;
  const latency: Record<string, Latency> = {
    "rank 2-term": await timeEach(queries.twoTerm, rank),
    "rank 5-term": await timeEach(queries.fiveTerm, rank),
    "search 2-term": await timeEach(queries.twoTerm, search),
    "search 5-term": await timeEach(queries.fiveTerm, search),
  };
  return {
    engine: name,
    paragraphs: figures.paragraphs,
    indexBytes: figures.bytes ?? 0,
    buildSeconds: built.seconds,
    finalSeconds: built.finalSeconds,
    // The build's process and (LanceDB) its largest index-building child, added: an upper bound of the two at once.
    peakRssBytes: (built.maxRssKiB + built.indexChildMaxRssKiB) * 1024,
    cpuSeconds: cpuOf(run.stderr),
    latency,
    loadAtBuild: load,
  };
}

async function main(): Promise<void> {
  const o = benchOptions(
    "usage: tsx bench/search/run.ts [--paragraphs 1000000,5000000] [--engines gin,rum,lance,lance-glibc,lance-here,lance-one] [--postgres-max 5000000] [--queries 100] [--seed 1]",
    stringOptions({
      paragraphs: "1000000,5000000",
      engines: "gin,rum,lance,lance-one",
      "postgres-max": "5000000",
      queries: "100",
      seed: "1",
    }),
  );
  const engines = o.engines.split(",") as BenchEngine[];
  for (const e of engines) if (!ENGINES.includes(e)) throw new Error(`--engines: '${e}' is not one of ${ENGINES.join(", ")}`);
  const sizes = o.paragraphs
    .split(",")
    .map(Number)
    .sort((a, b) => a - b);
  const seed = Number(o.seed);
  console.log(machineLine());
  const ws = benchWorkspace("kps_bench_search", "kps-bench-search-");
  const results: EngineResult[] = [];
  try {
    const db = (await createBenchDatabase(ws)).db;
    await migrateDatabase(ws.bench!);
    let loaded = 0;
    let textBytes = 0;
    for (const target of sizes) {
      const pages = Math.ceil(target / PARAGRAPHS_PER_PAGE);
      const t0 = performance.now();
      textBytes += await loadPages(db, loaded, pages, seed);
      await db.execute(sql`analyze pages`);
      console.log(`${int(pages)} pages (${fmt(textBytes / 1e6)} MB of text) loaded in ${fmt((performance.now() - t0) / 1000)} s`);
      loaded = pages;
      const queries = benchQueries(pages, seed, Number(o.queries));
      const title = await timeEach(
        queries.title,
        async (q) => (await searchKnowledge(db, system, { q, mode: "title", limit: 20 })).results.length,
      );
      for (const name of engines) {
        if (!isLance(name) && target > Number(o["postgres-max"])) {
          console.log(`  ${name}: not run at ${int(target)} paragraphs (--postgres-max ${o["postgres-max"]})`);
          continue;
        }
        const r = await measureEngine(db, ws.benchUrl, name, path.join(ws.tmp, `${name}-${target}`), queries);
        results.push({ ...r, pages, textBytes, latency: { title: title, ...r.latency } });
        console.log(`  RESULT ${JSON.stringify(results.at(-1))}`);
      }
    }
  } finally {
    await ws.cleanup();
  }
  printResults(results);
  extrapolate(results);
  console.log(`load average at the end: ${loadAverage()} (2 cores shared with other work: it skews every figure)`);
}

runMain(main);

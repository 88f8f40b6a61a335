// Knowledge-search benchmark: the text index build (time, size) and the query latencies of title
// and text search, at 10k and 100k pages of the synthetic knowledge source (bench/import/synthetic.ts).
//
//   tsx bench/search/run.ts [--pages 10000,100000] [--database postgres|pglite|both] [--pglite-max 10000]
//                           [--queries 300] [--seed 1]
//
// PostgreSQL: DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres; one throwaway database
// kps_bench_search_<random> per size, created, migrated and dropped. PGlite: in a temporary directory.
// See bench/search/README.md. Prints figures; asserts nothing.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { copyTextArray, copyValue, openCopyStream } from "@/db/bulk";
import { openDatabase, rowsOf, type DatabaseHandle, type Db } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { system } from "@/lib/auth/actor";
import { buildIndex } from "@/lib/knowledge/index-build";
import { rankParagraphs } from "@/lib/knowledge/retrieve";
import { searchKnowledge } from "@/lib/knowledge/search";
import { syntheticPage } from "../import/synthetic";
import { fmt, int, runMain, throwawayDatabase } from "../common";

const MB = 1024 * 1024;

interface Result {
  database: string;
  pages: number;
  paragraphs: number;
  textMB: number;
  buildSeconds: number;
  sizes: Record<string, number>;
  latency: Record<string, { p50: number; p95: number; max: number; results: number }>;
}

/** Loads pages 0..n-1 of the synthetic source into `pages` with COPY; returns the bytes of paragraph text. */
async function loadPages(db: Db, n: number, seed: number): Promise<number> {
  const copy = await openCopyStream(db, "pages", ["wikipedia_id", "title", "paragraphs"]);
  let bytes = 0;
  for (let i = 0; i < n; i++) {
    const p = syntheticPage(seed, i);
    for (const t of p.text) bytes += Buffer.byteLength(t);
    await copy.writeRow([copyValue(p.wikipedia_id), copyValue(p.wikipedia_title), copyTextArray(p.text)]);
  }
  await copy.end();
  return bytes;
}

/** Title queries (prefixes of 1–3 words or 3–8 letters of real titles) and question-like text queries from real paragraphs. */
function queriesOf(pages: number, seed: number, count: number): { title: string[]; text: string[] } {
  let s = seed * 7919;
  const rand = () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  const title: string[] = [];
  const text: string[] = [];
  for (let i = 0; i < count; i++) {
    const p = syntheticPage(seed, Math.floor(rand() * pages));
    const t = p.wikipedia_title;
    title.push(
      i % 2
        ? t.slice(0, 3 + Math.floor(rand() * 6))
        : t
            .split(" ")
            .slice(0, 1 + Math.floor(rand() * 2))
            .join(" "),
    );
    const paras = p.text.slice(1).filter((x) => !x.startsWith("Section::::") && !x.startsWith("BULLET"));
    const words = (paras[Math.floor(rand() * paras.length)] ?? t).replace(/[.,"]/g, "").trim().split(/\s+/);
    const start = Math.floor(rand() * Math.max(1, words.length - 8));
    text.push(`${["what", "when", "who", "where", "which"][i % 5]} ${words.slice(start, start + 4 + Math.floor(rand() * 5)).join(" ")}?`);
  }
  return { title, text };
}

async function timeEach(
  queries: string[],
  run: (q: string) => Promise<number>,
): Promise<{ p50: number; p95: number; max: number; results: number }> {
  const ms: number[] = [];
  let results = 0;
  for (const q of queries) {
    const t0 = performance.now();
    results += await run(q);
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  const at = (f: number) => ms[Math.min(ms.length - 1, Math.floor(f * ms.length))]!;
  return { p50: at(0.5), p95: at(0.95), max: ms[ms.length - 1]!, results: results / queries.length };
}

async function sizes(db: Db): Promise<Record<string, number>> {
  const [row] = rowsOf<Record<string, string>>(
    await db.execute(sql`select pg_total_relation_size('paragraph_index') as index_total, pg_relation_size('paragraph_index') as index_heap,
      pg_relation_size('paragraph_index_document_idx') as gin, pg_relation_size('paragraph_index_wikipedia_id_paragraph_id_pk') as pkey,
      pg_relation_size('pages_title_folded_idx') as title_btree, pg_total_relation_size('pages') as pages_total`),
  );
  return Object.fromEntries(Object.entries(row!).map(([k, v]) => [k, Number(v) / MB]));
}

async function runOne(handle: DatabaseHandle, database: string, pages: number, opts: { seed: number; queries: number }): Promise<Result> {
  const db = handle.db;
  const t0 = performance.now();
  const textBytes = await loadPages(db, pages, opts.seed);
  console.log(
    `${database} ${int(pages)} pages: loaded in ${fmt((performance.now() - t0) / 1000)} s (${fmt(textBytes / MB)} MB of text); building the index…`,
  );
  const b0 = performance.now();
  const status = await buildIndex(db, system, 0);
  const buildSeconds = (performance.now() - b0) / 1000;
  console.log(`  built in ${fmt(buildSeconds)} s: ${int(status.paragraphs)} paragraphs`);
  await db.execute(sql`vacuum analyze paragraph_index`);
  await db.execute(sql`analyze pages`);
  const q = queriesOf(pages, opts.seed, opts.queries);
  const latency = {
    "title search (limit 20)": await timeEach(
      q.title,
      async (x) => (await searchKnowledge(db, system, { q: x, mode: "title", limit: 20 })).results.length,
    ),
    "text search (limit 20, snippets)": await timeEach(
      q.text,
      async (x) => (await searchKnowledge(db, system, { q: x, mode: "text", limit: 20 })).results.length,
    ),
    "rankParagraphs (k 4)": await timeEach(q.text, async (x) => (await rankParagraphs(db, x, 4)).length),
  };
  return { database, pages, paragraphs: status.paragraphs, textMB: textBytes / MB, buildSeconds, sizes: await sizes(db), latency };
}

function print(r: Result): void {
  console.log(`\n## ${r.database}, ${int(r.pages)} pages (${int(r.paragraphs)} indexed paragraphs, ${fmt(r.textMB)} MB of text)`);
  console.log(
    `build: ${fmt(r.buildSeconds)} s (${int(Math.round(r.pages / r.buildSeconds))} pages/s, ${int(Math.round(r.paragraphs / r.buildSeconds))} paragraphs/s)`,
  );
  console.log(
    `sizes (MB): ${Object.entries(r.sizes)
      .map(([k, v]) => `${k} ${fmt(v)}`)
      .join(", ")}`,
  );
  console.log("| query | p50 ms | p95 ms | max ms | results/query |\n|---|---|---|---|---|");
  for (const [k, v] of Object.entries(r.latency))
    console.log(`| ${k} | ${fmt(v.p50)} | ${fmt(v.p95)} | ${fmt(v.max)} | ${fmt(v.results)} |`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      pages: { type: "string", default: "10000,100000" },
      database: { type: "string", default: "both" },
      "pglite-max": { type: "string", default: "10000" },
      queries: { type: "string", default: "300" },
      seed: { type: "string", default: "1" },
    },
  });
  const sizesToRun = values.pages.split(",").map(Number);
  const opts = { seed: Number(values.seed), queries: Number(values.queries) };
  const baseUrl = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
  const results: Result[] = [];
  for (const pages of sizesToRun) {
    if (values.database !== "pglite") results.push(await onPostgres(baseUrl, pages, opts));
    if (values.database !== "postgres" && pages <= Number(values["pglite-max"])) results.push(await onPglite(pages, opts));
  }
  results.forEach(print);
  console.log(`\n${JSON.stringify(results)}`);
}

async function onPostgres(baseUrl: string, pages: number, opts: { seed: number; queries: number }): Promise<Result> {
  const { benchDb, benchUrl } = throwawayDatabase(baseUrl, "kps_bench_search");
  const admin = await openDatabase({ url: baseUrl });
  await admin.db.execute(sql.raw(`create database "${benchDb}"`));
  const bench = await openDatabase({ url: benchUrl });
  try {
    await migrateDatabase(bench);
    const [v] = rowsOf<{ v: string }>(await bench.db.execute(sql`select current_setting('server_version') as v`));
    return await runOne(bench, `PostgreSQL ${v!.v}`, pages, opts);
  } finally {
    await bench.close();
    await admin.db.execute(sql.raw(`drop database if exists "${benchDb}" with (force)`));
    await admin.close();
  }
}

async function onPglite(pages: number, opts: { seed: number; queries: number }): Promise<Result> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kps-bench-search-"));
  const handle = await openDatabase({ dataDir: dir });
  try {
    await migrateDatabase(handle);
    return await runOne(handle, "PGlite (temp dir)", pages, opts);
  } finally {
    await handle.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

runMain(main);

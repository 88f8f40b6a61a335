// Text-retrieval benchmark: the batch import's `--retrieve text` ranking for 10,000 questions on a
// text index of 1M paragraphs of the synthetic knowledge source (bench/import/synthetic.ts), batched
// (rankParagraphsMany, as textCandidates calls it) against one by one (rankParagraphs), in one run.
//
//   tsx bench/retrieve/run.ts [--engine gin|rum|lance] [--paragraphs 1000000] [--questions 10000] [--sample 200]
//                             [--batch 128] [--k 4] [--seed 1] [--url postgres://…/db] [--keep]
//
// The engine (bench/search/engines.ts): PostgreSQL's GIN (the default) or RUM, or LanceDB in the
// run's temporary directory. Pages live in PostgreSQL (DATABASE_URL's server): a throwaway database kps_bench_retrieve_<random>, loaded
// with COPY and indexed with buildIndex, dropped at the end unless --keep. With --url, an existing
// database whose index is built is used as it is (no load, no build), so a kept one can be measured
// again. One by one on all the questions would take too long: a sample of --sample questions (spread
// over the set) is timed one by one and batched, and the one-by-one time of all is that sample's
// scaled; the output says so. See bench/retrieve/README.md. Prints figures; asserts nothing.
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { copyTextArray, copyValue, openCopyStream } from "@/db/bulk";
import { openDatabase, rowsOf, type Db } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { system } from "@/lib/auth/actor";
import type { KnowledgeEngine } from "@/lib/knowledge/engine";
import { buildIndex, indexBuilt } from "@/lib/knowledge/index-build";
import { rankParagraphs, rankParagraphsMany, type RankedParagraph } from "@/lib/knowledge/retrieve";
import { benchEngine, ENGINES, type BenchEngine } from "../search/engines";
import { syntheticPage } from "../import/synthetic";
import { benchWorkspace, createBenchDatabase, fmt, int, integerOption, loadAverage, machineLine, runMain, serverVersion } from "../common";

/** The paragraphs the text index holds of a page: neither paragraph 0 (the title line) nor a section header. */
const indexed = (text: string[]) => text.slice(1).filter((t) => !t.startsWith("Section::::")).length;

/** Loads synthetic pages until they hold `paragraphs` indexable paragraphs; returns how many pages. */
async function loadPages(db: Db, paragraphs: number, seed: number): Promise<number> {
  const copy = await openCopyStream(db, "pages", ["wikipedia_id", "title", "paragraphs"]);
  let held = 0;
  let n = 0;
  while (held < paragraphs) {
    const p = syntheticPage(seed, n++);
    held += indexed(p.text);
    await copy.writeRow([copyValue(p.wikipedia_id), copyValue(p.wikipedia_title), copyTextArray(p.text)]);
  }
  await copy.end();
  return n;
}

/** Question-like texts: a question word and 4–8 consecutive words of a random paragraph of a random page. */
function questionsOf(pages: number, seed: number, count: number): string[] {
  let s = seed * 104729;
  const rand = () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  return Array.from({ length: count }, (_, i) => {
    const p = syntheticPage(seed, Math.floor(rand() * pages));
    const paras = p.text.slice(1).filter((x) => !x.startsWith("Section::::") && !x.startsWith("BULLET"));
    const words = (paras[Math.floor(rand() * paras.length)] ?? p.wikipedia_title).replace(/[.,"]/g, "").trim().split(/\s+/);
    const start = Math.floor(rand() * Math.max(1, words.length - 8));
    return `${["what", "when", "who", "where", "which"][i % 5]} ${words.slice(start, start + 4 + Math.floor(rand() * 5)).join(" ")}?`;
  });
}

/** Ranks `texts` as textCandidates does: rankParagraphsMany on `batch` questions at a time, progress on stderr. */
async function batched(
  db: Db,
  engine: KnowledgeEngine,
  texts: string[],
  k: number,
  batch: number,
): Promise<{ seconds: number; results: RankedParagraph[][] }> {
  const t0 = performance.now();
  const results: RankedParagraph[][] = [];
  for (let i = 0; i < texts.length; i += batch) {
    results.push(...(await rankParagraphsMany(db, texts.slice(i, i + batch), k, engine)));
    process.stderr.write(`\rranked ${int(results.length)} of ${int(texts.length)} questions (batched)`);
  }
  process.stderr.write("\n");
  return { seconds: (performance.now() - t0) / 1000, results };
}

async function oneByOne(
  db: Db,
  engine: KnowledgeEngine,
  texts: string[],
  k: number,
): Promise<{ seconds: number; results: RankedParagraph[][] }> {
  const t0 = performance.now();
  const results: RankedParagraph[][] = [];
  for (const t of texts) {
    results.push(await rankParagraphs(db, t, k, engine));
    process.stderr.write(`\rranked ${int(results.length)} of ${int(texts.length)} questions (one by one)`);
  }
  process.stderr.write("\n");
  return { seconds: (performance.now() - t0) / 1000, results };
}

/** Builds the index on a fresh database when it has none; returns the pages and the indexed paragraphs. */
async function prepare(db: Db, engine: KnowledgeEngine, paragraphs: number, seed: number): Promise<{ pages: number; paragraphs: number }> {
  if (!(await indexBuilt(db, engine))) {
    const t0 = performance.now();
    const pages = await loadPages(db, paragraphs, seed);
    console.log(`loaded ${int(pages)} pages in ${fmt((performance.now() - t0) / 1000)} s; building the index…`);
    const b0 = performance.now();
    const status = await buildIndex(db, system, 0, { engine });
    console.log(`index built in ${fmt((performance.now() - b0) / 1000)} s: ${int(status.paragraphs)} paragraphs`);
    await db.execute(sql`vacuum analyze paragraph_index`);
    await db.execute(sql`analyze pages`);
  }
  const [row] = rowsOf<{ pages: string }>(await db.execute(sql`select count(*) as pages from pages`));
  return { pages: Number(row!.pages), paragraphs: (await engine.figures(db)).paragraphs };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      engine: { type: "string", default: "gin" },
      paragraphs: { type: "string", default: "1000000" },
      questions: { type: "string", default: "10000" },
      sample: { type: "string", default: "200" },
      batch: { type: "string", default: "128" },
      k: { type: "string", default: "4" },
      seed: { type: "string", default: "1" },
      url: { type: "string" },
      keep: { type: "boolean", default: false },
    },
  });
  const count = integerOption("--questions", values.questions, 1);
  const sampleSize = Math.min(count, integerOption("--sample", values.sample, 1));
  const batch = integerOption("--batch", values.batch, 1);
  const k = integerOption("--k", values.k, 1);
  const seed = integerOption("--seed", values.seed, 0);
  const engineName = values.engine as BenchEngine;
  if (!ENGINES.includes(engineName)) throw new Error(`--engine must be one of ${ENGINES.join(", ")}, got ${values.engine}`);
  if (engineName === "lance" && values.url)
    throw new Error("--engine lance builds its index in the run's own directory: it cannot reuse --url");
  console.log(machineLine());
  const ws = benchWorkspace("kps_bench_retrieve", "kps-bench-retrieve-");
  const engine = benchEngine(engineName, ws.tmp);
  try {
    const handle = values.url ? await openDatabase({ url: values.url }) : await createBenchDatabase(ws);
    if (values.url) ws.bench = handle;
    else await migrateDatabase(handle);
    if (values.keep && ws.created) {
      ws.created = false;
      console.log(`keeping the database: ${ws.benchUrl}`);
    }
    const db = handle.db;
    const size = await prepare(db, engine, integerOption("--paragraphs", values.paragraphs, 1), seed);
    console.log(
      `PostgreSQL ${await serverVersion(db)}, engine ${engineName} (${(await engine.figures(db)).method}): ${int(size.pages)} pages, ${int(size.paragraphs)} indexed paragraphs`,
    );
    const texts = questionsOf(size.pages, seed, count);
    const step = count / sampleSize;
    const sample = Array.from({ length: sampleSize }, (_, i) => texts[Math.floor(i * step)]!);
    console.log(`load average before: ${loadAverage()}`);
    const sampleBatched = await batched(db, engine, sample, k, batch);
    const sampleOne = await oneByOne(db, engine, sample, k);
    const same = JSON.stringify(sampleOne.results) === JSON.stringify(sampleBatched.results);
    const scaled = (sampleOne.seconds * count) / sampleSize;
    console.log(
      `sample of ${sampleSize}: one by one ${fmt(sampleOne.seconds)} s, batched ${fmt(sampleBatched.seconds)} s; load average ${loadAverage()}`,
    );
    const all = await batched(db, engine, texts, k, batch);
    const sameInAll = sample.every((_, i) => JSON.stringify(all.results[Math.floor(i * step)]) === JSON.stringify(sampleOne.results[i]));
    console.log(
      `\n## ${int(count)} questions, k ${k}, ${int(size.paragraphs)} paragraphs, engine ${engineName} (batches of ${batch}; the PostgreSQL engine runs 4 statements at once)`,
    );
    console.log("| run | questions | seconds | ms/question | questions/s |\n|---|---|---|---|---|");
    const line = (name: string, n: number, s: number) =>
      console.log(`| ${name} | ${int(n)} | ${fmt(s)} | ${fmt((s * 1000) / n)} | ${fmt(n / s)} |`);
    line("one by one, sample", sampleSize, sampleOne.seconds);
    line("batched, same sample", sampleSize, sampleBatched.seconds);
    line("batched, all", count, all.seconds);
    line(`one by one, all: scaled from the sample (×${fmt(count / sampleSize)}), not run`, count, scaled);
    console.log(
      `speed-up: ${fmt(sampleOne.seconds / sampleBatched.seconds, 2)}× on the sample, ${fmt(scaled / all.seconds, 2)}× on all (scaled)`,
    );
    console.log(`results equal to one by one: ${same ? "yes" : "NO"} on the sample batched alone, ${sameInAll ? "yes" : "NO"} within all`);
    console.log(`load average at the end: ${loadAverage()} (other work on the machine skews the figures)`);
  } finally {
    await ws.cleanup();
  }
}

runMain(main);

// Knowledge-source import benchmark: the app's import path against psql \copy.
//
//   tsx bench/import/run.ts [--pages 100000] [--database postgres|pglite|both] [--seed 1]
//                           [--sample 100] [--gzip] [--no-parse-pass] [--cpu-prof]
//                           [--toast-compression lz4] [--pglite-shared-buffers 16MB]
//
// See bench/README.md. PostgreSQL is always needed (the psql baseline runs on it): DATABASE_URL or
// postgres://postgres@127.0.0.1:5432/postgres. A throwaway database kps_bench_<random> is created,
// migrated and dropped; PGlite lives in a temporary directory.
import { randomInt } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { openDatabase, rowsOf, type Db } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import type { ChildReport } from "./import-child";
import { postgresCpuSeconds } from "./proc";
import { FIRST_WIKIPEDIA_ID, syntheticPage, writeKnowledgeFile } from "./synthetic";
import {
  benchChild,
  benchWorkspace,
  createBenchDatabase,
  benchOptions,
  bundleChild,
  childResult,
  databaseTargets,
  type ResultRow,
  flagOptions,
  fmt,
  machineLine,
  printLoadAtEnd,
  printNotes,
  printTable,
  psqlConnection,
  REPO,
  runMain,
  serverVersion,
  stringOptions,
  timedRun,
} from "../common";

const CHILD = benchChild("import", "import-child.ts");
const MB = 1e6;

interface Row extends ResultRow {
  database: string;
  pages: number;
}

// ---------------------------------------------------------------------------------------------

function parseOptions() {
  const values = benchOptions(
    "usage: tsx bench/import/run.ts [--pages 100000] [--database postgres|pglite|both] [--seed 1] [--sample 100] [--gzip] [--no-parse-pass] [--cpu-prof] [--toast-compression lz4] [--pglite-shared-buffers 16MB]",
    {
      ...stringOptions({ pages: "100000", database: "both", seed: "1", sample: "100" }),
      ...flagOptions("gzip", "no-parse-pass", "cpu-prof"),
      "toast-compression": { type: "string" },
      "pglite-shared-buffers": { type: "string" },
    },
  );
  const pages = Number(values.pages);
  const seed = Number(values.seed);
  const sample = Number(values.sample);
  if (!Number.isInteger(pages) || pages < 1) throw new Error(`--pages must be a positive integer, not '${values.pages}'`);
  if (!Number.isInteger(seed)) throw new Error(`--seed must be an integer, not '${values.seed}'`);
  if (!Number.isInteger(sample) || sample < 0) throw new Error(`--sample must be a non-negative integer, not '${values.sample}'`);
  const targets = databaseTargets(values.database);
  const toastCompression = values["toast-compression"];
  if (toastCompression !== undefined && toastCompression !== "lz4" && toastCompression !== "pglz")
    throw new Error(`--toast-compression must be lz4 or pglz, not '${toastCompression}'`);
  const sharedBuffers = values["pglite-shared-buffers"];
  if (sharedBuffers !== undefined && !/^\d+(kB|MB|GB)$/.test(sharedBuffers))
    throw new Error(`--pglite-shared-buffers must look like 16MB, not '${sharedBuffers}'`);
  return {
    pages,
    seed,
    sample,
    targets,
    gzip: values.gzip,
    parsePass: !values["no-parse-pass"],
    cpuProf: values["cpu-prof"],
    /** Not the product's defaults: experiments with settings an operator could change. */
    toastCompression,
    sharedBuffers,
  };
}

/** The child's node arguments: the bundle when there is one, else the TypeScript file under tsx. */
function childArgs(bundle: string | undefined, extra: string[], cpuProfDir?: string): string[] {
  return [
    ...(cpuProfDir ? ["--cpu-prof", "--cpu-prof-dir", cpuProfDir] : []),
    ...(bundle ? [bundle] : ["--import", "tsx", CHILD]),
    ...extra,
  ];
}

// ---------------------------------------------------------------------------------------------
// Correctness: the count, and a sample of pages regenerated from the seed.

function sampleIndexes(pages: number, size: number, seed: number): number[] {
  const chosen = new Set<number>();
  if (size >= pages) {
    for (let i = 0; i < pages; i++) chosen.add(i);
    return [...chosen];
  }
  // Make sure the awkward pages are in: some with a character outside the BMP, one with a backslash.
  const want = [
    { test: (t: string) => /[\u{10000}-\u{10FFFF}]/u.test(t), left: Math.min(5, Math.ceil(size / 20)) },
    { test: (t: string) => t.includes("\\"), left: 1 },
  ];
  for (
    let i = randomInt(pages), scanned = 0;
    scanned < Math.min(pages, 5000) && want.some((w) => w.left > 0);
    scanned++, i = (i + 1) % pages
  ) {
    const text = syntheticPage(seed, i).text.join("");
    for (const w of want) {
      if (w.left > 0 && w.test(text)) {
        chosen.add(i);
        w.left--;
        break;
      }
    }
  }
  while (chosen.size < size) chosen.add(randomInt(pages));
  return [...chosen];
}

async function verify(db: Db, table: string, pages: number, indexes: number[], seed: number): Promise<{ ok: boolean; message: string }> {
  const [count] = rowsOf<{ n: number }>(await db.execute(sql.raw(`select count(*)::int as n from ${table}`)));
  const problems: string[] = [];
  if (count?.n !== pages) problems.push(`count(*) is ${count?.n}, expected ${pages}`);
  const ids = indexes.map((i) => String(FIRST_WIKIPEDIA_ID + i));
  const stored = new Map<string, { title: string; paragraphs: string[] }>();
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const rows = rowsOf<{ wikipedia_id: string; title: string; paragraphs: string[] }>(
      await db.execute(
        sql`select wikipedia_id, title, paragraphs from ${sql.raw(table)} where wikipedia_id in (${sql.join(
          chunk.map((id) => sql`${id}`),
          sql`, `,
        )})`,
      ),
    );
    for (const r of rows) stored.set(r.wikipedia_id, r);
  }
  let equal = 0;
  let astral = 0;
  for (const i of indexes) {
    const expected = syntheticPage(seed, i);
    const got = stored.get(expected.wikipedia_id);
    if (/[\u{10000}-\u{10FFFF}]/u.test(expected.text.join(""))) astral++;
    if (!got) {
      problems.push(`page ${expected.wikipedia_id} is missing`);
      continue;
    }
    const same =
      got.title === expected.wikipedia_title &&
      got.paragraphs.length === expected.text.length &&
      got.paragraphs.every((p, k) => p === expected.text[k]);
    if (same) equal++;
    else {
      const k = got.paragraphs.findIndex((p, k) => p !== expected.text[k]);
      problems.push(
        `page ${expected.wikipedia_id} differs (title ${got.title === expected.wikipedia_title ? "equal" : "differs"}, ${got.paragraphs.length}/${expected.text.length} paragraphs, first difference at [${k}])`,
      );
    }
  }
  const compression = rowsOf<{ method: string | null; n: number }>(
    await db.execute(
      sql.raw(`select pg_column_compression(paragraphs) as method, count(*)::int as n from ${table} group by 1 order by 2 desc`),
    ),
  );
  const methods = compression.map((c) => `${c.method ?? "uncompressed"} ${c.n}`).join(", ");
  const message = `count(*) = ${count?.n} (expected ${pages}); sample: ${equal}/${indexes.length} pages equal to the generated ones (${astral} with a character outside the BMP); paragraphs stored: ${methods}`;
  return problems.length ? { ok: false, message: `${message}\n    FAILED: ${problems.slice(0, 5).join("; ")}` } : { ok: true, message };
}

// ---------------------------------------------------------------------------------------------

/** A memory sample of the child (ChildReport.peaks / .opened) as one line, in MB. */
function memoryLine(m: Record<string, number>): string {
  const mb = (k: string) => fmt((m[k] ?? 0) / MB, 0);
  return `RSS ${mb("rss")} MB = WebAssembly memory ${mb("wasm")} + other anonymous ${mb("anon")} (V8 heap ${mb("heapTotal")}, array buffers ${mb("arrayBuffers")}) + mapped files ${mb("files")}`;
}

function printRows(rows: Row[]) {
  const header = ["database", "pages", "MB", "seconds", "pages/s", "MB/s", "peak RSS MB", "app/psql (speed)"];
  const lines = rows.map((r) => [
    r.database,
    r.pages.toLocaleString("en-US"),
    fmt(r.bytes / MB),
    fmt(r.seconds),
    fmt(r.pages / r.seconds, 0),
    fmt(r.bytes / MB / r.seconds),
    r.peakRssBytes === undefined ? "?" : fmt(r.peakRssBytes / MB, 0),
    r.ratio === undefined ? "1.00 (reference)" : fmt(r.ratio, 2),
  ]);
  printTable(header, lines);
}

async function main() {
  const opts = parseOptions();
  const ws = benchWorkspace("kps_bench", "kps-bench-");
  const { benchDb, benchUrl, tmp, cleanup } = ws;
  const cpuProfDir = opts.cpuProf ? path.join(REPO, "bench", "out", "cpu-prof") : undefined;
  if (cpuProfDir) fs.mkdirSync(cpuProfDir, { recursive: true });
  const bundle = await bundleChild(CHILD, "import-child.mjs", "the import child");

  const rows: Row[] = [];
  const verdicts: string[] = [];
  const notes: string[] = [];
  let allOk = true;
  try {
    console.log(`KILT knowledge-source import benchmark — ${opts.pages.toLocaleString("en-US")} pages, seed ${opts.seed}`);
    console.log(`import child: ${bundle ? `${path.relative(REPO, bundle)} (bundled with esbuild), on plain node` : "under tsx"}`);
    console.log(machineLine());

    // 1. The file, once (and the same rows as a COPY text file for the baseline; not timed).
    const file = path.join(tmp, opts.gzip ? "knowledge.jsonl.gz" : "knowledge.jsonl");
    const copyFile = path.join(tmp, "pages.copy");
    const t = performance.now();
    const written = await writeKnowledgeFile({ pages: opts.pages, out: file, seed: opts.seed, gzip: opts.gzip, copyOut: copyFile });
    console.log(
      `generated ${path.basename(file)}: ${fmt(written.bytes / MB)} MB${opts.gzip ? ` (${fmt(written.jsonlBytes / MB)} MB of JSONL)` : ""}, ` +
        `and ${path.basename(copyFile)} (COPY text format): ${fmt((written.copyBytes ?? 0) / MB)} MB, in ${fmt((performance.now() - t) / 1000)} s (not timed)`,
    );

    // 2. The throwaway PostgreSQL database.
    let bench = await createBenchDatabase(ws);
    await migrateDatabase(bench);
    if (opts.toastCompression) {
      // A database-level setting: new sessions (the import's and psql's) compress TOAST with it.
      await bench.db.execute(sql.raw(`alter database "${benchDb}" set default_toast_compression = '${opts.toastCompression}'`));
      await bench.close();
      bench = ws.bench = await openDatabase({ url: benchUrl });
    }
    console.log(
      `PostgreSQL: ${bench.location} (created and migrated)${opts.toastCompression ? `; EXPERIMENT: default_toast_compression = ${opts.toastCompression} for this database` : ""}`,
    );
    const version = await serverVersion(bench.db);
    const indexes = sampleIndexes(opts.pages, opts.sample, opts.seed);

    // 3. Baseline: psql \copy of the same rows into a plain table (the psql run only is timed).
    await bench.db.execute(sql.raw(`create table bench_pages_plain (wikipedia_id text primary key, title text, paragraphs text[])`));
    await bench.db.execute(sql.raw(`checkpoint`));
    const psqlConn = psqlConnection(benchUrl, benchDb);
    const server0 = postgresCpuSeconds();
    const psql = await timedRun(
      "psql",
      [...psqlConn.args, "-c", `\\copy bench_pages_plain (wikipedia_id, title, paragraphs) from '${copyFile}'`],
      { env: psqlConn.env },
    );
    await new Promise((resolve) => setTimeout(resolve, 500)); // let the postmaster reap the backend
    const server1 = postgresCpuSeconds();
    const baseline: Row = {
      database: `PostgreSQL ${version ?? ""} — psql \\copy (baseline)${opts.toastCompression ? ` (${opts.toastCompression})` : ""}`,
      pages: opts.pages,
      bytes: written.bytes,
      seconds: psql.seconds,
      peakRssBytes: psql.timeRssBytes,
      notes: [
        `psql \\copy of a ${fmt((written.copyBytes ?? 0) / MB)} MB COPY file into a plain table (text primary key, title, text[]); only the psql run is timed (converting JSONL to COPY is not); MB/s uses the JSONL file's size, like the app rows`,
        server0 !== undefined && server1 !== undefined ? `server CPU ${fmt(server1 - server0)} s` : "",
      ],
    };
    let check = await verify(bench.db, "bench_pages_plain", opts.pages, indexes, opts.seed);
    allOk &&= check.ok;
    verdicts.push(`psql baseline (bench_pages_plain): ${check.ok ? "OK" : "FAILED"} — ${check.message}`);
    await bench.db.execute(sql.raw(`drop table bench_pages_plain`));

    // 4. The app's import, in a child process per database.
    const appRows: Row[] = [];
    for (const target of opts.targets) {
      const where = target === "postgres" ? ["--url", benchUrl] : ["--data-dir", path.join(tmp, "pglite")];
      if (target === "pglite") {
        const pg = await openDatabase({ dataDir: path.join(tmp, "pglite") });
        await migrateDatabase(pg);
        if (opts.sharedBuffers) await pg.db.execute(sql.raw(`alter system set shared_buffers = '${opts.sharedBuffers}'`));
        await pg.close();
      }
      // The memory floor: the same process opening the database and running one query.
      const floor = await timedRun(process.execPath, childArgs(bundle, [...where, "--open-only"]));
      const floorTsx = bundle ? await timedRun(process.execPath, childArgs(undefined, [...where, "--open-only"])) : undefined;
      const floorReport = childResult<ChildReport>(floor, "import");
      const floorBytes = floor.timeRssBytes ?? floorReport.maxRssKiB * 1024;
      if (target === "postgres") await bench.db.execute(sql.raw(`checkpoint`));
      const run = await timedRun(process.execPath, childArgs(bundle, ["--file", file, ...where], cpuProfDir));
      const r = childResult<ChildReport>(run, "import");
      const peak = run.timeRssBytes ?? r.maxRssKiB * 1024;
      const row: Row = {
        database:
          target === "postgres"
            ? `PostgreSQL ${version ?? ""} — app importKnowledge${opts.toastCompression ? ` (${opts.toastCompression})` : ""}`
            : `PGlite (temp dir) — app importKnowledge${opts.sharedBuffers ? ` (shared_buffers ${opts.sharedBuffers})` : ""}`,
        pages: r.pages,
        bytes: written.bytes,
        seconds: r.seconds,
        peakRssBytes: peak,
        notes: [
          `read + validate + COPY into staging ${fmt(r.stageSeconds ?? 0)} s, then duplicate check + upsert into pages + drop staging ${fmt(r.seconds - (r.stageSeconds ?? 0))} s`,
          `import process CPU ${fmt(r.cpuSeconds)} s` +
            (r.serverCpuSeconds !== undefined ? `, server CPU ${fmt(r.serverCpuSeconds)} s` : ""),
          `peak RSS ${run.timeRssBytes !== undefined ? `${fmt(run.timeRssBytes / MB, 0)} MB from /usr/bin/time -v, ` : ""}${fmt((r.maxRssKiB * 1024) / MB, 0)} MB from the child's own resourceUsage().maxRSS` +
            ` (${fmt(((r.stageMaxRssKiB ?? 0) * 1024) / MB, 0)} MB by the end of the staging COPY); floor — the same process only opening the database: ${fmt(floorBytes / MB, 0)} MB`,
          r.stageMemory
            ? `memory at the end of the staging COPY: V8 heap ${fmt(r.stageMemory.heapTotal / MB, 0)} MB, array buffers (incl. a WebAssembly memory) ${fmt(r.stageMemory.arrayBuffers / MB, 0)} MB, other external ${fmt((r.stageMemory.external - r.stageMemory.arrayBuffers) / MB, 0)} MB, RSS ${fmt(r.stageMemory.rss / MB, 0)} MB`
            : "",
          floorTsx
            ? `the same floor with the child run under tsx (as before the bundle): ${fmt((floorTsx.timeRssBytes ?? childResult<ChildReport>(floorTsx, "import").maxRssKiB * 1024) / MB, 0)} MB`
            : "",
          floorReport.opened ? `floor's resident memory once open: ${memoryLine(floorReport.opened)}` : "",
          r.peaks ? `highest during the import (sampled every 2 s): ${memoryLine(r.peaks)}` : "",
          `child process wall time incl. start-up ${fmt(run.seconds)} s`,
        ],
      };
      appRows.push(row);
      if (target === "postgres") {
        check = await verify(bench.db, "pages", opts.pages, indexes, opts.seed);
      } else {
        const pg = await openDatabase({ dataDir: path.join(tmp, "pglite") });
        try {
          check = await verify(pg.db, "pages", opts.pages, indexes, opts.seed);
        } finally {
          await pg.close();
        }
      }
      allOk &&= check.ok;
      verdicts.push(`${target} app import (pages): ${check.ok ? "OK" : "FAILED"} — ${check.message}`);
    }
    for (const row of appRows) row.ratio = row.pages / row.seconds / (baseline.pages / baseline.seconds);
    rows.push(...appRows, baseline);

    // 5. The import's JavaScript side alone, without a database.
    if (opts.parsePass) {
      const run = await timedRun(process.execPath, childArgs(bundle, ["--file", file, "--parse-only"]));
      const r = childResult<ChildReport>(run, "import");
      notes.push(
        `JS side alone (readLines + JSON.parse + zod + COPY escaping, no database): ${fmt(r.seconds)} s, ${fmt(r.pages / r.seconds, 0)} pages/s, ${fmt(r.bytes / MB / r.seconds)} MB/s, CPU ${fmt(r.cpuSeconds)} s`,
      );
    }

    // 6. Report.
    console.log("");
    printRows(rows);
    console.log("");
    printNotes(rows, (r) => r.database);
    for (const n of notes) console.log(n);
    if (opts.targets.includes("pglite"))
      console.log(
        "The pglite row's ratio compares with psql \\copy on the PostgreSQL server: the server's reference speed (psql cannot reach PGlite).",
      );
    console.log("");
    console.log(
      `targets: peak RSS < 300 MB: ${appRows.map((r) => `${r.database.split(" ")[0]} ${r.peakRssBytes === undefined ? "?" : fmt(r.peakRssBytes / MB, 0)} MB ${(r.peakRssBytes ?? Infinity) < 300 * MB ? "met" : "NOT met"}`).join(", ")}`,
    );
    console.log(
      `         app speed ≥ 0.5 × psql \\copy: ${appRows.map((r) => `${r.database.split(" ")[0]} ${fmt(r.ratio ?? 0, 2)} ${(r.ratio ?? 0) >= 0.5 ? "met" : "NOT met"}`).join(", ")}`,
    );
    console.log("");
    printLoadAtEnd();
    console.log("correctness:");
    for (const v of verdicts) console.log(`  ${v}`);
    if (opts.pages < 100_000) console.log(`\n(--pages ${opts.pages}: the targets are stated for 100,000 pages)`);
  } finally {
    await cleanup();
  }
  if (!allOk) process.exit(1);
}

runMain(main);

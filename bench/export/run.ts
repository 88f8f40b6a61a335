// Export benchmark: the KILT provenance export and the judgments export of a campaign of N
// judgments, each in a child process (own peak RSS), against psql `COPY (SELECT …) TO STDOUT` of
// the same judgment rows on the same server.
//
//   tsx bench/export/run.ts [--judgments 1000000] [--database postgres|pglite|both]
//                           [--pglite-judgments 100000] [--annotators 300] [--cpu-prof] [--no-diagnostics]
//
// See bench/README.md. Needs a PostgreSQL server whose user may create databases (DATABASE_URL,
// else postgres://postgres@127.0.0.1:5432/postgres) and psql. A throwaway database
// kps_bench_export_<random> is created, filled in SQL, and dropped at the end (also on Ctrl-C);
// output files live in a temporary directory that is removed.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { openDatabase, rowsOf, type DatabaseHandle } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { judgmentLinesSelect } from "@/lib/campaign/report/export-judgments";
import { JUDGMENT_COLUMNS, JUDGMENT_JOINS } from "@/test/judgment-lines-reference";
import { postgresCpuSeconds } from "../import/proc";
import { summarizeCpuProfile } from "./cpu-profile";
import type { ChildReport } from "./export-child";
import { buildCampaign, type BuiltCampaign } from "./synthetic";
import { countLines, verifyJudgmentsFile, verifyKiltFile, type Verdict } from "./verify";
import {
  benchChild,
  benchWorkspace,
  createBenchDatabase,
  benchOptions,
  childResult,
  databaseTargets,
  type ResultRow,
  fmt,
  int,
  integerOption,
  machineLine,
  printLoadAtEnd,
  printNotes,
  printTable,
  psqlConnection,
  runMain,
  serverVersion,
  timedRun,
  type Timed,
  stringOptions,
  flagOptions,
} from "../common";

const CHILD = benchChild("export", "export-child.ts");
const MB = 1e6;
const RSS_TARGET_MB = 300;
const RATIO_TARGET = 2;

type Target = "postgres" | "pglite";

interface Row extends ResultRow {
  label: string;
  lines: number;
}

function parseOptions() {
  const values = benchOptions(
    "usage: tsx bench/export/run.ts [--judgments 1000000] [--database postgres|pglite|both] [--pglite-judgments 100000] [--annotators 300] [--cpu-prof] [--no-diagnostics]",
    {
      ...stringOptions({ judgments: "1000000", database: "postgres", "pglite-judgments": "100000", annotators: "300" }),
      ...flagOptions("cpu-prof", "no-diagnostics"),
    },
  );
  const targets: Target[] = databaseTargets(values.database);
  return {
    judgments: integerOption("judgments", values.judgments, 9),
    pgliteJudgments: integerOption("pglite-judgments", values["pglite-judgments"], 9),
    annotators: integerOption("annotators", values.annotators, 3),
    targets,
    cpuProf: values["cpu-prof"],
    diagnostics: !values["no-diagnostics"],
  };
}

async function runChild(args: string[], cpuProfDir?: string): Promise<{ run: Timed; r: ChildReport; peak: number; profile?: string }> {
  const before = cpuProfDir ? new Set(fs.readdirSync(cpuProfDir)) : undefined;
  const run = await timedRun(process.execPath, [
    ...(cpuProfDir ? ["--cpu-prof", "--cpu-prof-dir", cpuProfDir] : []),
    "--import",
    "tsx",
    CHILD,
    ...args,
  ]);
  const r = childResult<ChildReport>(run, "export");
  const profile = cpuProfDir ? fs.readdirSync(cpuProfDir).find((f) => !before!.has(f)) : undefined;
  return { run, r, peak: run.timeRssBytes ?? r.maxRssKiB * 1024, profile: profile ? path.join(cpuProfDir!, profile) : undefined };
}

// ---------------------------------------------------------------------------------------------
// The baseline: the judgment rows with the judgments export's columns, in the export's order.
// `counted` (first R judgments of the passage by annotators in good standing) as a window function.

function baselineSelect(campaignId: number): string {
  return `select ${JUDGMENT_COLUMNS},
       coalesce(s.status, 'active') = 'active'
         and count(*) filter (where coalesce(s.status, 'active') = 'active') over earlier < c.judgments_per_passage as counted,
       j.batch_id, j.duration_ms, j.created_at
${JUDGMENT_JOINS}
where j.campaign_id = ${campaignId}
window earlier as (partition by j.passage_id order by j.created_at, j.id rows between unbounded preceding and 1 preceding)
order by j.id`;
}

/**
 * The app's own statement (`judgmentLinesSelect`, lib/campaign/report/export-judgments.ts), SQL
 * text with its values inline: without `page`, one statement for all rows; with it, one page of
 * ids as the app runs it (in its COPY).
 */
function appSelect(campaignId: number, page?: { after: number; upTo: number }): string {
  return judgmentLinesSelect(campaignId, page ?? {});
}

// ---------------------------------------------------------------------------------------------

function printRows(rows: Row[]) {
  const header = ["export", "lines", "MB", "seconds", "MB/s", "lines/s", "peak RSS MB", "time ÷ psql COPY"];
  const lines = rows.map((r) => [
    r.label,
    int(r.lines),
    fmt(r.bytes / MB),
    fmt(r.seconds, 2),
    fmt(r.bytes / MB / r.seconds),
    int(Math.round(r.lines / r.seconds)),
    r.peakRssBytes === undefined ? "?" : fmt(r.peakRssBytes / MB, 0),
    r.ratio === undefined ? "1.00 (reference)" : fmt(r.ratio, 2),
  ]);
  printTable(header, lines);
}

function sqlNotes(r: ChildReport): string {
  if (!r.sql) return "";
  const total = Object.values(r.sql).reduce((n, s) => n + s.seconds, 0);
  const parts = Object.entries(r.sql)
    .sort((a, b) => b[1].seconds - a[1].seconds)
    .map(([k, s]) => `${k} ${fmt(s.seconds, 2)} s (${int(s.calls)} calls, ${int(s.rows)} rows)`);
  return `awaiting SQL (round trip + driver decoding) ${fmt(total, 2)} s = ${fmt((100 * total) / r.seconds, 0)}% [${parts.join("; ")}]; the rest, ${fmt(r.seconds - total, 2)} s, is JavaScript (building lines, streaming, writing)`;
}

function memoryNotes(r: ChildReport, floorBytes: number, run: Timed): string {
  const m = r.maxMemory;
  return (
    `peak RSS ${run.timeRssBytes !== undefined ? `${fmt(run.timeRssBytes / MB, 0)} MB (/usr/bin/time -v), ` : ""}${fmt((r.maxRssKiB * 1024) / MB, 0)} MB (resourceUsage().maxRSS); ` +
    `floor (same process, open + one query) ${fmt(floorBytes / MB, 0)} MB` +
    (m
      ? `; highest sampled: V8 heap used ${fmt(m.heapUsed / MB, 0)} MB of ${fmt(m.heapTotal / MB, 0)} MB, external ${fmt(m.external / MB, 0)} MB (array buffers ${fmt(m.arrayBuffers / MB, 0)} MB)`
      : "")
  );
}

interface ExplainJson {
  Plan: { "Total Cost": number };
  "Planning Time": number;
  "Execution Time": number;
  JIT?: { Functions?: number; Timing?: { Total?: number } };
}

interface Outcome {
  rows: Row[];
  verdicts: [string, Verdict][];
  notes: string[];
  targets: string[];
  allOk: boolean;
}

async function measure(
  target: Target,
  where: string[],
  built: BuiltCampaign,
  tmp: string,
  opts: ReturnType<typeof parseOptions>,
  baseline: (file: string) => Promise<Row>,
  diagnostics: (() => Promise<{ rows: Row[]; notes: string[] }>) | undefined,
  verifyDb: () => Promise<DatabaseHandle>,
  checkpoint: () => Promise<void>,
): Promise<Outcome> {
  const cpuProfDir = opts.cpuProf ? path.join(os.tmpdir(), "kps-bench-export-cpu-prof") : undefined; // kept after the run
  if (cpuProfDir) fs.mkdirSync(cpuProfDir, { recursive: true });
  const name = target === "postgres" ? "PostgreSQL" : "PGlite";
  const notes: string[] = [];
  const floor = await runChild(["--kind", "open-only", ...where]);

  // Baseline first, then the two app exports (each after a CHECKPOINT: none pays for another's writes).
  await checkpoint();
  const baselineFile = path.join(tmp, `${target}-baseline.copy`);
  const base = await baseline(baselineFile);

  await checkpoint();
  const judgmentsFile = path.join(tmp, `${target}-judgments.jsonl`);
  const j = await runChild(["--kind", "judgments", "--campaign", String(built.campaignId), "--out", judgmentsFile, ...where], cpuProfDir);
  await checkpoint();
  const kiltFile = path.join(tmp, `${target}-kilt.jsonl`);
  const k = await runChild(["--kind", "kilt", "--campaign", String(built.campaignId), "--out", kiltFile, ...where], cpuProfDir);

  const appRow = (label: string, c: typeof j): Row => ({
    label,
    lines: c.r.lines,
    bytes: c.r.bytes,
    seconds: c.r.seconds,
    peakRssBytes: c.peak,
    ratio: c.r.seconds / base.seconds,
    notes: [
      sqlNotes(c.r),
      `CPU: export process ${fmt(c.r.cpuSeconds)} s` +
        (c.r.serverCpuSeconds !== undefined ? `, PostgreSQL server ${fmt(c.r.serverCpuSeconds)} s (all postgres processes)` : ""),
      memoryNotes(c.r, floor.peak, c.run),
      c.r.report
        ? `report: ${int(c.r.report.queries)} questions, ${int(c.r.report.queriesExported)} exported, ${int(c.r.report.passagesEndorsed)} passages endorsed, ${int(c.r.report.unanswerable)} unanswerable, ${int(c.r.report.withoutEndorsement)} without endorsement`
        : "",
      `child wall time incl. Node start-up and opening the database ${fmt(c.run.seconds)} s`,
      c.profile ? `CPU profile ${c.profile}:\n      ${summarizeCpuProfile(c.profile).join("\n      ")}` : "",
    ],
  });
  const judgmentsRow = appRow(`${name} — app exportJudgments`, j);
  const kiltRow = appRow(`${name} — app exportKilt (span)`, k);
  kiltRow.notes.push(
    `ratio vs the judgment-rows baseline, for reference only: the KILT export writes ${int(k.r.lines)} question lines, not the judgment rows`,
  );
  const rows = [judgmentsRow, kiltRow, base];
  if (diagnostics) {
    const d = await diagnostics();
    rows.push(...d.rows.map((r) => ({ ...r, ratio: r.seconds / base.seconds })));
    notes.push(...d.notes);
  }

  // Verification (not timed).
  const verdicts: [string, Verdict][] = [];
  const handle = await verifyDb();
  try {
    verdicts.push([`${name} KILT file`, await verifyKiltFile(handle.db, kiltFile, built, k.r.report)]);
    verdicts.push([`${name} judgments file`, await verifyJudgmentsFile(handle.db, judgmentsFile, built)]);
  } finally {
    await handle.close();
  }
  const baseLines = await countLines(baselineFile);
  verdicts.push([
    `${name} baseline file`,
    baseLines === built.judgments
      ? { ok: true, message: `${int(baseLines)} rows` }
      : { ok: false, message: `${int(baseLines)} rows, expected ${int(built.judgments)}` },
  ]);
  for (const f of [baselineFile, judgmentsFile, kiltFile]) fs.rmSync(f, { force: true });

  const rssOk = (r: Row) => (r.peakRssBytes ?? Infinity) < RSS_TARGET_MB * MB;
  const targets = [
    `${name}, ${int(built.judgments)} judgments: peak RSS < ${RSS_TARGET_MB} MB — exportJudgments ${fmt((judgmentsRow.peakRssBytes ?? 0) / MB, 0)} MB ${rssOk(judgmentsRow) ? "met" : "NOT met"}, ` +
      `exportKilt ${fmt((kiltRow.peakRssBytes ?? 0) / MB, 0)} MB ${rssOk(kiltRow) ? "met" : "NOT met"}`,
    `${name}, ${int(built.judgments)} judgments: exportJudgments ≤ ${RATIO_TARGET}× ${base.label.split(" — ")[1]} — ${fmt(judgmentsRow.ratio!, 2)}× ${judgmentsRow.ratio! <= RATIO_TARGET ? "met" : "NOT met"}` +
      ` (exportKilt, for reference: ${fmt(kiltRow.ratio!, 2)}×)`,
  ];
  return { rows, verdicts, notes, targets, allOk: verdicts.every(([, v]) => v.ok) };
}

function printBuild(name: string, built: BuiltCampaign, seconds: number) {
  console.log(
    `${name}: built in ${fmt(seconds)} s (not measured): ${int(built.judgments)} judgments, ${int(built.passages)} passages, ${int(built.questions)} questions, ` +
      `${int(built.pages)} pages, ${int(built.annotators)} annotators; ${int(built.expected.passagesEndorsedTotal)} passages endorsed ` +
      `(${fmt((100 * built.expected.passagesEndorsedTotal) / built.passages, 0)}%), ${int(built.expected.unanswerable)} questions unanswerable, ` +
      `${int(built.expected.withoutEndorsement)} without endorsement, ${int(built.expected.sufficientJudgments)} sufficient judgments`,
  );
  console.log(`  steps: ${built.steps.map(([s, t]) => `${s} ${fmt(t)} s`).join(", ")}`);
  console.log(
    `  stored: ${Object.entries(built.sizes)
      .map(([t, b]) => `${t} ${fmt(b / MB, 0)} MB`)
      .join(", ")}`,
  );
}

async function main() {
  const opts = parseOptions();
  const ws = benchWorkspace("kps_bench_export", "kps-bench-export-");
  const { baseUrl, benchDb, benchUrl, tmp, cleanup } = ws;

  const outcomes: Outcome[] = [];
  try {
    console.log(
      `KILT export benchmark — ${opts.targets.map((t) => `${t} ${int(t === "postgres" ? opts.judgments : opts.pgliteJudgments)} judgments`).join(", ")}`,
    );
    console.log(machineLine());

    ws.admin = await openDatabase({ url: baseUrl });
    const psql = psqlConnection(benchUrl, benchDb);

    if (opts.targets.includes("postgres")) {
      const bench = await createBenchDatabase(ws);
      await migrateDatabase(bench);
      const pg = `PostgreSQL ${(await serverVersion(bench.db)) ?? ""}`.trim();
      console.log(`${pg}: ${bench.location} (created and migrated)`);
      const t0 = performance.now();
      const built = await buildCampaign(bench.db, { judgments: opts.judgments, annotators: opts.annotators });
      printBuild(pg, built, (performance.now() - t0) / 1000);
      const b = bench;
      const checkpoint = async () => {
        await b.db.execute(sql.raw(`checkpoint`));
      };
      const psqlCopy = async (label: string, select: string, file: string): Promise<Row> => {
        const s0 = postgresCpuSeconds();
        const run = await timedRun("psql", [...psql.args, "-c", `copy (${select}) to stdout`], { env: psql.env, stdoutFile: file });
        await new Promise((resolve) => setTimeout(resolve, 300)); // let the postmaster reap the backend
        const s1 = postgresCpuSeconds();
        const lines = await countLines(file);
        return {
          label,
          lines,
          bytes: fs.statSync(file).size,
          seconds: run.seconds,
          peakRssBytes: run.timeRssBytes,
          notes: [`psql spawn to exit; COPY text format` + (s0 !== undefined && s1 !== undefined ? `; server CPU ${fmt(s1 - s0)} s` : "")],
        };
      };
      const outcome = await measure(
        "postgres",
        ["--url", benchUrl],
        built,
        tmp,
        opts,
        (file) => psqlCopy(`${pg} — psql COPY (SELECT …) TO STDOUT (baseline)`, baselineSelect(built.campaignId), file),
        opts.diagnostics
          ? async () => {
              const rows: Row[] = [];
              const notes: string[] = [];
              // 1. The app's statement, unpaged, through psql: what the SQL costs without paging and JavaScript.
              const file = path.join(tmp, "postgres-app-sql.copy");
              await checkpoint();
              rows.push(
                await psqlCopy(`${pg} — psql COPY of the app's judgments SQL, unpaged (diagnostic)`, appSelect(built.campaignId), file),
              );
              fs.rmSync(file, { force: true });
              // 2. One page of the app's statement, as the export runs it (EXPLAIN ANALYZE, twice: the second is reported).
              const mid = Math.floor(built.judgments / 2);
              let plan: ExplainJson | undefined;
              for (let i = 0; i < 2; i++) {
                const [r] = rowsOf<{ "QUERY PLAN": ExplainJson[] }>(
                  await b.db.execute(
                    sql.raw(`explain (analyze, format json) ${appSelect(built.campaignId, { after: mid, upTo: mid + 20000 })}`),
                  ),
                );
                plan = r?.["QUERY PLAN"]?.[0];
              }
              const [jit] = rowsOf<{ jit: string; cost: string }>(
                await b.db.execute(sql.raw(`select current_setting('jit') as jit, current_setting('jit_above_cost') as cost`)),
              );
              if (plan) {
                const jitMs = plan.JIT?.Timing?.Total;
                notes.push(
                  `one page of exportJudgments' statement (EXPLAIN ANALYZE, ids ${int(mid)} + 1 … 20,000): planning ${fmt(plan["Planning Time"], 1)} ms, ` +
                    `execution ${fmt(plan["Execution Time"], 1)} ms` +
                    (jitMs !== undefined
                      ? `, of which JIT compilation ${fmt(jitMs, 1)} ms (${plan.JIT?.Functions ?? "?"} functions; estimated cost ${fmt(plan.Plan["Total Cost"], 0)} > jit_above_cost ${jit?.cost})`
                      : `, no JIT (jit = ${jit?.jit})`) +
                    `; the export runs this statement ${int(Math.ceil(built.judgments / 20000))} times`,
                );
              }
              // 3. EXPERIMENT: the same app export with JIT off for the database (a setting, not a code change).
              await b.db.execute(sql.raw(`alter database "${benchDb}" set jit = off`));
              try {
                await checkpoint();
                const out = path.join(tmp, "postgres-judgments-jit-off.jsonl");
                const c = await runChild(["--kind", "judgments", "--campaign", String(built.campaignId), "--out", out, "--url", benchUrl]);
                const lines = await countLines(out);
                fs.rmSync(out, { force: true });
                rows.push({
                  label: `${pg} — app exportJudgments, jit = off (experiment)`,
                  lines: c.r.lines,
                  bytes: c.r.bytes,
                  seconds: c.r.seconds,
                  peakRssBytes: c.peak,
                  notes: [
                    `EXPERIMENT: ALTER DATABASE … SET jit = off, then the same child; ${int(lines)} lines written${lines === built.judgments ? "" : ` (EXPECTED ${int(built.judgments)})`}`,
                    sqlNotes(c.r),
                    `CPU: export process ${fmt(c.r.cpuSeconds)} s` +
                      (c.r.serverCpuSeconds !== undefined ? `, PostgreSQL server ${fmt(c.r.serverCpuSeconds)} s` : ""),
                  ],
                });
              } finally {
                await b.db.execute(sql.raw(`alter database "${benchDb}" reset jit`));
              }
              return { rows, notes };
            }
          : undefined,
        () => openDatabase({ url: benchUrl }),
        checkpoint,
      );
      outcomes.push(outcome);
      await bench.close();
      ws.bench = undefined;
      await ws.admin.db.execute(sql.raw(`drop database if exists "${benchDb}" with (force)`));
      ws.created = false;
    }

    if (opts.targets.includes("pglite")) {
      const dataDir = path.join(tmp, "pglite");
      const pgl = await openDatabase({ dataDir });
      let built: BuiltCampaign;
      try {
        await migrateDatabase(pgl);
        const t0 = performance.now();
        built = await buildCampaign(pgl.db, { judgments: opts.pgliteJudgments, annotators: opts.annotators });
        printBuild("PGlite", built, (performance.now() - t0) / 1000);
      } finally {
        await pgl.close();
      }
      const selectFile = path.join(tmp, "baseline.sql");
      fs.writeFileSync(selectFile, baselineSelect(built.campaignId));
      const outcome = await measure(
        "pglite",
        ["--data-dir", dataDir],
        built,
        tmp,
        opts,
        async (file) => {
          const c = await runChild(["--kind", "pglite-copy", "--sql-file", selectFile, "--out", file, "--data-dir", dataDir]);
          return {
            label: "PGlite — COPY (SELECT …) TO '/dev/blob' (baseline)",
            lines: c.r.lines,
            bytes: c.r.bytes,
            seconds: c.r.seconds,
            peakRssBytes: c.peak,
            notes: [
              `PGlite's own COPY of the same SELECT into a Blob, then written to the file (psql cannot reach PGlite); process CPU ${fmt(c.r.cpuSeconds)} s`,
            ],
          };
        },
        undefined,
        () => openDatabase({ dataDir }),
        async () => {},
      );
      outcomes.push(outcome);
    }

    console.log("");
    printRows(outcomes.flatMap((o) => o.rows));
    console.log("");
    printNotes(
      outcomes.flatMap((o) => o.rows),
      (r) => r.label,
    );
    for (const n of outcomes.flatMap((o) => o.notes)) console.log(n);
    console.log("");
    console.log("targets:");
    for (const t of outcomes.flatMap((o) => o.targets)) console.log(`  ${t}`);
    if (opts.targets.includes("postgres") && opts.judgments < 1_000_000)
      console.log(`  (the targets are stated for 1,000,000 judgments on PostgreSQL)`);
    if (opts.targets.includes("pglite"))
      console.log(`  (PGlite ran ${int(opts.pgliteJudgments)} judgments; its baseline is PGlite's own COPY, not psql)`);
    console.log("");
    printLoadAtEnd();
    console.log("correctness:");
    for (const [what, v] of outcomes.flatMap((o) => o.verdicts)) console.log(`  ${what}: ${v.ok ? "OK" : "FAILED"} — ${v.message}`);
  } finally {
    await cleanup();
  }
  if (!outcomes.every((o) => o.allOk)) process.exit(1);
}

runMain(main);

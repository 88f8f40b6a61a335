// Dashboard benchmark: how fast `getDashboard` (lib/campaign/dashboard.ts, read from the tallies the
// triggers keep) answers on a campaign of a million passages, quiet and under a concurrent write
// load, each underlying tally query alone, and the same figures computed naively by scanning
// passages and judgments (the baseline).
//
//   tsx bench/dashboard/run.ts [--database postgres|pglite] [--passages 1000000] [--judged-share 0.6]
//                              [--calls 50] [--warmup 5] [--baseline-calls 10] [--writers 6]
//                              [--write-warmup 3] [--interval-ms 200] [--annotators 300] [--batches 4]
//                              [--keep] [--reuse] [--no-explain]
//
// See bench/dashboard/README.md. PostgreSQL (the default): DATABASE_URL, else
// postgres://postgres@127.0.0.1:5432/postgres, whose user may create databases; the database
// kps_bench_dashboard is dropped and re-created (dropped again at the end unless --keep; --reuse
// keeps one seeded with the same options). PGlite: a temporary data directory, removed at the end.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { sql } from "drizzle-orm";
import { openDatabase, rowsOf, type DatabaseHandle, type Db } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { system } from "@/lib/auth/actor";
import { annotatorRows } from "@/lib/campaign/report/annotator-rows";
import { chartBinMinutes, getDashboard } from "@/lib/campaign/report/dashboard";
import { unfillableSlots } from "@/lib/campaign/report/unfillable-slots";
import { waitingCounts } from "@/lib/campaign/quality/adjudication-waiting";
import type { Dashboard } from "@/lib/campaign/report/dashboard.contract";
import {
  activitySpan,
  annotatorSummaries,
  disputedQuestions,
  judgmentsOverTime,
  passageCells,
  questionCounts,
} from "@/lib/campaign/tallies.internal";
import { medianSecondsFromBuckets } from "@/lib/metrics/durations";
import { percentile } from "../annotate/load";
import { naiveDashboard } from "./naive";
import { seedCampaign, type Seeded, type SeedOptions } from "./seed";
import { startWriters, type WriteLoad, type WriteStats } from "./writers";
import {
  benchChild,
  benchOptions,
  fmt,
  int,
  integerOption,
  loadAverage,
  machineLine,
  printTable,
  REPO,
  runMain,
  serverVersion,
  stringOptions,
  flagOptions,
} from "../common";

const CHILD = benchChild("dashboard", "writer-child.ts");
const BENCH_DB = "kps_bench_dashboard";
const TARGET_MS = 300;
const MB = 1e6;

type Target = "postgres" | "pglite";

function parseOptions() {
  const values = benchOptions(
    "usage: tsx bench/dashboard/run.ts [--database postgres|pglite] [--passages 1000000 (pglite: 200000)] [--judged-share 0.6]\n" +
      "                                  [--calls 50] [--warmup 5] [--baseline-calls 10] [--writers 6 (pglite: 2)] [--write-warmup 3]\n" +
      "                                  [--interval-ms 200] [--annotators 300] [--batches 4] [--keep] [--reuse] [--no-explain]",
    {
      ...stringOptions({
        database: "postgres",
        "judged-share": "0.6",
        calls: "50",
        warmup: "5",
        "baseline-calls": "10",
        "write-warmup": "3",
        "interval-ms": "200",
        annotators: "300",
        batches: "4",
      }),
      ...flagOptions("keep", "reuse", "no-explain"),
      passages: { type: "string" },
      writers: { type: "string" },
    },
  );
  const database = values.database;
  if (database !== "postgres" && database !== "pglite") throw new Error(`--database must be postgres or pglite, not '${database}'`);
  const share = Number(values["judged-share"]);
  if (!(share >= 0 && share <= 1)) throw new Error(`--judged-share must be between 0 and 1, not '${values["judged-share"]}'`);
  const target = database as Target;
  return {
    target,
    passages: integerOption("passages", values.passages ?? (target === "postgres" ? "1000000" : "200000"), 10),
    judgedShare: share,
    calls: integerOption("calls", values.calls, 1),
    warmup: integerOption("warmup", values.warmup, 0),
    baselineCalls: integerOption("baseline-calls", values["baseline-calls"], 1),
    writers: integerOption("writers", values.writers ?? (target === "postgres" ? "6" : "2"), 0),
    writeWarmup: integerOption("write-warmup", values["write-warmup"], 0),
    intervalMs: integerOption("interval-ms", values["interval-ms"], 0),
    annotators: integerOption("annotators", values.annotators, 3),
    batches: integerOption("batches", values.batches, 1),
    keep: values.keep,
    reuse: values.reuse,
    explain: !values["no-explain"],
  };
}
type Options = ReturnType<typeof parseOptions>;

interface Series {
  label: string;
  /** milliseconds, sorted */
  ms: number[];
  note?: string;
}

async function timeCalls(n: number, fn: () => Promise<unknown>): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    ms.push(performance.now() - t0);
  }
  return ms.sort((a, b) => a - b);
}

function printSeries(rows: Series[]) {
  const header = ["measurement", "calls", "p50 ms", "p95 ms", "p99 ms", "max ms"];
  const lines = rows.map((r) => [
    r.label,
    String(r.ms.length),
    ...[50, 95, 99].map((p) => fmt(percentile(r.ms, p))),
    fmt(r.ms[r.ms.length - 1] ?? NaN),
  ]);
  printTable(header, lines);
  for (const r of rows) if (r.note) console.log(`  ${r.label}: ${r.note}`);
}

// ---------------------------------------------------------------------------------------------
// Copies of the tally statements of lib/campaign/tallies.ts (and annotatorRows' people query), for
// EXPLAIN ANALYZE only; the timings above call the app's own functions.

function tallyStatements(campaignId: number, binMinutes: number): [string, string][] {
  const c = campaignId;
  return [
    [
      "passageCells",
      `select batch_id, judgment_count::int as jc, sufficient_count::int as sc, sum(passages)::float8, sum(claimed)::float8, sum(open)::float8, sum(decided)::float8
       from (select batch_id, judgment_count, sufficient_count, passages, claimed, open, decided from passage_tallies where campaign_id = ${c}
             union all select batch_id, judgment_count, sufficient_count, passages, claimed, open, decided from passage_tally_deltas where campaign_id = ${c}) cells
       group by 1, 2, 3 having sum(passages) <> 0 or sum(claimed) <> 0 or sum(open) <> 0`,
    ],
    [
      "annotatorSummaries",
      `select user_id, sum(n)::int as judgments, sum(c)::int as compared, sum(a)::int as agreed, string_agg(bucket || ':' || n, ',') filter (where n <> 0) as buckets
       from (select user_id, duration_bucket::int as bucket, sum(judgments)::int as n, sum(compared)::int as c, sum(agreed)::int as a
             from (select user_id, duration_bucket, judgments, compared, agreed from annotator_tallies where campaign_id = ${c}
                   union all select user_id, duration_bucket, judgments, compared, agreed from annotator_tally_deltas where campaign_id = ${c}) b
             group by 1, 2 having sum(judgments) <> 0 or sum(compared) <> 0) per_bucket
       group by user_id`,
    ],
    [
      "annotatorRows people",
      `select u.id as user_id, u.username, s.status, s.pause_reason, s.gold_judged, s.gold_correct
       from users u left join annotator_standings s on s.campaign_id = ${c} and s.user_id = u.id
       where s.user_id is not null
          or u.id in (select user_id from annotator_tallies where campaign_id = ${c}
                      union select user_id from annotator_tally_deltas where campaign_id = ${c})
       order by u.username`,
    ],
    [
      "questionCounts",
      `select (select count(*)::int from query_tallies where campaign_id = ${c} and gold_missed > 0) as unanswerable,
              (select count(*)::int from query_tallies where campaign_id = ${c} and endorsed > 0) as answered`,
    ],
    [
      "activitySpan",
      `select least((select min(minute) from judgment_minutes where campaign_id = ${c}), (select min(minute) from judgment_minute_deltas where campaign_id = ${c})),
              greatest((select max(minute) from judgment_minutes where campaign_id = ${c}), (select max(minute) from judgment_minute_deltas where campaign_id = ${c})),
              (select coalesce(sum(judgments), 0)::int from (
                 select judgments from judgment_minutes where campaign_id = ${c} and minute >= now() - interval '1 hour'
                 union all select judgments from judgment_minute_deltas where campaign_id = ${c} and minute >= now() - interval '1 hour') r)`,
    ],
    [
      "judgmentsOverTime",
      `select date_bin(make_interval(mins => ${binMinutes}), minute, timestamptz '2000-01-01 00:00:00+00') as at, sum(judgments)::int
       from (${binMinutes % 60 === 0 ? `select hour as minute, judgments from judgment_hours` : `select minute, judgments from judgment_minutes`} where campaign_id = ${c}
             union all select minute, judgments from judgment_minute_deltas where campaign_id = ${c}) m
       group by 1 having sum(judgments) <> 0 order by 1`,
    ],
    [
      "disputedQuestions",
      `select t.query_id, q.kilt_id, q.input, t.passages, t.disputed from query_tallies t join queries q on q.id = t.query_id
       where t.campaign_id = ${c} and t.disputed > 0 order by t.disputed desc, t.query_id limit 20`,
    ],
  ];
}

async function explainAll(db: Db, statements: [string, string][]): Promise<string[]> {
  const out: string[] = [];
  for (const [name, text] of statements) {
    let lines: string[] = [];
    for (let i = 0; i < 2; i++) {
      // Twice: the second run is reported (warm cache, as in the timed calls).
      lines = rowsOf<{ "QUERY PLAN": string }>(await db.execute(sql.raw(`explain (analyze, buffers) ${text}`))).map((r) => r["QUERY PLAN"]);
    }
    const exec = lines.find((l) => l.startsWith("Execution Time"));
    const plan = lines.find((l) => l.startsWith("Planning Time"));
    const top = lines[0]?.trim() ?? "";
    out.push(`  ${name}: ${exec ?? "?"}, ${plan ?? "?"}; top node: ${top.slice(0, 160)}`);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Consistency: the tallies (as the dashboard reads them) against the naive scan.

async function compareWithNaive(db: Db, campaignId: number): Promise<{ ok: boolean; message: string }> {
  const [cells, summaries, questions, disputed, naive] = [
    await passageCells(db, campaignId),
    await annotatorSummaries(db, campaignId),
    await questionCounts(db, campaignId),
    await disputedQuestions(db, campaignId, 20),
    await naiveDashboard(db, campaignId),
  ];
  const problems: string[] = [];
  const key = (c: { batchId: number; judgments: number; sufficient: number }) => `${c.batchId}/${c.judgments}/${c.sufficient}`;
  const cellText = (cs: typeof cells) =>
    cs
      .map((c) => `${key(c)}:${c.passages},${c.claimed},${c.open},${c.decided}`)
      .sort()
      .join(" ");
  if (cellText(cells) !== cellText(naive.cells))
    problems.push(`passage cells differ:\n    tallies ${cellText(cells)}\n    scan    ${cellText(naive.cells)}`);
  if (questions.unanswerable !== naive.questions.unanswerable || questions.answered !== naive.questions.answered) {
    problems.push(`questions differ: tallies ${JSON.stringify(questions)}, scan ${JSON.stringify(naive.questions)}`);
  }
  const dText = (ds: { queryId: number; disputed: number }[]) => ds.map((d) => `${d.queryId}:${d.disputed}`).join(",");
  if (dText(disputed) !== dText(naive.disputed))
    problems.push(`disputed questions differ: tallies ${dText(disputed)}, scan ${dText(naive.disputed)}`);
  // annotatorSummaries: one row per annotator; its judgments, compared and agreed must equal the
  // scan's, and the median from its half-second buckets must lie within the bucket of the exact
  // median (medianSecondsFromBuckets is never off by 0.5 s or more).
  const perUser = new Map(summaries.map((s) => [s.userId, s]));
  let userMismatch = 0;
  let medianMismatch = 0;
  let maxMedianGap = 0;
  for (const a of naive.annotators) {
    const u = perUser.get(a.userId);
    if (!u || u.judgments !== a.judgments || u.compared !== a.compared || u.agreed !== a.agreed) userMismatch++;
    const median = u ? medianSecondsFromBuckets(u.buckets) : null;
    if (median === null) continue;
    const gap = Math.abs(median - a.medianSeconds);
    maxMedianGap = Math.max(maxMedianGap, gap);
    if (gap >= 0.5) medianMismatch++;
  }
  if (userMismatch || perUser.size !== naive.annotators.length || summaries.length !== perUser.size) {
    problems.push(
      `${userMismatch} annotators differ (tallies ${summaries.length} rows for ${perUser.size} annotators, scan ${naive.annotators.length})`,
    );
  }
  if (medianMismatch)
    problems.push(
      `${medianMismatch} annotators' medians from the buckets are 0.5 s or more off the exact median (max gap ${fmt(maxMedianGap, 2)} s)`,
    );
  const total = (await judgmentsOverTime(db, campaignId, naive.activity.binMinutes)).reduce((s, p) => s + p.judgments, 0);
  const naiveTotal = naive.activity.points.reduce((s, p) => s + p.judgments, 0);
  if (total !== naiveTotal) problems.push(`judgments over time differ: tallies ${total}, scan ${naiveTotal}`);
  return problems.length
    ? { ok: false, message: problems.join("; ") }
    : {
        ok: true,
        message:
          `passage cells (${cells.length}), questions (${int(questions.answered)} answered, ${int(questions.unanswerable)} unanswerable), top-20 disputed, ` +
          `${naive.annotators.length} annotators' judgments/compared/agreed (annotatorSummaries, one row each) and ${int(total)} judgments over time all equal; ` +
          `median duration from the half-second buckets within ${fmt(maxMedianGap, 2)} s of the exact median`,
      };
}

// ---------------------------------------------------------------------------------------------
// The write load: a child process on PostgreSQL, in-process on PGlite (one process owns it).

interface RunningLoad {
  mark(): void;
  stop(): Promise<WriteStats & { maxRssKiB?: number }>;
  kill(): void;
}

async function startChildWriters(url: string, campaignId: number, writers: { id: number; username: string }[]): Promise<RunningLoad> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      CHILD,
      "--url",
      url,
      "--campaign",
      String(campaignId),
      "--writers",
      writers.map((w) => `${w.id}:${w.username}`).join(","),
    ],
    { cwd: REPO, stdio: ["pipe", "pipe", "pipe"] },
  );
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const lines = readline.createInterface({ input: child.stdout! });
  let result: string | undefined;
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  await new Promise<void>((resolve, reject) => {
    lines.on("line", (line) => {
      if (line === "ready") resolve();
      if (line.startsWith("KPS_BENCH_RESULT ")) result = line.slice("KPS_BENCH_RESULT ".length);
    });
    void exited.then((code) => reject(new Error(`the writer child exited with ${code}\n${stderr}`)));
  });
  return {
    mark: () => child.stdin!.write("mark\n"),
    async stop() {
      child.stdin!.write("stop\n");
      child.stdin!.end();
      const code = await exited;
      if (code !== 0 || !result) throw new Error(`the writer child exited with ${code}\n${stderr}`);
      return JSON.parse(result) as WriteStats & { maxRssKiB: number };
    },
    kill: () => child.kill("SIGTERM"),
  };
}

function inProcessWriters(db: Db, campaignId: number, writers: { id: number; username: string }[]): RunningLoad {
  const load: WriteLoad = startWriters(db, campaignId, writers);
  return { mark: () => load.mark(), stop: () => load.stop(), kill: () => {} };
}

// ---------------------------------------------------------------------------------------------

async function pendingDeltas(db: Db): Promise<number> {
  const [r] = rowsOf<{ n: number }>(
    await db.execute(
      sql.raw(
        `select ((select count(*) from passage_tally_deltas) + (select count(*) from annotator_tally_deltas) + (select count(*) from judgment_minute_deltas))::int as n`,
      ),
    ),
  );
  return r?.n ?? 0;
}

interface Prepared {
  handle: DatabaseHandle;
  label: string;
  seeded: Seeded;
  seedSeconds: number | null;
  writerUrl?: string;
  cleanup: () => Promise<void>;
}

function seedOptions(opts: Options): SeedOptions {
  return {
    passages: opts.passages,
    judgedShare: opts.judgedShare,
    annotators: opts.annotators,
    batches: opts.batches,
    writers: Math.max(1, opts.writers),
  };
}

function printSeed(label: string, s: Seeded, seconds: number) {
  console.log(
    `${label}: seeded in ${fmt(seconds)} s — ${int(s.passages)} passages, ${int(s.questions)} questions, ${int(s.pages)} pages, ${int(s.judgments)} judgments ` +
      `(${fmt((100 * s.judgments) / (3 * s.passages))}% of ${int(3 * s.passages)} slots), ${int(s.annotators)} annotators + ${s.writerIds.length} writer accounts, ${s.batchIds.length} batches`,
  );
  console.log(`  steps: ${s.steps.map(([n, t]) => `${n} ${fmt(t)} s`).join(", ")}`);
  console.log(
    `  stored: ${Object.entries(s.sizes)
      .map(([t, b]) => `${t} ${fmt(b / MB, b < MB ? 2 : 0)} MB`)
      .join(", ")}`,
  );
}

async function preparePostgres(opts: Options): Promise<Prepared> {
  process.chdir(REPO); // migrations are found from the working directory
  const baseUrl = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
  const u = new URL(baseUrl);
  u.pathname = `/${BENCH_DB}`;
  const url = u.toString();
  const admin = await openDatabase({ url: baseUrl });
  const wanted = JSON.stringify(seedOptions(opts));
  let reused: Seeded | undefined;
  if (opts.reuse) {
    const [exists] = rowsOf<{ n: number }>(
      await admin.db.execute(sql.raw(`select count(*)::int as n from pg_database where datname = '${BENCH_DB}'`)),
    );
    if (exists?.n) {
      const probe = await openDatabase({ url });
      try {
        const [meta] = rowsOf<{ options: string; seeded: Seeded }>(
          await probe.db.execute(sql.raw(`select options, seeded from bench_dashboard_meta limit 1`)).catch(() => []),
        );
        if (meta?.options === wanted) reused = meta.seeded;
      } finally {
        await probe.close();
      }
    }
    if (!reused) console.log(`--reuse: no ${BENCH_DB} seeded with these options; seeding`);
  }
  let handle: DatabaseHandle;
  let seedSeconds: number | null = null;
  let seeded: Seeded;
  if (reused) {
    handle = await openDatabase({ url });
    await migrateDatabase(handle);
    seeded = reused;
    console.log(`reusing ${BENCH_DB} (seeded earlier with the same options; earlier write loads added their judgments)`);
  } else {
    await admin.db.execute(sql.raw(`drop database if exists "${BENCH_DB}" with (force)`));
    await admin.db.execute(sql.raw(`create database "${BENCH_DB}"`));
    handle = await openDatabase({ url });
    await migrateDatabase(handle);
    const t0 = performance.now();
    seeded = await seedCampaign(handle.db, seedOptions(opts));
    seedSeconds = (performance.now() - t0) / 1000;
    await handle.db.execute(sql.raw(`create table bench_dashboard_meta (options text not null, seeded jsonb not null)`));
    await handle.db.execute(sql`insert into bench_dashboard_meta (options, seeded) values (${wanted}, ${JSON.stringify(seeded)}::jsonb)`);
  }
  const [v] = rowsOf<{ v: string; jit: string }>(
    await handle.db.execute(sql.raw(`select split_part(current_setting('server_version'), ' ', 1) as v, current_setting('jit') as jit`)),
  );
  return {
    handle,
    label: `PostgreSQL ${v?.v ?? "?"}`,
    seeded,
    seedSeconds,
    writerUrl: url,
    cleanup: async () => {
      await handle.close().catch(() => {});
      if (!opts.keep) {
        await admin.db
          .execute(sql.raw(`drop database if exists "${BENCH_DB}" with (force)`))
          .catch((e: unknown) => console.error(`could not drop ${BENCH_DB}: ${String(e)}`));
      } else {
        console.log(`kept database ${BENCH_DB} (--keep)`);
      }
      await admin.close().catch(() => {});
    },
  };
}

async function preparePglite(opts: Options): Promise<Prepared> {
  process.chdir(REPO);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kps-bench-dashboard-"));
  const dataDir = path.join(dir, "pglite");
  const handle = await openDatabase({ dataDir });
  await migrateDatabase(handle);
  const t0 = performance.now();
  const seeded = await seedCampaign(handle.db, seedOptions(opts));
  const seedSeconds = (performance.now() - t0) / 1000;
  return {
    handle,
    label: `PGlite (PostgreSQL ${(await serverVersion(handle.db)) ?? "?"}, data directory ${dataDir})`,
    seeded,
    seedSeconds,
    cleanup: async () => {
      await handle.close().catch(() => {});
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function main() {
  const opts = parseOptions();
  console.log(
    `Dashboard benchmark — ${opts.target === "postgres" ? "PostgreSQL" : "PGlite"}, ${int(opts.passages)} passages, judged share ${opts.judgedShare}`,
  );
  console.log(machineLine());

  let prepared: Prepared | undefined;
  let writers: RunningLoad | undefined;
  let cleaned = false;
  const cleanup = async () => {
    if (cleaned) return;
    cleaned = true;
    writers?.kill();
    await prepared?.cleanup();
  };
  process.once("SIGINT", () => {
    console.error("\ninterrupted: cleaning up");
    void cleanup().finally(() => process.exit(130));
  });

  let allOk = true;
  try {
    prepared = opts.target === "postgres" ? await preparePostgres(opts) : await preparePglite(opts);
    const { handle, seeded, label } = prepared;
    const db = handle.db;
    const cid = seeded.campaignId;
    console.log(`${label}: ${handle.location}`);
    if (prepared.seedSeconds !== null) printSeed(label, seeded, prepared.seedSeconds);

    const [tallyRows] = rowsOf<Record<string, number>>(
      await db.execute(
        sql.raw(`select (select count(*) from passage_tallies where campaign_id = ${cid})::int as passage_tallies,
                        (select count(*) from annotator_tallies where campaign_id = ${cid})::int as annotator_tallies,
                        (select count(*) from judgment_minutes where campaign_id = ${cid})::int as judgment_minutes,
                        (select count(*) from judgment_hours where campaign_id = ${cid})::int as judgment_hours,
                        (select count(*) from query_tallies where campaign_id = ${cid})::int as query_tallies`),
      ),
    );
    console.log(
      `  tally rows: ${Object.entries(tallyRows ?? {})
        .map(([k, n]) => `${k} ${int(Number(n))}`)
        .join(", ")}`,
    );

    const consistency: [string, { ok: boolean; message: string }][] = [];
    consistency.push(["before the measurements", await compareWithNaive(db, cid)]);

    // 1. getDashboard, quiet.
    const call = () => getDashboard(db, system, cid);
    for (let i = 0; i < opts.warmup; i++) await call();
    let dash: Dashboard | undefined;
    const quiet = await timeCalls(opts.calls, async () => {
      dash = await call();
    });
    const jsonBytes = Buffer.byteLength(JSON.stringify({ dashboard: dash }));
    const series: Series[] = [
      {
        label: "getDashboard, quiet",
        ms: quiet,
        note: `JSON ${fmt(jsonBytes / 1000)} kB (${int(jsonBytes)} bytes): ${dash!.batches.length} batches (annotators apart: GET …/annotators), ${dash!.activity.points.length} activity points of ${dash!.activity.binMinutes} min, ${dash!.disputed.length} disputed questions`,
      },
    ];

    // 2. Each tally query alone.
    const span = await activitySpan(db, cid, new Date(Date.now() - 3_600_000));
    const bin = span.first && span.last ? chartBinMinutes((span.last.getTime() - span.first.getTime()) / 60_000 + 1) : 1;
    const queries: [string, () => Promise<unknown>][] = [
      ["passageCells", () => passageCells(db, cid)],
      ["annotatorSummaries", () => annotatorSummaries(db, cid)],
      ["questionCounts", () => questionCounts(db, cid)],
      ["activitySpan", () => activitySpan(db, cid, new Date(Date.now() - 3_600_000))],
      [`judgmentsOverTime (${bin} min bins)`, () => judgmentsOverTime(db, cid, bin)],
      ["disputedQuestions (top 20)", () => disputedQuestions(db, cid, 20)],
      ["annotatorRows (annotatorSummaries ∥ users ⟕ standings)", () => annotatorRows(db, cid)],
      ["unfillableSlots", () => unfillableSlots(db, cid)],
      ["waitingCounts", () => waitingCounts(db, cid)],
    ];
    const perQuery: Series[] = [];
    for (const [name, fn] of queries) {
      for (let i = 0; i < Math.min(opts.warmup, 3); i++) await fn();
      perQuery.push({ label: `  ${name} alone`, ms: await timeCalls(opts.calls, fn) });
    }
    const summaryRows = await annotatorSummaries(db, cid);
    const packedBuckets = summaryRows.reduce((n, s) => n + s.buckets.length, 0);

    // 3. The naive baseline.
    await naiveDashboard(db, cid);
    const baseline = await timeCalls(opts.baselineCalls, () => naiveDashboard(db, cid));

    // 4. Under write load.
    const loaded: number[] = [];
    let stats: (WriteStats & { maxRssKiB?: number }) | undefined;
    const deltaSamples: number[] = [];
    const folding: number[] = [];
    const plain: number[] = [];
    if (opts.writers > 0) {
      const ws = seeded.writerIds.slice(0, opts.writers);
      writers = prepared.writerUrl ? await startChildWriters(prepared.writerUrl, cid, ws) : inProcessWriters(db, cid, ws);
      await new Promise((r) => setTimeout(r, opts.writeWarmup * 1000));
      writers.mark();
      for (let i = 0; i < opts.calls; i++) {
        if (opts.intervalMs) await new Promise((r) => setTimeout(r, opts.intervalMs));
        const before = await pendingDeltas(db);
        const t0 = performance.now();
        await call();
        const ms = performance.now() - t0;
        const after = await pendingDeltas(db);
        loaded.push(ms);
        deltaSamples.push(before);
        // The call folded the deltas when fewer are pending after it than before (new writes during the call are few).
        (before > 0 && after < before / 2 ? folding : plain).push(ms);
      }
      stats = await writers.stop();
      writers = undefined;
      for (const a of [loaded, folding, plain, deltaSamples]) a.sort((x, y) => x - y);
      consistency.push(["after the write load", await compareWithNaive(db, cid)]);
    }

    // 5. EXPLAIN ANALYZE of the tally statements.
    let explained: string[] = [];
    if (opts.explain) {
      explained = await explainAll(db, tallyStatements(cid, bin));
    }

    // Report.
    console.log("");
    const rows: Series[] = [...series];
    if (loaded.length) {
      rows.push({
        label: `getDashboard, under write load (${opts.writers} writers)`,
        ms: loaded,
        note:
          `one call every ${opts.intervalMs} ms + its own time; pending tally delta rows before a call: median ${int(percentile(deltaSamples, 50))}, max ${int(deltaSamples[deltaSamples.length - 1] ?? 0)} ` +
          `(getDashboard folds them at most every 2 s, inside the call that finds them due)`,
      });
      rows.push({
        label: `  of which calls that folded the deltas`,
        ms: folding,
        note: `kps_compact_tallies ran inside these calls (fewer deltas pending after the call than before)`,
      });
      rows.push({ label: `  of which calls that did not`, ms: plain });
    }
    rows.push(...perQuery);
    rows.push({
      label: "naive baseline (scans passages and judgments)",
      ms: baseline,
      note: `per-cell counts over passages, per-annotator counts and exact medians over judgments ⋈ passages, questions grouped from passages, activity from judgments; in parallel like getDashboard`,
    });
    printSeries(rows);
    console.log(
      `  annotatorSummaries returns ${int(summaryRows.length)} rows (one per annotator), packing ${int(packedBuckets)} non-empty (annotator, half-second duration bucket) pairs as text`,
    );
    const ratio50 = percentile(baseline, 50) / percentile(quiet, 50);
    const ratio95 = percentile(baseline, 95) / percentile(quiet, 95);
    console.log(`naive ÷ getDashboard (quiet): ${fmt(ratio50, 0)}× at p50, ${fmt(ratio95, 0)}× at p95`);
    if (stats) {
      const rate = stats.judgments / stats.seconds;
      console.log(
        `write load: ${opts.writers} annotators looping nextTask → submitJudgment with no think time (${prepared.writerUrl ? "a child process" : "in-process"}): ` +
          `${int(stats.judgments)} judgments in ${fmt(stats.seconds)} s = ${fmt(rate)} judgments/s while measured ` +
          `(next + submit p50 ${fmt(percentile(stats.latencies, 50))} ms, p95 ${fmt(percentile(stats.latencies, 95))} ms); ${int(stats.total)} in all incl. the ${opts.writeWarmup} s warm-up` +
          `${
            Object.keys(stats.errors).length
              ? `; errors ${Object.entries(stats.errors)
                  .map(([k, n]) => `${n} × ${k}`)
                  .join(", ")}`
              : "; no errors"
          }` +
          `${stats.drained ? `; ${stats.drained} writers ran out of passages` : ""}` +
          `${stats.maxRssKiB ? `; writer process peak RSS ${fmt((stats.maxRssKiB * 1024) / MB, 0)} MB` : ""}`,
      );
      console.log(`  (for scale: 300 annotators at one judgment per 10 s write 30 judgments/s)`);
    }
    if (explained.length) {
      console.log(`EXPLAIN ANALYZE of the tally statements (copies, quiet, second run):`);
      for (const l of explained) console.log(l);
    }
    console.log(
      `this process: peak RSS ${fmt((process.resourceUsage().maxRSS * 1024) / MB, 0)} MB; load average at the end ${loadAverage()}`,
    );
    console.log("checks (the tallies as the dashboard reads them vs the naive scan):");
    for (const [when, v] of consistency) {
      console.log(`  ${when}: ${v.ok ? "OK" : "FAILED"} — ${v.message}`);
      allOk &&= v.ok;
    }

    const worst = Math.max(percentile(quiet, 95), loaded.length ? percentile(loaded, 95) : 0);
    const which = loaded.length && percentile(loaded, 95) >= percentile(quiet, 95) ? "under write load" : "quiet";
    console.log("");
    console.log(`(the verdict takes the higher p95 of the quiet and the loaded run: ${which})`);
    console.log(
      `dashboard p95 ${fmt(worst)} ms at ${int(seeded.passages)} passages (${label.replace(/ \(PostgreSQL .*$/, "")}) — target < ${TARGET_MS} ms: ${worst < TARGET_MS ? "met" : "NOT met"}`,
    );
  } finally {
    await cleanup();
  }
  if (!allOk) process.exit(1);
}

runMain(main);

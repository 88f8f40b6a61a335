// Annotation load benchmark: N simulated annotators loop POST /next → POST /judgment against the
// production server, on PostgreSQL and/or the embedded PGlite; the reference is pgbench -N on the
// same PostgreSQL server for the same duration.
//
//   tsx bench/annotate/run.ts [--annotators 200] [--seconds 30] [--database postgres|pglite|both]
//                             [--passages 30000] [--pglite-annotators 10] [--warmup 5] [--think-ms 0] [--port 3150]
//                             [--workers 2] [--db-pool 20,8] [--requests-per-judgment 1] [--path both|fast|next] [--no-build] [--snapshot] [--analyze] [--profile] [--cpu-prof] [--perf] [--trace-gc]
//
// --path: which server path answers the annotation routes — `fast` (the production server's fast
// path, server/fast-path.ts), `next` (Next.js's routes: KPS_FAST_PATH=0) or `both` (default: the Next.js
// run first, as the baseline, then the fast path, each on a fresh database and server).
//
// --db-pool: the app server's connections to PostgreSQL per process (KPS_DB_POOL), one run each, in
// the order given (default: the app's own, db/client.ts DEFAULT_POOL_SIZE).
//
// --requests-per-judgment: 1 (default) as the judging page works, the judgment's answer bringing the
// next task (`?next=1`); 2 as before issue 13 (`…/next`, then the judgment).
//
// --workers: the app server's processes on PostgreSQL (KPS_WORKERS; default 2, the setup the README
// recommends on this two-core machine); on PGlite the server is always one process. The last lines
// printed, one per database run, are `annotate: <judgments/s> judgments/s at <N> annotators on
// <database>, <ratio> × pgbench -N (<tps> tps), next p99 <ms> ms`.
// See bench/annotate/README.md. Needs a PostgreSQL server whose user may create databases
// (DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres) and pgbench. Throwaway databases
// kps_bench_annotate_<random> and kps_bench_pgbench_<random> are created and dropped; the PGlite
// data directory lives in a temporary directory; the servers are killed by pid, also on Ctrl-C.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql as drizzleSql } from "drizzle-orm";
import postgres from "postgres";
import { DEFAULT_POOL_SIZE, openDatabase, rowsOf } from "../../db/client";
import { createClient } from "./http";
import { checkInvariants, type InvariantReport, type Query } from "./invariants";
import { hammerHealth, percentile, runLoad, tailOf, type LoadResult } from "./load";
import { perfAvailable, perfBreakdown, perfRecord } from "./perf";
import { gcSummary, processStartWallMs } from "./gc-trace";
import { pgbenchInit, pgbenchRun, type PgbenchResult } from "./pgbench";
import {
  ActivitySampler,
  backendCpu,
  backendCpuReport,
  cpuReport,
  cpuSnapshot,
  defaultLogFile,
  explainAssignment,
  fileSize,
  monotonicMicros,
  statementLog,
  summarizeCpuProfile,
  type CpuSnapshot,
} from "./profile";
import { coordinatorToken, createAnnotators, goldOracle, seedCampaign, type Seeded } from "./seed";
import { build, buildNeeded, descendantPids, snapshotOfHead, startServer, tail, type Server } from "./server";
import {
  benchOptions,
  databaseTargets,
  fmt,
  integerOption,
  loadAverage,
  printLoadAtEnd,
  printTable,
  REPO,
  runMain,
  stringOptions,
  flagOptions,
} from "../common";
import { scratch } from "../scratch";

type Target = "postgres" | "pglite";
type Via = "fast" | "next";

function pathsOption(value: string): Via[] {
  if (value === "both") return ["next", "fast"];
  if (value === "fast" || value === "next") return [value];
  throw new Error(`--path must be both, fast or next, not '${value}'`);
}

/** `--db-pool 20,8`: one run per size, in that order; unset: the app's default (undefined). */
function poolsOption(value: string): (number | undefined)[] {
  if (value === "") return [undefined];
  return value.split(",").map((v) => integerOption("db-pool", v.trim(), 1));
}

function requestsOption(value: string): 1 | 2 {
  if (value !== "1" && value !== "2") throw new Error(`--requests-per-judgment must be 1 or 2, not '${value}'`);
  return value === "1" ? 1 : 2;
}

function parseOptions() {
  const values = benchOptions(
    "usage: tsx bench/annotate/run.ts [--annotators 200] [--seconds 30] [--database postgres|pglite|both] [--passages 30000]\n" +
      "                                 [--pglite-annotators 10] [--warmup 5] [--think-ms 0] [--port 3150] [--workers 2] [--db-pool 20,8] [--requests-per-judgment 1] [--path both] [--no-build] [--snapshot] [--analyze] [--profile] [--log-sample-rate 0.02] [--cpu-prof] [--perf] [--trace-gc]",
    {
      ...stringOptions({
        annotators: "200",
        "pglite-annotators": "10",
        seconds: "30",
        warmup: "5",
        "think-ms": "0",
        database: "both",
        passages: "30000",
        port: "3150",
        workers: "2",
        "db-pool": "",
        "requests-per-judgment": "1",
        path: "both",
        "log-sample-rate": "0.02",
      }),
      ...flagOptions("no-build", "snapshot", "analyze", "profile", "cpu-prof", "perf", "trace-gc"),
    },
  );
  const targets: Target[] = databaseTargets(values.database);
  const rate = Number(values["log-sample-rate"]);
  if (!(rate > 0 && rate <= 1)) throw new Error(`--log-sample-rate must be in (0, 1], not '${values["log-sample-rate"]}'`);
  if (values.perf && !perfAvailable()) throw new Error("--perf needs Linux perf (Debian: apt-get install linux-perf)");
  return {
    annotators: integerOption("annotators", values.annotators, 1),
    pgliteAnnotators: integerOption("pglite-annotators", values["pglite-annotators"], 1),
    seconds: integerOption("seconds", values.seconds, 1),
    warmup: integerOption("warmup", values.warmup, 0),
    thinkMs: integerOption("think-ms", values["think-ms"], 0),
    passages: integerOption("passages", values.passages, 3),
    port: integerOption("port", values.port, 1),
    workers: integerOption("workers", values.workers, 1),
    requestsPerJudgment: requestsOption(values["requests-per-judgment"]),
    paths: pathsOption(values.path),
    pools: poolsOption(values["db-pool"]),
    targets,
    build: !values["no-build"],
    snapshot: values.snapshot,
    analyze: values.analyze,
    profile: values.profile,
    logSampleRate: rate,
    cpuProf: values["cpu-prof"],
    perf: values.perf,
    traceGc: values["trace-gc"],
  };
}

interface TargetResult {
  target: Target;
  /** The app server's connections to PostgreSQL per process (KPS_DB_POOL); undefined on PGlite. */
  poolSize?: number;
  /** Which path answered the annotation routes. */
  via: Via;
  label: string;
  /** The database, for the last line: "PostgreSQL 16.4" or "PGlite". */
  database: string;
  /** The app server's processes (KPS_WORKERS). */
  workers: number;
  annotators: number;
  seeded: Seeded;
  setupSeconds: { server: number; annotators: number };
  load: LoadResult;
  invariants: InvariantReport;
  notes: string[];
  pgbench?: PgbenchResult;
}

function errorsOf(load: LoadResult): string {
  const all = new Map<string, number>();
  for (const m of [load.measured.errors]) for (const [k, n] of m) all.set(k, (all.get(k) ?? 0) + n);
  return all.size ? [...all].map(([k, n]) => `${n} × ${k}`).join(", ") : "0";
}

function printResults(rows: TargetResult[]) {
  const header = [
    "database",
    "annotators",
    "seconds",
    "judgments",
    "judgments/s",
    "next p50/p95/p99 ms",
    "submit p50/p95/p99 ms",
    "errors",
    "pgbench -N tps (clients)",
    "judgments/s ÷ tps",
  ];
  const pcts = (a: number[]) => [50, 95, 99].map((p) => fmt(percentile(a, p))).join(" / ");
  const lines = rows.map((r) => {
    const m = r.load.measured;
    const jps = m.judgments / m.seconds;
    return [
      r.label,
      String(r.annotators),
      fmt(m.seconds),
      m.judgments.toLocaleString("en-US"),
      fmt(jps),
      pcts(m.next),
      pcts(m.submit),
      errorsOf(r.load),
      r.pgbench ? `${fmt(r.pgbench.tps, 0)} (${r.pgbench.clients})` : "–",
      r.pgbench ? fmt(jps / r.pgbench.tps, 3) : "–",
    ];
  });
  printTable(header, lines);
}

/** `annotate: <judgments/s> judgments/s at <N> annotators on <database>, <ratio> × pgbench -N (<tps> tps), next p99 <ms> ms` */
export function summaryLine(r: TargetResult): string {
  const m = r.load.measured;
  const jps = m.judgments / m.seconds;
  // Plain numbers (no thousands separators), for scripts that read the line.
  const baseline = r.pgbench
    ? `${(jps / r.pgbench.tps).toFixed(3)} × pgbench -N (${r.pgbench.tps.toFixed(0)} tps)`
    : "? × pgbench -N (? tps)";
  return `annotate: ${jps.toFixed(1)} judgments/s at ${r.annotators} annotators on ${r.database} (${VIA[r.via]}${r.poolSize ? `, ${r.poolSize} connections per process` : ""}), ${baseline}, next p99 ${percentile(m.next, 99).toFixed(1)} ms`;
}

const VIA: Record<Via, string> = { fast: "fast path", next: "Next.js routes" };

function gitState(): string {
  try {
    const head = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: REPO, encoding: "utf8" }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--", "app", "lib", "db", "components"], {
      cwd: REPO,
      encoding: "utf8",
    }).trim();
    return `commit ${head}${dirty ? `, with uncommitted changes in ${dirty.split("\n").length} files under app/ lib/ db/ components/ (other work in progress: measured as built)` : ", clean"}`;
  } catch {
    return "commit ?";
  }
}

async function main() {
  const opts = parseOptions();
  process.chdir(REPO);
  const adminUrl = new URL(process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres");
  const suffix = randomBytes(4).toString("hex");
  const { tmp, cleanups, cleanup } = scratch("kps-bench-annotate-");
  const outDir = path.join(REPO, "bench", "out");

  const admin = postgres(adminUrl.toString(), { max: 2, onnotice: () => {} });
  cleanups.push(() => admin.end({ timeout: 5 }));
  const results: TargetResult[] = [];
  let allOk = true;
  try {
    console.log(`KILT Provenance Studio — annotation load benchmark, ${new Date().toISOString()}`);
    console.log(
      `machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "?"}, ${fmt(os.totalmem() / 1024 ** 3, 0)} GiB RAM, Node ${process.version}; ` +
        `load average ${loadAverage()}; ${gitState()}`,
    );
    const [version] = await admin<
      { v: string; major: string }[]
    >`select split_part(current_setting('server_version'), ' ', 1) as v, current_setting('server_version_num')::int / 10000 as major`;
    console.log(
      `PostgreSQL ${version?.v} at ${adminUrl.hostname}:${adminUrl.port || 5432} (the pgbench baseline runs there for every row)`,
    );
    console.log(
      `app server: ${opts.workers} worker process${opts.workers === 1 ? "" : "es"} on PostgreSQL (--workers ${opts.workers}, KPS_WORKERS), 1 on PGlite (the embedded database is one process's)`,
    );

    // 1. The production build: of the checkout, or (--snapshot) of a private copy of HEAD.
    let appDir = REPO;
    if (opts.snapshot) {
      const snap = await snapshotOfHead(REPO);
      appDir = snap.dir;
      if (snap.built) console.log(`--snapshot: commit ${snap.commit} (git HEAD, without uncommitted work), already built in ${appDir}`);
      else {
        console.log(`--snapshot: building commit ${snap.commit} (git HEAD, without uncommitted work) in ${appDir} …`);
        const seconds = await build(appDir, path.join(tmp, "build.log"));
        console.log(`built in ${fmt(seconds)} s`);
      }
    } else {
      const why = buildNeeded(REPO);
      if (why && opts.build) {
        console.log(`building: ${why} → npx next build …`);
        const seconds = await build(REPO, path.join(tmp, "build.log"));
        console.log(`built in ${fmt(seconds)} s`);
      } else if (why) console.log(`NOT rebuilding (--no-build) although ${why}`);
      else console.log(".next is up to date");
    }

    const runs = opts.targets.flatMap((t) =>
      opts.paths.flatMap((p) => (t === "postgres" ? opts.pools : [undefined]).map((pool) => [t, p, pool] as const)),
    );
    for (const [run, [target, via, pool]] of runs.entries()) {
      const poolSize = target === "postgres" ? (pool ?? DEFAULT_POOL_SIZE) : undefined;
      const annotators = target === "postgres" ? opts.annotators : opts.pgliteAnnotators;
      const port = target === "postgres" ? opts.port : opts.port + 1;
      const workers = target === "postgres" ? opts.workers : 1;
      console.log(
        `\n── ${target}, ${VIA[via]}: ${annotators} annotators, ${workers} app-server process${workers === 1 ? "" : "es"}${poolSize ? ` of ${poolSize} connections each` : ""}${opts.thinkMs ? ` (think time ${opts.thinkMs} ms ± 50% between a task and its judgment)` : ", no think time"}, ${opts.requestsPerJudgment === 1 ? "one request per judgment (?next=1)" : "two requests per judgment (next, judgment)"}, ` +
          `${opts.warmup} s warm-up + ${opts.seconds} s measured, ${opts.passages.toLocaleString("en-US")} passages ──`,
      );
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        KPS_ADMIN_USERNAME: "bench-admin",
        KPS_ADMIN_PASSWORD: `pw-${suffix}-${randomBytes(6).toString("hex")}`,
        KPS_DEMO: "0",
        KPS_WORKERS: String(workers),
        KPS_FAST_PATH: via === "fast" ? "1" : "0",
      };
      if (pool) env.KPS_DB_POOL = String(pool);
      else delete env.KPS_DB_POOL;
      delete env.DATABASE_URL;
      delete env.KPS_DATA_DIR;
      delete env.PORT;
      let benchDb: string | undefined;
      let benchSql: postgres.Sql | undefined;
      let logFile: string | undefined;
      if (target === "postgres") {
        benchDb = `kps_bench_annotate_${suffix}_${via}_${run}`;
        await admin.unsafe(`create database "${benchDb}"`);
        const name = benchDb;
        cleanups.push(async () => {
          await admin.unsafe(`drop database if exists "${name}" with (force)`);
        });
        const u = new URL(adminUrl);
        u.pathname = `/${benchDb}`;
        env.DATABASE_URL = u.toString();
        if (opts.profile) {
          logFile = defaultLogFile(String(version?.major));
          if (logFile) {
            // Sampled statement durations, for this database only; new sessions (the server's) pick it up.
            await admin.unsafe(`alter database "${benchDb}" set log_min_duration_sample = 0`);
            await admin.unsafe(`alter database "${benchDb}" set log_statement_sample_rate = ${opts.logSampleRate}`);
          } else console.log("--profile: no readable PostgreSQL log file: no statement durations");
        }
      } else {
        env.KPS_DATA_DIR = path.join(tmp, `pglite-${via}`);
      }

      const cpuProfDir = opts.cpuProf ? path.join(outDir, "cpu-prof-annotate", `${target}-${via}`) : undefined;
      if (cpuProfDir) {
        fs.rmSync(cpuProfDir, { recursive: true, force: true });
        fs.mkdirSync(cpuProfDir, { recursive: true });
      }
      let t = performance.now();
      const serverLog = path.join(tmp, `server-${target}-${via}.log`);
      const nodeFlags = opts.traceGc ? ["--trace-gc"] : [];
      let server: Server = await startServer({ repo: appDir, port, env, logFile: serverLog, cpuProfDir, nodeFlags });
      cleanups.push(() => server.stop());
      const serverSeconds = (performance.now() - t) / 1000;
      let client = createClient(server.url, annotators + 16);
      cleanups.push(async () => client.close());
      const notes: string[] = [];
      try {
        // 2. Seed through the API.
        const token = await coordinatorToken(client, env.KPS_ADMIN_USERNAME!, env.KPS_ADMIN_PASSWORD!);
        const seeded = await seedCampaign(client, token, opts.passages, `bench annotate ${suffix}`);
        console.log(
          `server up in ${fmt(serverSeconds)} s (pid ${server.pid}); seeded ${seeded.pages.toLocaleString("en-US")} pages (${fmt(seeded.seconds.knowledge)} s), ` +
            `${seeded.questions.toLocaleString("en-US")} questions × 3 = ${seeded.passages.toLocaleString("en-US")} passages (${fmt(seeded.seconds.batch)} s), R = 3, launched`,
        );
        t = performance.now();
        const accounts = await createAnnotators(client, token, annotators, `bench-${suffix}`);
        const annotatorSeconds = (performance.now() - t) / 1000;
        console.log(`${annotators} annotators created and signed in in ${fmt(annotatorSeconds)} s`);
        if (opts.analyze) {
          // Planner statistics for the freshly imported rows, as autovacuum would gather within a
          // minute or so on PostgreSQL (PGlite runs no autovacuum: there only an explicit ANALYZE does).
          t = performance.now();
          if (target === "postgres") {
            const one = postgres(env.DATABASE_URL!, { max: 1, onnotice: () => {} });
            await one`analyze`.finally(() => one.end({ timeout: 5 }));
          } else {
            await server.stop();
            client.close();
            const handle = await openDatabase({ dataDir: env.KPS_DATA_DIR! });
            await handle.db.execute(drizzleSql`analyze`).finally(() => handle.close());
            fs.appendFileSync(serverLog, "\n--- restarted after ANALYZE ---\n");
            server = await startServer({ repo: appDir, port, env, logFile: `${serverLog}.2`, cpuProfDir, nodeFlags });
            client = createClient(server.url, annotators + 16);
          }
          console.log(
            `--analyze: ANALYZE of the whole database in ${fmt((performance.now() - t) / 1000)} s${target === "pglite" ? " (server stopped and restarted around it)" : ""}`,
          );
        }

        // 3. The load.
        let sampler: ActivitySampler | undefined;
        let logFrom = 0;
        let logTo = 0;
        let cpu0: CpuSnapshot | undefined;
        let cpu1: CpuSnapshot | undefined;
        const window = { from: 0, to: 0 };
        // --trace-gc: the window on the wall clock, and the server's processes' starts (read while they run).
        const gcWindow = { from: 0, to: 0 };
        const gcStarts = new Map<number, number>();
        let windowStartedAt = "";
        let backends0: Promise<Map<number, number>> | undefined;
        let backends1: Promise<Map<number, number>> | undefined;
        // Resolves to null once perf has written its file, or to why it did not.
        let perfRun: Promise<string | null> | undefined;
        const perfFile = path.join(tmp, `perf-${target}-${via}.data`);
        const load = await runLoad(client, accounts, seeded.campaignId, {
          warmupSeconds: opts.warmup,
          thinkMs: opts.thinkMs,
          requestsPerJudgment: opts.requestsPerJudgment,
          isGold: goldOracle(seeded.questions),
          seconds: opts.seconds,
          onMeasureStart: () => {
            windowStartedAt = new Date().toISOString().slice(11, 23) + " UTC";
            if (opts.perf)
              perfRun = perfRecord(perfFile, opts.seconds).then(
                () => null,
                (error: unknown) => (error instanceof Error ? error.message : String(error)),
              );
            cpu0 = cpuSnapshot(() => server.cpuSeconds(), target === "postgres");
            window.from = monotonicMicros();
            if (opts.traceGc) {
              gcWindow.from = Date.now();
              for (const pid of [server.pid, ...descendantPids(server.pid)]) {
                const start = processStartWallMs(pid);
                if (start !== undefined) gcStarts.set(pid, start);
              }
            }
            if (benchDb) backends0 = backendCpu(admin, benchDb);
            if (benchDb) {
              sampler = new ActivitySampler(admin, benchDb);
              sampler.start();
            }
            if (logFile) logFrom = fileSize(logFile);
          },
          onMeasureEnd: () => {
            cpu1 = cpuSnapshot(() => server.cpuSeconds(), target === "postgres");
            window.to = monotonicMicros();
            gcWindow.to = Date.now();
            if (benchDb) backends1 = backendCpu(admin, benchDb);
            if (logFile) logTo = fileSize(logFile);
          },
        });
        const activity = sampler?.stop() ?? [];
        const m = load.measured;
        console.log(
          `measured ${fmt(m.seconds)} s: ${m.judgments.toLocaleString("en-US")} judgments (${m.sufficient} sufficient), ${fmt(m.judgments / m.seconds)} judgments/s; ` +
            `warm-up ${fmt(load.warmup.seconds)} s: ${load.warmup.judgments} judgments`,
        );
        const slowTail = tailOf(m);
        notes.push(
          `next over 50 ms: ${slowTail.slow} of ${m.nextAt.length} (${fmt(slowTail.share * 100, 2)}%), ${fmt(slowTail.worstShare * 100, 0)}% of them in the window's 3 worst seconds (${slowTail.worstSeconds.map((s) => `${s}–${s + 1} s`).join(", ") || "none"} of the window that began at ${windowStartedAt}); ` +
            `the load generator's own event-loop delay p50 / p99 / max ${fmt(load.loopDelay.p50)} / ${fmt(load.loopDelay.p99)} / ${fmt(load.loopDelay.max)} ms (it adds to every latency it measures)`,
        );
        if (load.drained) notes.push(`WARNING: ${load.drained} annotators got 204 (nothing left): raise --passages`);
        if (load.firstErrors.length) notes.push(`first errors: ${load.firstErrors.join(" | ")}`);
        if (load.warmup.errors.size)
          notes.push(`errors during the warm-up: ${[...load.warmup.errors].map(([k, n]) => `${n} × ${k}`).join(", ")}`);
        if (load.openClaims) notes.push(`${load.openClaims} claims left open by failed submissions`);
        const capacity = seeded.passages * 3;
        if (load.acknowledged > capacity * 0.8)
          notes.push(
            `WARNING: ${load.acknowledged} judgments used ${fmt((load.acknowledged / capacity) * 100, 0)}% of the batch's ${capacity} slots`,
          );
        if (perfRun) {
          const failed = await perfRun;
          notes.push(...(failed ? [`--perf: ${failed}`] : await perfBreakdown(perfFile)));
          fs.rmSync(perfFile, { force: true });
        }
        if (cpu0 && cpu1) {
          notes.push(cpuReport(cpu0, cpu1, os.cpus().length));
          const serverCpu = cpu1.server !== undefined && cpu0.server !== undefined ? cpu1.server - cpu0.server : NaN;
          notes.push(
            `per judgment: app server ${fmt((serverCpu * 1000) / Math.max(1, m.judgments), 2)} ms CPU, load generator ${fmt(((cpu1.bench - cpu0.bench) * 1000) / Math.max(1, m.judgments), 2)} ms` +
              (target === "pglite" ? " (the app server's CPU includes PGlite, which runs inside it)" : ""),
          );
        }
        if (backends0 && backends1) {
          const b0 = await backends0;
          const b1 = await backends1;
          notes.push(backendCpuReport(b0, b1, m.seconds, m.judgments));
          if (cpu0?.server !== undefined && cpu1?.server !== undefined) {
            let pgCpu = 0;
            for (const [pid, c] of b1) pgCpu += c - (b0.get(pid) ?? 0);
            const perJudgment = (x: number) => (x * 1000) / Math.max(1, m.judgments);
            const nodeMs = perJudgment(cpu1.server - cpu0.server);
            const allMs = nodeMs + perJudgment(pgCpu) + perJudgment(cpu1.bench - cpu0.bench);
            notes.push(
              `capacity from CPU per judgment (robust to other load on the machine): the app server's ${workers === 1 ? "one thread caps" : `${workers} processes (one thread each) cap`} at ≈ ${fmt((Math.min(workers, os.cpus().length) * 1000) / nodeMs, 0)} judgments/s; ` +
                `${os.cpus().length} cores shared by server + PostgreSQL backends + load generator (${fmt(allMs, 1)} ms per judgment) cap at ≈ ${fmt((os.cpus().length * 1000) / allMs, 0)} judgments/s; ` +
                `500 judgments/s on ${os.cpus().length} cores needs ≤ ${fmt((os.cpus().length * 1000) / 500, 1)} ms per judgment in all`,
            );
          }
        }
        notes.push(...activity);
        const serverErrors = fs
          .readFileSync(server.logFile, "utf8")
          .split("\n")
          .filter((l) => /unexpected error|request failed|database unavailable/.test(l));
        if (serverErrors.length) notes.push(`server log: ${serverErrors.length} error lines, first: ${serverErrors[0]}`);

        if (opts.profile) {
          // The framework's floor on the same server: GET /api/health (routing + `select 1`).
          const c0 = server.cpuSeconds();
          const h = await hammerHealth(client, Math.min(annotators, 50), 5);
          const c1 = server.cpuSeconds();
          const cpuMs = c0 !== undefined && c1 !== undefined ? ((c1 - c0) * 1000) / Math.max(1, h.requests) : NaN;
          const reqs = m.judgments * opts.requestsPerJudgment;
          const appCpuMs =
            cpu0?.server !== undefined && cpu1?.server !== undefined ? ((cpu1.server - cpu0.server) * 1000) / Math.max(1, reqs) : NaN;
          notes.push(
            `framework floor: GET /api/health × ${Math.min(annotators, 50)} clients for 5 s: ${fmt(h.requests / h.seconds, 0)} requests/s, p50 ${fmt(percentile(h.latencies, 50))} ms, ` +
              `server CPU ${fmt(cpuMs, 2)} ms per request${h.errors ? `, ${h.errors} errors` : ""} — vs ${fmt(appCpuMs, 2)} ms per annotation request (${opts.requestsPerJudgment === 1 ? "judgment with the next task" : "next or judgment"}) during the load`,
          );
        }

        // 4. Stop the server (frees the CPU, writes the CPU profile, releases PGlite), then check.
        await server.stop();
        client.close();
        if (opts.traceGc) notes.push(...gcSummary(fs.readFileSync(server.logFile, "utf8"), gcStarts, gcWindow));
        if (logFile && logTo > logFrom)
          notes.push(...statementLog(logFile, logFrom, logTo, benchDb!, opts.logSampleRate, m.seconds, m.judgments));
        if (cpuProfDir) {
          const files = fs.readdirSync(cpuProfDir).filter((f) => f.endsWith(".cpuprofile"));
          for (const f of files) notes.push(...summarizeCpuProfile(path.join(cpuProfDir, f), window));
          if (!files.length) notes.push(`--cpu-prof: no profile written in ${cpuProfDir}\n${tail(server.logFile, 10)}`);
          else notes.push(`(CPU profiles kept in ${path.relative(REPO, cpuProfDir)}/, for Chrome DevTools or speedscope)`);
        }

        let invariants: InvariantReport;
        if (target === "postgres") {
          // One connection: the EXPLAINs run between begin and rollback on the same session.
          benchSql = postgres(env.DATABASE_URL!, { max: 1, onnotice: () => {} });
          const q: Query = async (text) => (await benchSql!.unsafe(text)) as unknown as Record<string, unknown>[];
          invariants = await checkInvariants(q, seeded.campaignId, load.acknowledged);
          notes.push(...(await explainAssignment(q, seeded.campaignId, accounts[0]!.username, "postgres")));
          await benchSql.end({ timeout: 5 });
        } else {
          const handle = await openDatabase({ dataDir: env.KPS_DATA_DIR! });
          try {
            const q: Query = async (text) => rowsOf<Record<string, unknown>>(await handle.db.execute(drizzleSql.raw(text)));
            invariants = await checkInvariants(q, seeded.campaignId, load.acknowledged);
            notes.push(...(await explainAssignment(q, seeded.campaignId, accounts[0]!.username, "pglite")));
          } finally {
            await handle.close();
          }
        }
        allOk &&= invariants.ok;
        results.push({
          target,
          poolSize,
          via,
          database: target === "postgres" ? `PostgreSQL ${version?.v}` : "PGlite",
          workers,
          label:
            (target === "postgres"
              ? `PostgreSQL ${version?.v}, ${workers} app-server process${workers === 1 ? "" : "es"} of ${poolSize} connections`
              : "PGlite (embedded, temp dir)") +
            `, ${VIA[via]}` +
            (opts.analyze ? ", ANALYZE before the load" : "") +
            (opts.thinkMs ? `, think ${opts.thinkMs} ms` : ""),
          annotators,
          seeded,
          setupSeconds: { server: serverSeconds, annotators: annotatorSeconds },
          load,
          invariants,
          notes,
        });
      } catch (error) {
        console.error(`server log (tail):\n${tail(server.logFile, 30)}`);
        throw error;
      } finally {
        await server.stop();
        await benchSql?.end({ timeout: 5 }).catch(() => {});
      }
    }

    // 5. The baseline: pgbench -N on the same server, same duration, min(annotators, 50) clients.
    const pgbenchDb = `kps_bench_pgbench_${suffix}`;
    await admin.unsafe(`create database "${pgbenchDb}"`);
    cleanups.push(async () => {
      await admin.unsafe(`drop database if exists "${pgbenchDb}" with (force)`);
    });
    const initSeconds = await pgbenchInit(adminUrl, pgbenchDb, 10);
    console.log(`\npgbench -i -s 10 ${pgbenchDb}: ${fmt(initSeconds)} s`);
    const byClients = new Map<number, PgbenchResult>();
    for (const r of results) {
      const clients = Math.min(r.annotators, 50);
      if (!byClients.has(clients)) {
        await admin`checkpoint`;
        const p = await pgbenchRun(adminUrl, pgbenchDb, clients, opts.seconds);
        byClients.set(clients, p);
        console.log(
          `pgbench -N -c ${clients} -j 2 -T ${opts.seconds}: ${fmt(p.tps)} tps, latency average ${fmt(p.latencyMs ?? NaN, 2)} ms, ${p.transactions ?? "?"} transactions`,
        );
      }
      r.pgbench = byClients.get(clients);
    }

    // 6. Report.
    console.log("");
    printResults(results);
    console.log("");
    console.log(
      `judgments/s ÷ tps: one judgment is ${opts.requestsPerJudgment === 1 ? "one HTTP request (the judgment, whose answer brings the next task: ?next=1), answered by the fast path or by Next.js (--path)" : "two HTTP requests (…/next, then the judgment), answered by the fast path or by Next.js (--path)"} ` +
        "and, in the steady state, 3 SQL statements, each committed by itself: the claim read, the judgment's write (claim and passage locked for that " +
        "statement only), the next claim (one CTE); the session comes from a 1-s per-process cache, and after a judgment the annotator's access is not " +
        "looked up again (the claim read has just read it; the campaign's row is cached per campaign for 1 s); expired claims are reaped " +
        "every 2 s per campaign. A pgbench -N transaction is 5 statements (begin … commit). The statements per judgment measured in the server's log " +
        "are printed with --profile.",
    );
    if (results.some((r) => r.target === "pglite"))
      console.log(
        "The PGlite row's baseline is pgbench on the PostgreSQL server (pgbench cannot reach PGlite): the server's reference, not PGlite's.",
      );
    for (const r of results) {
      console.log(`\n${r.label} — ${r.annotators} annotators:`);
      for (const l of r.invariants.lines) console.log(`  invariant ${l}`);
      for (const n of r.notes) console.log(`  ${n}`);
    }
    for (const pg of results.filter((r) => r.target === "postgres")) {
      const jps = pg.load.measured.judgments / pg.load.measured.seconds;
      const p99 = percentile(pg.load.measured.next, 99);
      const ratio = pg.pgbench ? jps / pg.pgbench.tps : NaN;
      console.log(
        `\ntargets (PostgreSQL, ${VIA[pg.via]}, 2 cores): ≥ 0.12 × pgbench -N: ${fmt(ratio, 3)} ${ratio >= 0.12 ? "met" : "NOT met"}; ` +
          `next p99 < 50 ms: ${fmt(p99)} ms ${p99 < 50 ? "met" : "NOT met"} (at half capacity: --think-ms)${pg.annotators !== 200 ? ` (measured with ${pg.annotators} annotators)` : ""}`,
      );
    }
    printLoadAtEnd();
    console.log(`invariants: ${allOk ? "OK" : "VIOLATED (see above)"}`);
    // Last, one line per database run (issue 13): what the README's tables quote.
    for (const r of results) console.log(summaryLine(r));
  } finally {
    await cleanup();
  }
  if (!allOk) process.exit(1);
}

runMain(main);

// Where the time goes: CPU per process, pg_stat_activity samples, sampled statement durations from
// the PostgreSQL log, EXPLAIN ANALYZE of the assignment queries, and a V8 CPU profile summary.
import fs from "node:fs";
import path from "node:path";
import type postgres from "postgres";
import { postgresCpuSeconds } from "../import/proc";
import { SourceMaps, sourceGroup } from "./sourcemap";

// ---------------------------------------------------------------------------------------------
// CPU accounting over the measured window.

function machineCpu(): { busy: number; total: number } | undefined {
  try {
    const line = fs.readFileSync("/proc/stat", "utf8").split("\n")[0]!;
    const f = line.trim().split(/\s+/).slice(1).map(Number);
    const total = f.slice(0, 8).reduce((a, b) => a + b, 0);
    const idle = (f[3] ?? 0) + (f[4] ?? 0);
    return { busy: (total - idle) / 100, total: total / 100 };
  } catch {
    return undefined;
  }
}

export interface CpuSnapshot {
  at: number;
  server?: number;
  postgres?: number;
  bench: number;
  machine?: { busy: number; total: number };
}

export function cpuSnapshot(serverCpu: () => number | undefined, withPostgres: boolean): CpuSnapshot {
  const u = process.cpuUsage();
  return {
    at: performance.now(),
    server: serverCpu(),
    postgres: withPostgres ? postgresCpuSeconds() : undefined,
    bench: (u.user + u.system) / 1e6,
    machine: machineCpu(),
  };
}

export function cpuReport(a: CpuSnapshot, b: CpuSnapshot, cores: number): string {
  const wall = (b.at - a.at) / 1000;
  const part = (name: string, x?: number, y?: number) =>
    x === undefined || y === undefined
      ? `${name} ?`
      : `${name} ${(y - x).toFixed(1)} s (${(((y - x) / wall) * 100).toFixed(0)}% of a core)`;
  const parts = [
    part("app server (node: every process of it)", a.server, b.server),
    part("load generator (this process)", a.bench, b.bench),
  ];
  if (a.postgres !== undefined) parts.push(part("PostgreSQL (every postgres process on the machine)", a.postgres, b.postgres));
  if (a.machine && b.machine) {
    const busy = b.machine.busy - a.machine.busy;
    const known = [b.server! - a.server!, b.bench - a.bench, a.postgres !== undefined ? b.postgres! - a.postgres : 0].reduce(
      (s, x) => s + (Number.isFinite(x) ? x : 0),
      0,
    );
    const other = Math.max(0, busy - known);
    parts.push(
      `machine busy ${busy.toFixed(1)} of ${(wall * cores).toFixed(1)} core-seconds (${((busy / (wall * cores)) * 100).toFixed(0)}%), of which other processes ${other.toFixed(1)} s` +
        (other > 0.1 * wall * cores ? " — WARNING: other work on the machine took over 10% of the CPU: these figures are skewed" : ""),
    );
  }
  return `CPU over ${wall.toFixed(1)} s: ${parts.join("; ")}`;
}

/** CPU seconds of the backends serving one database (local server only), by pid. */
export async function backendCpu(sql: postgres.Sql, database: string): Promise<Map<number, number>> {
  const rows = await sql<
    { pid: number }[]
  >`select pid from pg_stat_activity where datname = ${database} and backend_type = 'client backend' and pid <> pg_backend_pid()`;
  const out = new Map<number, number>();
  for (const r of rows) {
    const cpu = processCpu(r.pid);
    if (cpu !== undefined) out.set(r.pid, cpu);
  }
  return out;
}

export function backendCpuReport(before: Map<number, number>, after: Map<number, number>, wallSeconds: number, judgments: number): string {
  let total = 0;
  for (const [pid, cpu] of after) total += cpu - (before.get(pid) ?? 0);
  return (
    `PostgreSQL backends of the bench database (${after.size} connections): ${total.toFixed(1)} s CPU (${((total / wallSeconds) * 100).toFixed(0)}% of a core), ` +
    `${((total * 1000) / Math.max(1, judgments)).toFixed(2)} ms per judgment`
  );
}

function processCpu(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(rest[11]) + Number(rest[12])) / 100;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// pg_stat_activity: what the app's backends are doing, sampled every 100 ms.

export class ActivitySampler {
  private timer?: NodeJS.Timeout;
  private samples = 0;
  private states = new Map<string, number>();
  private activeQueries = new Map<string, number>();
  private busy = false;

  constructor(
    private readonly sql: postgres.Sql,
    private readonly database: string,
  ) {}

  start(intervalMs = 100) {
    this.timer = setInterval(() => void this.sample(), intervalMs);
  }

  private async sample() {
    if (this.busy) return;
    this.busy = true;
    try {
      const rows = await this.sql<{ state: string | null; wait: string | null; query: string }[]>`
        select state, wait_event_type || ':' || wait_event as wait, left(regexp_replace(query, '\\s+', ' ', 'g'), 90) as query
        from pg_stat_activity where datname = ${this.database} and pid <> pg_backend_pid() and backend_type = 'client backend'`;
      this.samples++;
      for (const r of rows) {
        const key = r.state === "active" ? `active, ${r.wait ? `waiting on ${r.wait}` : "running (on CPU or runnable)"}` : (r.state ?? "?");
        this.states.set(key, (this.states.get(key) ?? 0) + 1);
        if (r.state === "active") this.activeQueries.set(r.query, (this.activeQueries.get(r.query) ?? 0) + 1);
      }
    } catch {
      // a sample lost is no matter
    } finally {
      this.busy = false;
    }
  }

  stop(): string[] {
    clearInterval(this.timer);
    if (!this.samples) return ["pg_stat_activity: no samples"];
    const avg = (n: number) => (n / this.samples).toFixed(2);
    const lines = [`pg_stat_activity, ${this.samples} samples: average backends of the app per state —`];
    for (const [k, n] of [...this.states].sort((a, b) => b[1] - a[1])) lines.push(`    ${avg(n).padStart(6)}  ${k}`);
    lines.push(`  statements seen running (average backends):`);
    for (const [q, n] of [...this.activeQueries].sort((a, b) => b[1] - a[1]).slice(0, 8)) lines.push(`    ${avg(n).padStart(6)}  ${q}`);
    return lines;
  }
}

// ---------------------------------------------------------------------------------------------
// Sampled statement durations from the server log (log_min_duration_sample + log_statement_sample_rate
// on the bench database; needs a superuser and a readable log file).

export function defaultLogFile(major: string): string | undefined {
  const f = `/var/log/postgresql/postgresql-${major}-main.log`;
  try {
    fs.accessSync(f, fs.constants.R_OK);
    return f;
  } catch {
    return undefined;
  }
}

export function fileSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

function normalize(statement: string): string {
  return statement
    .replace(/\s+/g, " ")
    .replace(/'[^']*'/g, "?")
    .replace(/\b\d+\b/g, "N")
    .trim()
    .slice(0, 150);
}

export function statementLog(
  file: string,
  from: number,
  to: number,
  database: string,
  rate: number,
  wallSeconds: number,
  judgments: number,
): string[] {
  const fd = fs.openSync(file, "r");
  const buf = Buffer.alloc(Math.max(0, to - from));
  fs.readSync(fd, buf, 0, buf.length, from);
  fs.closeSync(fd);
  const text = buf.toString("utf8");
  // Entries start with the log_line_prefix's timestamp; continuation lines with a tab.
  const entries = text.split(/\n(?=\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)/);
  const header = new RegExp(`@${database} LOG:  duration: ([\\d.]+) ms  (?:(parse|bind|execute) [^:]*|statement): ([\\s\\S]*)$`);
  const byStatement = new Map<string, { n: number; ms: number; max: number; steps: Map<string, number> }>();
  let total = 0;
  let n = 0;
  let statements = 0;
  const bySteps = new Map<string, number>();
  for (const e of entries) {
    const m = header.exec(e);
    if (!m) continue;
    const ms = Number(m[1]);
    const step = m[2] ?? "simple";
    const key = normalize(m[3]!);
    const s = byStatement.get(key) ?? { n: 0, ms: 0, max: 0, steps: new Map() };
    if (step !== "bind" && step !== "parse") {
      s.n++;
      statements++;
    }
    bySteps.set(step, (bySteps.get(step) ?? 0) + ms);
    s.ms += ms;
    s.max = Math.max(s.max, ms);
    s.steps.set(step, (s.steps.get(step) ?? 0) + ms);
    byStatement.set(key, s);
    total += ms;
    n++;
  }
  if (!n) return [`statement log: no sampled statements of ${database} found in ${file}`];
  const lines = [
    `statement durations from ${file} (sample rate ${rate}; ${n} log entries): ≈ ${(total / rate / 1000).toFixed(1)} s of statement time in ${wallSeconds.toFixed(1)} s ` +
      `(≈ ${(total / rate / 1000 / wallSeconds).toFixed(1)} backends busy on average), by statement (estimated totals = sampled ÷ rate):`,
    `  ≈ ${(statements / rate / Math.max(1, judgments)).toFixed(1)} statements per judgment (executes and simple queries, begin/commit included, ÷ ${judgments} judgments in the window); ` +
      `time by protocol step: ${[...bySteps].map(([k, ms]) => `${k} ${(ms / rate / 1000).toFixed(1)} s`).join(", ")} ` +
      `("parse <unnamed>": drizzle sends every statement unprepared, so each one is parsed and planned again)`,
    `    ${"total s".padStart(8)} ${"calls".padStart(8)} ${"mean ms".padStart(8)} ${"max ms".padStart(8)}  statement`,
  ];
  for (const [k, s] of [...byStatement].sort((a, b) => b[1].ms - a[1].ms).slice(0, 30)) {
    lines.push(
      `    ${(s.ms / rate / 1000).toFixed(2).padStart(8)} ${Math.round(s.n / rate)
        .toString()
        .padStart(8)} ${(s.ms / Math.max(1, s.n)).toFixed(3).padStart(8)} ${s.max.toFixed(1).padStart(8)}  ${k}`,
    );
  }
  return lines;
}

// ---------------------------------------------------------------------------------------------
// EXPLAIN ANALYZE of the queries behind POST /next, on the seeded (and judged) data. `query` must run
// every statement on one session (begin … rollback around each EXPLAIN, since the lookups lock rows).

export type SessionQuery = (text: string) => Promise<Record<string, unknown>[]>;

export async function explainAssignment(
  query: SessionQuery,
  campaignId: number,
  username: string,
  kind: "postgres" | "pglite",
): Promise<string[]> {
  const [user] = await query(`select id from users where username = '${username.replace(/'/g, "''")}'`);
  if (!user) return [`explain: no user ${username}`];
  const u = Number(user.id);
  const c = Number(campaignId);
  const launched = (await query(`select id from batches where campaign_id = ${c} and status = 'launched'`)).map((b) => Number(b.id));
  const [current] = await query(
    `select p.query_id from claims c join passages p on p.id = c.passage_id where c.user_id = ${u} and c.campaign_id = ${c} order by c.id desc limit 1`,
  );
  const q = Number(current?.query_id ?? 0);
  const arr = `'{${launched.join(",")}}'::bigint[]`;
  const queries: [string, string][] = [
    [
      "requireActiveAnnotator (campaign + membership + standing)",
      `select * from campaigns left join campaign_members m on m.campaign_id = campaigns.id and m.user_id = ${u} left join annotator_standings s on s.campaign_id = campaigns.id and s.user_id = ${u} where campaigns.id = ${c}`,
    ],
    [
      "reapExpiredClaims",
      `update claims set ended_at = now() where campaign_id = ${c} and ended_at is null and expires_at < now() returning passage_id`,
    ],
    [
      "live claim of the annotator",
      `select id from claims where user_id = ${u} and campaign_id = ${c} and ended_at is null order by id limit 1`,
    ],
    ["launched batches", `select id from batches where campaign_id = ${c} and status = 'launched'`],
    [
      "current question (last claim)",
      `select p.query_id from claims c join passages p on p.id = c.passage_id where c.user_id = ${u} and c.campaign_id = ${c} order by c.id desc limit 1`,
    ],
    [
      "openPassageInCurrentQuery",
      `select p.id from passages p where p.query_id = ${q} and p.open_slots > 0 and p.batch_id = any(${arr})
        and not exists (select 1 from claims c where c.passage_id = p.id and c.user_id = ${u})
        order by md5(p.id::text || ':' || ${u}::text) limit 1 for update of p skip locked`,
    ],
    [
      "openPassageAnywhere",
      `select p.id from passages p where p.campaign_id = ${c} and p.open_slots > 0 and p.batch_id = any(${arr})
        and not exists (select 1 from claims c where c.passage_id = p.id and c.user_id = ${u})
        order by p.open_slots, p.query_id, p.id limit 1 for update of p skip locked`,
    ],
    [
      "taskOfClaim progress counts",
      `select (select count(*)::int from judgments j where j.user_id = ${u} and j.campaign_id = ${c} and j.created_at >= date_trunc('day', now())) as today,
        (select count(*)::int from judgments j join passages p on p.id = j.passage_id where j.user_id = ${u} and p.query_id = ${q}) as done,
        (select count(*)::int from passages p where p.query_id = ${q}) as total`,
    ],
  ];
  const stats =
    kind === "postgres"
      ? (
          await query(
            `select last_analyze, last_autoanalyze, n_live_tup::int as live, n_mod_since_analyze::int as modified from pg_stat_user_tables where relname = 'passages'`,
          )
        )[0]
      : undefined;
  const [reltuples] = await query(`select reltuples::float8 as n from pg_class where relname = 'passages'`);
  const when = (v: unknown) => (v instanceof Date ? v.toISOString() : v ? String(v) : "never");
  const lines = [
    `EXPLAIN ANALYZE of the assignment queries (${kind}) for ${username} (user ${u}), after the run, each in a rolled-back transaction; planner statistics of passages: ` +
      (stats
        ? `last analyze ${when(stats.last_analyze)}, last autoanalyze ${when(stats.last_autoanalyze)}, ${stats.live} live rows, ${stats.modified} modified since; `
        : "") +
      `pg_class.reltuples ${Number(reltuples?.n ?? NaN)} (−1: never analyzed)`,
  ];
  await explainEach(query, queries, lines);
  // The two lookups again once the planner has statistics.
  await query(`analyze passages`);
  await query(`analyze claims`);
  lines.push(`after ANALYZE passages, claims:`);
  await explainEach(
    query,
    queries.filter(([name]) => name.startsWith("openPassage")),
    lines,
  );
  return lines;
}

async function explainEach(query: SessionQuery, queries: [string, string][], lines: string[]): Promise<void> {
  for (const [name, q] of queries) {
    try {
      await query("begin");
      let plan: string[];
      try {
        const rows = await query(`explain (analyze, buffers, timing) ${q}`);
        plan = rows.map((r) => String(r["QUERY PLAN"]));
      } finally {
        await query("rollback");
      }
      const exec = plan.find((l) => l.startsWith("Execution Time"));
      lines.push(`  ${name}: ${exec ?? "?"}`);
      const ms = Number(/Execution Time: ([\d.]+)/.exec(exec ?? "")?.[1] ?? 0);
      if (name.startsWith("openPassage") || ms > 1) {
        const shown = plan.filter(
          (l, i) => !l.startsWith("Planning") && !l.startsWith("Execution") && (i === 1 || !l.trim().startsWith("Buffers:")),
        );
        for (const l of shown) lines.push(`      ${l}`);
      }
    } catch (e) {
      lines.push(`  ${name}: failed: ${(e as Error).message}`);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// V8 CPU profile of the server (node --cpu-prof): self time by function and by package.

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
  children?: number[];
}

/** Monotonic microseconds: the clock V8 stamps CPU profile samples with (CLOCK_MONOTONIC on Linux). */
export function monotonicMicros(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

/**
 * Self time of a V8 CPU profile (node --cpu-prof of the server) by package / app file and by
 * function, positions in the bundle mapped back to original sources through the build's source
 * maps. `window`: only samples taken in it (monotonic µs, see monotonicMicros), e.g. the measured load.
 */
export function summarizeCpuProfile(file: string, window?: { from: number; to: number }, top = 25): string[] {
  const profile = JSON.parse(fs.readFileSync(file, "utf8")) as {
    nodes: ProfileNode[];
    startTime: number;
    endTime: number;
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  // Self time per node from the samples (within the window), weighted by the time to the next sample.
  const selfUs = new Map<number, number>();
  let t = profile.startTime;
  let inWindow = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i] ?? 0;
    const dt = profile.timeDeltas[i + 1] ?? 0;
    if (window && (t < window.from || t > window.to)) continue;
    inWindow += dt;
    selfUs.set(profile.samples[i]!, (selfUs.get(profile.samples[i]!) ?? 0) + dt);
  }
  if (window && inWindow === 0)
    return [`CPU profile ${path.basename(file)}: no sample in the measured window (a server stopped before the load)`];
  const note = window
    ? `samples in the measured window only (${(inWindow / 1e6).toFixed(1)} s)`
    : "the whole server life (start-up, seeding and the load)";
  const maps = new SourceMaps();
  const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
  const byGroup = new Map<string, number>();
  const byFn = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const { functionName, url, lineNumber, columnNumber } = byId.get(id)!.callFrame;
    let group: string;
    let where = "";
    if (!url) group = functionName.startsWith("(") ? functionName : "(native: V8 builtins, syscalls such as socket writes)";
    else if (url.startsWith("node:")) {
      group = "node core (node:*)";
      where = `${url}:${lineNumber + 1}`;
    } else {
      const original = url.includes("/.next/") ? maps.source(url, lineNumber, columnNumber) : undefined;
      group = original ? sourceGroup(original) : sourceGroup(url.replace(/^file:\/\//, ""));
      where = original
        ? original
            .replace(/^turbopack:\/\/\/?(\[project\]\/)?/, "")
            .replace(/^.*?node_modules\/src\//, "drizzle-orm/src/")
            .replace(/^.*?node_modules\//, "")
            .replace(/^(\.\.\/)+.*?\/annotate-snapshot\/[^/]+\//, "")
        : url.replace(/^.*\/(node_modules|\.next)\//, "$1/");
    }
    byGroup.set(group, (byGroup.get(group) ?? 0) + us);
    const key = `${functionName || "(anonymous)"}${where ? `  ${where}` : ""}`;
    byFn.set(key, (byFn.get(key) ?? 0) + us);
  }
  const pct = (us: number) => `${((us / total) * 100).toFixed(1).padStart(5)}%`;
  const lines = [
    `CPU profile of the server ${path.basename(file)}: ${(total / 1e6).toFixed(1)} s sampled, ${note}; self time by package / source file (through the build's source maps):`,
  ];
  for (const [k, us] of [...byGroup].sort((a, b) => b[1] - a[1]).slice(0, 22)) lines.push(`    ${pct(us)}  ${k}`);
  lines.push(`  top functions by self time:`);
  for (const [k, us] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`    ${pct(us)}  ${k}`);
  return lines;
}

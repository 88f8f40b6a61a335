// What every benchmark runner shares: option checks, number formatting, the main wrapper, timed
// child processes and their result lines.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { sql } from "drizzle-orm";
import { openDatabase, rowsOf, type DatabaseHandle, type Db } from "@/db/client";

/** An integer option of at least `min`, or an error naming the option and the value given. */
export function integerOption(name: string, value: string | undefined, min: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer ≥ ${min}, not '${value}'`);
  return n;
}

const HELP = { help: { type: "boolean", short: "h", default: false } } as const;

/** A runner's options (with `--help`/`-h`, which prints the usage line and exits). */
export function benchOptions<const O extends NonNullable<ParseArgsConfig["options"]>>(
  usage: string,
  options: O,
): ReturnType<typeof parseArgs<{ options: O & typeof HELP }>>["values"] {
  const { values } = parseArgs<{ options: O & typeof HELP }>({ options: { ...options, ...HELP } });
  if ((values as { help?: boolean }).help) {
    console.log(usage);
    process.exit(0);
  }
  return values;
}

/** Options that take a value, each with its default (`{ pages: "100000" }`: `--pages N`, "100000" when not given), for `benchOptions`. */
export function stringOptions<const D extends Record<string, string>>(defaults: D): { [K in keyof D]: { type: "string"; default: D[K] } } {
  return Object.fromEntries(Object.entries(defaults).map(([name, value]) => [name, { type: "string", default: value }])) as {
    [K in keyof D]: { type: "string"; default: D[K] };
  };
}

/** Options that take no value, false when not given, for `benchOptions`. */
export function flagOptions<const N extends string>(...names: N[]): { [K in N]: { type: "boolean"; default: false } } {
  return Object.fromEntries(names.map((name) => [name, { type: "boolean", default: false }])) as {
    [K in N]: { type: "boolean"; default: false };
  };
}

/** A `--seed` option: any integer, or an error naming the value given. */
export function seedOption(value: string | undefined): number {
  const seed = Number(value);
  if (!Number.isInteger(seed)) throw new Error(`--seed must be an integer, not '${value}'`);
  return seed;
}

/** A figure with `digits` decimals and thousands separators; "–" for NaN and infinities. */
export function fmt(n: number, digits = 1): string {
  return Number.isFinite(n) ? n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits }) : "–";
}

/** A count with thousands separators. */
export const int = (n: number) => n.toLocaleString("en-US");

/** The 1, 5 and 15 minute load averages with two decimals, separated by spaces. */
export function loadAverage(): string {
  return os
    .loadavg()
    .map((l) => fmt(l, 2))
    .join(" ");
}

/** The line a runner starts with: cores and model, memory, Node, the time and the load average. */
export function machineLine(): string {
  return `machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "?"}, ${fmt(os.totalmem() / 1024 ** 3, 0)} GiB RAM, Node ${process.version}, ${new Date().toISOString()}, load average ${loadAverage()}`;
}

/** The line a runner ends with: the load average, which other work on the machine raises. */
export function printLoadAtEnd(): void {
  console.log(`load average at the end: ${loadAverage()} (other work on the machine skews the figures)`);
}

/** A Markdown table, its columns padded to their widest cell: the first left-aligned, the others right-aligned. */
export function printTable(header: string[], lines: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const row = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(" | ")} |`;
  console.log(row(header));
  console.log(`|${widths.map((w, i) => (i === 0 ? "-".repeat(w + 2) : `${"-".repeat(w + 1)}:`)).join("|")}|`);
  for (const l of lines) console.log(row(l));
}

/** Each row's non-empty notes, under the row's name, as a list. */
export function printNotes<R extends { notes: string[] }>(rows: R[], name: (row: R) => string): void {
  for (const r of rows) {
    const n = r.notes.filter(Boolean);
    if (n.length) console.log(`${name(r)}:\n  - ${n.join("\n  - ")}`);
  }
}

/** The `--database` option of a runner that measures PostgreSQL, PGlite or both: the databases in that order. */
export function databaseTargets(database: string | undefined): ("postgres" | "pglite")[] {
  if (database !== "postgres" && database !== "pglite" && database !== "both")
    throw new Error(`--database must be postgres, pglite or both, not '${database}'`);
  return database === "both" ? ["postgres", "pglite"] : [database];
}

/** Runs a runner's main, printing the stack and exiting 1 when it throws. */
export function runMain(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  });
}

/** Times consecutive steps: `step(name)` records the seconds since the previous step (or the start). */
export function stepTimer(): { steps: [string, number][]; step: (name: string) => void } {
  const steps: [string, number][] = [];
  let t = performance.now();
  return {
    steps,
    step: (name: string) => {
      const now = performance.now();
      steps.push([name, (now - t) / 1000]);
      t = now;
    },
  };
}

/** A child process's run: wall seconds from spawn to exit, peak RSS (GNU time -v) when present, output. */
export interface Timed {
  seconds: number;
  /** Peak RSS from GNU time -v, in bytes, when /usr/bin/time is present. */
  timeRssBytes?: number;
  stdout: string;
  stderr: string;
}

const GNU_TIME = "/usr/bin/time";
/** The repository's root directory. */
export const REPO = fileURLToPath(new URL("..", import.meta.url));

/** A benchmark child's TypeScript file, bench/<folder>/<file>. */
export function benchChild(folder: string, file: string): string {
  return path.join(REPO, "bench", folder, file);
}

/** Runs a command (under GNU time -v when present), timed from spawn to exit; stdout to a file if given. */
export function timedRun(command: string, args: string[], options: { env?: NodeJS.ProcessEnv; stdoutFile?: string } = {}): Promise<Timed> {
  const useTime = fs.existsSync(GNU_TIME);
  const [cmd, argv] = useTime ? [GNU_TIME, ["-v", command, ...args]] : [command, args];
  return new Promise((resolve, reject) => {
    const fd = options.stdoutFile ? fs.openSync(options.stdoutFile, "w") : undefined;
    const t0 = performance.now();
    const child = spawn(cmd, argv, { cwd: REPO, env: options.env ?? process.env, stdio: ["ignore", fd ?? "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout?.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => {
      const seconds = (performance.now() - t0) / 1000;
      if (fd !== undefined) fs.closeSync(fd);
      if (code !== 0) {
        reject(new Error(`${command} ${args.join(" ").slice(0, 300)} exited with ${code}\n${stdout}\n${stderr}`));
        return;
      }
      const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
      resolve({ seconds, timeRssBytes: m ? Number(m[1]) * 1024 : undefined, stdout, stderr });
    });
  });
}

const RESULT_PREFIX = "KPS_BENCH_RESULT ";

/** A benchmark child's result line: `KPS_BENCH_RESULT {json}` on stdout. */
export function reportResult(result: unknown): void {
  process.stdout.write(`${RESULT_PREFIX}${JSON.stringify(result)}\n`);
}

/** The result a child printed with `reportResult`, or an error with its output. */
export function childResult<T>(run: Timed, what: string): T {
  const line = run.stdout.split("\n").find((l) => l.startsWith(RESULT_PREFIX));
  if (!line) throw new Error(`the ${what} child printed no result\n${run.stdout}\n${run.stderr}`);
  return JSON.parse(line.slice(RESULT_PREFIX.length)) as T;
}

/** Samples `read()` now and every `ms` and keeps the highest of each figure; `stop()` samples once more and gives the peaks. */
export function peakSampler<T extends Record<string, number>>(read: () => T, ms: number): { sample: () => void; stop: () => T } {
  const peaks: Record<string, number> = {};
  const sample = () => {
    for (const [k, v] of Object.entries(read())) peaks[k] = Math.max(peaks[k] ?? 0, v);
  };
  sample();
  const timer = setInterval(sample, ms);
  return {
    sample,
    stop: () => {
      clearInterval(timer);
      sample();
      return peaks as T;
    },
  };
}

/** CPU seconds (user + system) this process spent since `start`. */
export function cpuSince(start: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1e6;
}

/** The name and URL of a throwaway database `<prefix>_<random>` on the server of `baseUrl`. */
export function throwawayDatabase(baseUrl: string, prefix: string): { benchDb: string; benchUrl: string } {
  const benchDb = `${prefix}_${randomBytes(4).toString("hex")}`;
  const url = new URL(baseUrl);
  url.pathname = `/${benchDb}`;
  return { benchDb, benchUrl: url.toString() };
}

/**
 * The clean-up of a benchmark run, once, also on Ctrl-C: closes the bench database, drops it (when
 * `created`) through the admin connection, closes that, and removes the temporary directory.
 */
export function cleanupOnce(
  benchDb: string,
  tmp: string,
  state: () => { admin?: DatabaseHandle; bench?: DatabaseHandle; created: boolean },
): () => Promise<void> {
  let cleaned = false;
  const cleanup = async () => {
    if (cleaned) return;
    cleaned = true;
    const { admin, bench, created } = state();
    await bench?.close().catch(() => {});
    if (admin && created) {
      await admin.db
        .execute(sql.raw(`drop database if exists "${benchDb}" with (force)`))
        .catch((e: unknown) => console.error(`could not drop ${benchDb}: ${String(e)}`));
    }
    await admin?.close().catch(() => {});
    fs.rmSync(tmp, { recursive: true, force: true });
  };
  process.once("SIGINT", () => {
    console.error("\ninterrupted: cleaning up");
    void cleanup().finally(() => process.exit(130));
  });
  return cleanup;
}

/** The database a child opens: `--url` (PostgreSQL) or `--data-dir` (PGlite), or an error when neither is given. */
export async function openChildDatabase(values: { url?: string; "data-dir"?: string }): Promise<DatabaseHandle> {
  const handle = values.url
    ? await openDatabase({ url: values.url })
    : values["data-dir"]
      ? await openDatabase({ dataDir: values["data-dir"] })
      : undefined;
  if (!handle) throw new Error("--url or --data-dir is required");
  return handle;
}

/** The server's version, such as "16.4" (without the distribution's suffix). */
export async function serverVersion(db: Db): Promise<string | undefined> {
  const [row] = rowsOf<{ v: string }>(await db.execute(sql.raw(`select split_part(current_setting('server_version'), ' ', 1) as v`)));
  return row?.v;
}

/** psql's arguments to connect, quietly and stopping at the first error, to database `db` on `url`'s server, and its environment (the password). */
export function psqlConnection(url: string, db: string): { args: string[]; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const args = [
    "-X",
    "-q",
    "-v",
    "ON_ERROR_STOP=1",
    "-h",
    u.hostname,
    "-p",
    u.port || "5432",
    "-U",
    decodeURIComponent(u.username || "postgres"),
    "-d",
    db,
  ];
  return { args, env: u.password ? { ...process.env, PGPASSWORD: decodeURIComponent(u.password) } : process.env };
}

/** A benchmark's throwaway PostgreSQL database and temporary directory; `admin`, `bench` and `created` are what `cleanup` closes and drops. */
export interface BenchWorkspace {
  /** `DATABASE_URL`, or the local server's postgres database. */
  baseUrl: string;
  benchDb: string;
  benchUrl: string;
  tmp: string;
  admin?: DatabaseHandle;
  bench?: DatabaseHandle;
  created: boolean;
  cleanup: () => Promise<void>;
}

/**
 * The start of a benchmark on PostgreSQL: the working directory at the repository (migrations are
 * found from it), a throwaway database `<dbPrefix>_<random>` named on `DATABASE_URL`'s server (not
 * made yet), a temporary directory `<tmpPrefix>…`, and their clean-up once, also on Ctrl-C.
 */
export function benchWorkspace(dbPrefix: string, tmpPrefix: string): BenchWorkspace {
  process.chdir(REPO);
  const baseUrl = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
  const { benchDb, benchUrl } = throwawayDatabase(baseUrl, dbPrefix);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), tmpPrefix));
  const ws: BenchWorkspace = { baseUrl, benchDb, benchUrl, tmp, created: false, cleanup: async () => {} };
  ws.cleanup = cleanupOnce(benchDb, tmp, () => ws);
  return ws;
}

/** Makes the workspace's database through an admin connection to the base server, and opens it. */
export async function createBenchDatabase(ws: BenchWorkspace): Promise<DatabaseHandle> {
  ws.admin ??= await openDatabase({ url: ws.baseUrl });
  await ws.admin.db.execute(sql.raw(`create database "${ws.benchDb}"`));
  ws.created = true;
  ws.bench = await openDatabase({ url: ws.benchUrl });
  return ws.bench;
}

/** A row of a benchmark's result table: what one run wrote, how long it took, its peak memory. */
export interface ResultRow {
  bytes: number;
  seconds: number;
  peakRssBytes?: number;
  /** seconds ÷ the baseline's seconds */
  ratio?: number;
  notes: string[];
}

/**
 * A child script bundled into one JavaScript file (esbuild, which tsx brings along; packages stay in
 * node_modules) at bench/out/<outName>, so plain node runs it as the app's compiled code runs: tsx's
 * loader holds ~70 MB an app process never has. `undefined` when esbuild is missing or fails (then
 * the child runs under tsx); `what` names it in that message.
 */
export async function bundleChild(child: string, outName: string, what: string): Promise<string | undefined> {
  const outfile = path.join(REPO, "bench", "out", outName);
  try {
    const { build } = await import("esbuild");
    await build({
      entryPoints: [child],
      outfile,
      bundle: true,
      platform: "node",
      format: "esm",
      packages: "external",
      tsconfig: path.join(REPO, "tsconfig.json"),
      logLevel: "warning",
    });
    return outfile;
  } catch (error) {
    console.log(`could not bundle ${what} (${String(error)}): it runs under tsx`);
    return undefined;
  }
}

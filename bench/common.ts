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
import { openDatabase, type DatabaseHandle } from "@/db/client";

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
const REPO = fileURLToPath(new URL("..", import.meta.url));

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

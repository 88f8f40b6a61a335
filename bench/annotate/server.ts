// The production build and server: `npx next build` when .next is missing or older than the
// sources, then `node server/production-server.mjs --port N` in a child process, killed by its pid at the end.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

/** What the build reads: sources (tests excluded) and configuration. */
const SOURCES = [
  "app",
  "lib",
  "db",
  "components",
  "public",
  "instrumentation.ts",
  "next.config.ts",
  "package.json",
  "package-lock.json",
  "tsconfig.json",
  "server/fast-path.ts",
  "scripts/build-fast-path.mjs",
];

function newestSource(repo: string): { file: string; mtimeMs: number } {
  let newest = { file: "", mtimeMs: 0 };
  const visit = (p: string) => {
    let st: fs.Stats;
    try {
      st = fs.statSync(p);
    } catch {
      return;
    }
    if (st.isDirectory()) {
      for (const e of fs.readdirSync(p)) if (e !== "node_modules" && !e.startsWith(".")) visit(path.join(p, e));
    } else if (!/\.test\.tsx?$/.test(p) && st.mtimeMs > newest.mtimeMs) {
      newest = { file: path.relative(repo, p), mtimeMs: st.mtimeMs };
    }
  };
  for (const s of SOURCES) visit(path.join(repo, s));
  return newest;
}

/** Why the build is needed, or undefined when .next is up to date. */
export function buildNeeded(repo: string): string | undefined {
  const buildId = path.join(repo, ".next", "BUILD_ID");
  if (!fs.existsSync(buildId)) return ".next has no BUILD_ID";
  const built = fs.statSync(buildId).mtimeMs;
  const newest = newestSource(repo);
  return newest.mtimeMs > built ? `${newest.file} is newer than .next/BUILD_ID` : undefined;
}

export async function build(repo: string, logFile: string): Promise<number> {
  const t = performance.now();
  const log = fs.openSync(logFile, "w");
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn("npx", ["next", "build"], {
        cwd: repo,
        stdio: ["ignore", log, log],
        env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
      });
      child.on("error", reject);
      child.on("exit", resolve);
    });
    if (code !== 0) throw new Error(`npx next build exited with ${code}:\n${tail(logFile, 40)}`);
  } finally {
    fs.closeSync(log);
  }
  return (performance.now() - t) / 1000;
}

export function tail(file: string, lines: number): string {
  try {
    return fs.readFileSync(file, "utf8").split("\n").slice(-lines).join("\n");
  } catch {
    return "";
  }
}

function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

export interface Server {
  pid: number;
  url: string;
  logFile: string;
  /** CPU seconds (user + system) the server has used so far, from /proc: the process and its workers. */
  cpuSeconds(): number | undefined;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process is gone. */
  stop(graceMs?: number): Promise<void>;
}

export async function startServer(opts: {
  repo: string;
  port: number;
  env: NodeJS.ProcessEnv;
  logFile: string;
  cpuProfDir?: string;
  /** Flags for node itself, before the script (--trace-gc). */
  nodeFlags?: string[];
}): Promise<Server> {
  if (await portInUse(opts.port)) throw new Error(`port ${opts.port} is in use: stop whatever listens there (or pick another with --port)`);
  const log = fs.openSync(opts.logFile, "w");
  const args = [
    ...(opts.nodeFlags ?? []),
    ...(opts.cpuProfDir ? ["--cpu-prof", "--cpu-prof-dir", opts.cpuProfDir] : []),
    "server/production-server.mjs",
    "--port",
    String(opts.port),
  ];
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: opts.repo,
    stdio: ["ignore", log, log],
    // 200 simulated annotators share 127.0.0.1: lift the per-address connection cap (default 64).
    env: { KPS_MAX_CONNECTIONS_PER_ADDRESS: "1000", ...opts.env, HOSTNAME: "127.0.0.1", NEXT_TELEMETRY_DISABLED: "1" },
  });
  fs.closeSync(log);
  let exited: number | null | undefined;
  const gone = new Promise<void>((resolve) =>
    child.once("exit", (code, signal) => {
      exited = code ?? (signal ? -1 : null);
      resolve();
    }),
  );
  const pid = child.pid!;
  const url = `http://127.0.0.1:${opts.port}`;
  const server: Server = {
    pid,
    url,
    logFile: opts.logFile,
    cpuSeconds: () => processTreeCpuSeconds(pid),
    async stop(graceMs = 15_000) {
      if (exited !== undefined) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      await gone;
      clearTimeout(timer);
    },
  };
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (exited !== undefined) throw new Error(`the server exited with ${exited} before it was ready:\n${tail(opts.logFile, 30)}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error(`the server was not healthy within 180 s:\n${tail(opts.logFile, 30)}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return server;
}

/** CLK_TCK on Linux. */
const TICKS = 100;

/** The fields of /proc/<pid>/stat after the command name (index 0 = state, 1 = ppid, 11 = utime…). */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

/** CPU seconds (user + system) of one process, with those of its children that ended (waited for). */
export function processCpuSeconds(pid: number): number | undefined {
  const f = statFields(pid);
  return f ? (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / TICKS : undefined;
}

/** The pids of a process's descendants, from the ppid of every process in /proc. */
export function descendantPids(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const ppid = Number(statFields(Number(entry))?.[1]);
    if (ppid) children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
  }
  const out: number[] = [];
  const visit = (p: number) => {
    for (const c of children.get(p) ?? []) {
      out.push(c);
      visit(c);
    }
  };
  visit(pid);
  return out;
}

/**
 * CPU seconds of the server: the process (with KPS_WORKERS, the cluster's primary) and every live
 * descendant (the workers), each with its ended children (a worker that died and was replaced).
 */
export function processTreeCpuSeconds(pid: number): number | undefined {
  const own = processCpuSeconds(pid);
  if (own === undefined) return undefined;
  return descendantPids(pid).reduce((sum, p) => sum + (processCpuSeconds(p) ?? 0), own);
}

/**
 * A copy of the committed tree (git HEAD) with the repository's node_modules hard-linked in, for
 * `--snapshot`: the measured build is then isolated from work in progress in the shared checkout
 * and does not overwrite its .next while another process (an e2e run) serves from it. Kept in
 * $TMPDIR/kps-bench-annotate-snapshot/<commit>/ and reused while HEAD stays the same (older ones
 * removed) — outside the checkout, where tsc's "**\/*.ts" and Next.js's type check would pick it up.
 */
export async function snapshotOfHead(repo: string): Promise<{ dir: string; commit: string; built: boolean }> {
  const commit = (await run("git", ["rev-parse", "--short", "HEAD"], repo)).trim();
  const parent = path.join(os.tmpdir(), "kps-bench-annotate-snapshot");
  const dir = path.join(parent, commit);
  if (fs.existsSync(parent)) {
    for (const old of fs.readdirSync(parent)) if (old !== commit) fs.rmSync(path.join(parent, old), { recursive: true, force: true });
  }
  if (fs.existsSync(path.join(dir, ".next", "BUILD_ID"))) return { dir, commit, built: true };
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  await run("sh", ["-c", `git archive HEAD | tar -x -C '${dir}'`], repo);
  await run("cp", ["-al", path.join(repo, "node_modules"), path.join(dir, "node_modules")], repo);
  return { dir, commit, built: false };
}

function run(command: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout!.setEncoding("utf8").on("data", (d: string) => (out += d));
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (out += d));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${command} ${args.join(" ")} exited with ${code}\n${out}`)),
    );
  });
}

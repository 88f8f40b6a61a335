// `--perf`: where the machine's CPU goes over the measured window, sampled by Linux perf (all
// processes, call stacks), and PostgreSQL's share split by what its backends were doing: the
// executor's phases, triggers, constraint checks, commit. Needs `perf` (Debian: linux-perf) and the
// right to sample every process (root, or kernel.perf_event_paranoid ≤ 0).
import { spawn, spawnSync } from "node:child_process";
import readline from "node:readline";

/** The phases of a backend's work, by a frame their stacks hold (the first that matches, in this order). */
const PHASES: [frame: string, phase: string][] = [
  ["plpgsql_exec_trigger", "PL/pgSQL triggers (tallies, outcome versions)"],
  ["AfterTriggerEndQuery", "foreign-key checks (constraint triggers)"],
  ["ExecConstraints", "CHECK constraints"],
  ["standard_ExecutorStart", "executor start (a plan's nodes set up)"],
  ["ExecInsertIndexTuples", "index entries"],
  ["standard_ExecutorEnd", "executor end"],
  ["standard_ExecutorRun", "executor run (scans, joins, rows written)"],
  ["GetCachedPlan", "cached plan checked (its tables locked)"],
  ["CommitTransactionCommand", "commit"],
  ["finish_xact_command", "commit"],
  ["exec_bind_message", "bind"],
  ["secure_read", "network"],
  ["secure_write", "network"],
];

export function perfAvailable(): boolean {
  return spawnSync("perf", ["--version"], { stdio: "ignore" }).status === 0;
}

/** Samples every process for `seconds` (cpu-clock, 499 Hz, call graphs) into `file`; resolves when done. */
export function perfRecord(file: string, seconds: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("perf", ["record", "-q", "-e", "cpu-clock", "-F", "499", "-a", "-g", "-o", file, "--", "sleep", String(seconds)], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`perf record exited with ${code}: ${err.trim().slice(-500)}`))));
  });
}

/** The share of the samples by process name, and PostgreSQL's by phase, as printable lines. */
export async function perfBreakdown(file: string): Promise<string[]> {
  const child = spawn("perf", ["script", "-i", file, "-F", "comm,ip,sym"], { stdio: ["ignore", "pipe", "ignore"] });
  const byComm = new Map<string, number>();
  const byPhase = new Map<string, number>();
  let total = 0;
  let comm: string | null = null;
  let frames = new Set<string>();
  const close = () => {
    if (comm === null) return;
    total++;
    const name = comm === "postgres" || comm === "node" ? comm : "other";
    byComm.set(name, (byComm.get(name) ?? 0) + 1);
    if (comm === "postgres") {
      const phase = PHASES.find(([frame]) => frames.has(frame))?.[1] ?? "other";
      byPhase.set(phase, (byPhase.get(phase) ?? 0) + 1);
    }
    comm = null;
    frames = new Set();
  };
  for await (const line of readline.createInterface({ input: child.stdout })) {
    if (!line.trim()) close();
    else if (!/^\s/.test(line)) {
      close();
      comm = line.trim().split(/\s+/)[0] ?? "";
    } else {
      const sym = line.trim().split(/\s+/)[1];
      if (sym) frames.add(sym.replace(/\+0x[0-9a-f]+$/, ""));
    }
  }
  close();
  const postgres = byComm.get("postgres") ?? 0;
  if (!total) return ["--perf: no samples"];
  const pct = (n: number, of: number) => `${((n / of) * 100).toFixed(1)}%`;
  return [
    `--perf: ${total.toLocaleString("en-US")} CPU samples of every process (cpu-clock, 499 Hz): ` +
      [...byComm]
        .sort((a, b) => b[1] - a[1])
        .map(([c, n]) => `${c} ${pct(n, total)}`)
        .join(", "),
    postgres
      ? `--perf: PostgreSQL's samples by what the backend was doing: ` +
        [...byPhase]
          .sort((a, b) => b[1] - a[1])
          .map(([p, n]) => `${p} ${pct(n, postgres)}`)
          .join("; ")
      : "--perf: no PostgreSQL samples",
  ];
}

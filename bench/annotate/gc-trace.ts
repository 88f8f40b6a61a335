// --trace-gc: the app server's garbage-collection pauses in the measured window. The server's
// processes run with node's --trace-gc, which prints a line per collection to the server's log with
// the time since that process's start; the window is mapped onto each process's clock through its
// start time in /proc.
import fs from "node:fs";

/** One collection as --trace-gc prints it: "[13582:0x44a43dc0]    75478 ms: Scavenge 150.3 (171.8) -> 137.9 (172.3) MB, 25.78 / 0.44 ms …". */
export interface GcPause {
  pid: number;
  /** Milliseconds since the process's V8 isolate started. */
  atMs: number;
  kind: "scavenge" | "mark-compact" | "other";
  /** The main thread's pause (the first of the two figures before "ms"). */
  pauseMs: number;
}

const LINE = /^\[(\d+):0x[0-9a-f]+\]\s+(\d+) ms: ([A-Za-z-]+)[^,\n]*? MB, ([\d.]+) \/ [\d.]+ ms/gm;

export function parseTraceGc(text: string): GcPause[] {
  const pauses: GcPause[] = [];
  for (const m of text.matchAll(LINE)) {
    const kind = m[3] === "Scavenge" ? "scavenge" : m[3] === "Mark-Compact" ? "mark-compact" : "other";
    pauses.push({ pid: Number(m[1]), atMs: Number(m[2]), kind, pauseMs: Number(m[4]) });
  }
  return pauses;
}

/** /proc's clock ticks per second (USER_HZ), 100 on Linux whatever the kernel's own tick rate. */
const USER_HZ = 100;

/** A process's start on the wall clock (ms since the epoch), from /proc; undefined when it is gone or not Linux. */
export function processStartWallMs(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // Field 22 (starttime), counted after the command name's closing parenthesis (it may hold spaces).
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const startTicks = Number(fields[19]);
    const bootSeconds = Number(/^btime (\d+)$/m.exec(fs.readFileSync("/proc/stat", "utf8"))?.[1]);
    if (!Number.isFinite(startTicks) || !Number.isFinite(bootSeconds)) return undefined;
    return bootSeconds * 1000 + (startTicks * 1000) / USER_HZ;
  } catch {
    return undefined;
  }
}

function fmt(n: number, digits = 1): string {
  return n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/**
 * One line per process of the pauses that fell in the window (`from`–`to`, wall clock ms), with the
 * share of the window it spent paused. `starts`: each process's start on the
 * wall clock (processStartWallMs, read while it ran). A process's isolate starts a little after the
 * process (tens of ms), so a pause at the window's edges may be counted in or out wrongly.
 */
export function gcSummary(text: string, starts: ReadonlyMap<number, number>, window: { from: number; to: number }): string[] {
  const seconds = (window.to - window.from) / 1000;
  const byPid = new Map<number, GcPause[]>();
  for (const p of parseTraceGc(text)) {
    const start = starts.get(p.pid);
    if (start === undefined) continue;
    const at = start + p.atMs;
    if (at < window.from || at > window.to) continue;
    const of = byPid.get(p.pid) ?? [];
    of.push(p);
    byPid.set(p.pid, of);
  }
  if (!byPid.size) return [`--trace-gc: no collection of the server's processes (${[...starts.keys()].join(", ")}) fell in the window`];
  const lines = ["app server's garbage collection in the measured window (node --trace-gc; main-thread pauses):"];
  for (const [pid, pauses] of [...byPid].sort((a, b) => a[0] - b[0])) {
    const parts = (["scavenge", "mark-compact", "other"] as const).flatMap((kind) => {
      const of = pauses.filter((p) => p.kind === kind).map((p) => p.pauseMs);
      if (!of.length) return [];
      const sum = of.reduce((a, b) => a + b, 0);
      const name = `${kind === "other" ? "other collection" : kind}${of.length === 1 ? "" : "s"}`;
      return [
        `${of.length} ${name}, ${fmt(sum, 0)} ms in all (max ${fmt(Math.max(...of))} ms, ${of.filter((ms) => ms > 10).length} over 10 ms)`,
      ];
    });
    const paused = pauses.reduce((sum, p) => sum + p.pauseMs, 0);
    lines.push(`  process ${pid}: ${parts.join("; ")}: paused ${fmt((paused / (seconds * 1000)) * 100, 2)}% of the window`);
  }
  return lines;
}

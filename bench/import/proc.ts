// CPU time of the local PostgreSQL server, read from /proc (Linux; undefined elsewhere).
// Sums utime+stime of every process named "postgres", plus cutime+cstime (the postmaster's
// cutime/cstime hold the CPU of backends that have already exited). Counts every database on the
// server: run the benchmark on an otherwise idle server for meaningful figures.
import { execFileSync } from "node:child_process";
import fs from "node:fs";

let ticks: number | undefined;

function clockTicks(): number {
  if (ticks === undefined) {
    try {
      ticks = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    } catch {
      ticks = 100;
    }
  }
  return ticks;
}

export function postgresCpuSeconds(): number | undefined {
  let entries: string[];
  try {
    entries = fs.readdirSync("/proc");
  } catch {
    return undefined;
  }
  let total = 0;
  let seen = false;
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue;
    }
    const open = stat.indexOf("(");
    const close = stat.lastIndexOf(")");
    if (stat.slice(open + 1, close) !== "postgres") continue;
    const rest = stat.slice(close + 2).split(" ");
    // Fields 14–17 of proc(5): utime, stime, cutime, cstime; rest[] starts at field 3.
    total += Number(rest[11]) + Number(rest[12]) + Number(rest[13]) + Number(rest[14]);
    seen = true;
  }
  return seen ? total / clockTicks() : undefined;
}

import { type Command, InvalidArgumentError } from "commander";
import type { z } from "zod";
import { createWriteStream, statSync } from "node:fs";
import { fieldProblems } from "@/lib/errors";
import { formatBytes } from "@/lib/format";
import { MAX_PAGE } from "@/lib/list-options.contract";
import { ApiError, type ApiClient } from "../api-client";

/** What every command group gets from the program: the global options, resolved when a command runs. */
export interface CliContext {
  /** The global --url. */
  url(): string;
  /** A client for the global --url and --token. */
  client(): ApiClient;
  /** Fails with a hint when no --token (or KPS_TOKEN) is set. */
  needToken(): void;
}

export function out(line: string) {
  process.stdout.write(line + "\n");
}

export function note(line: string) {
  process.stderr.write(line + "\n");
}

/** Parses command arguments with a shared zod schema, naming the bad option on failure. */
export function parseArgs<S extends z.ZodType>(schema: S, value: unknown, optionNames: Record<string, string> = {}): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const lines = fieldProblems(result.error).map((p) => `  --${optionNames[p.field] ?? p.field}: ${p.message}`);
  throw new ApiError(`Invalid arguments:\n${lines.join("\n")}`, 0, "invalid");
}

/** An option parser for a number; `name` is the option, for the message. */
export const number = (name: string) => (v: string) => {
  const n = Number(v);
  if (v.trim() === "" || !Number.isFinite(n)) throw new InvalidArgumentError(`${name} must be a number.`);
  return n;
};

/** An argument parser for a file that must exist. */
export const existingFile = (v: string) => {
  const st = statSync(v, { throwIfNoEntry: false });
  if (!st?.isFile()) throw new InvalidArgumentError(`no such file: ${v}`);
  return v;
};

/** Where a download goes: the -o file, or standard output for none or "-". */
export const outputOf = (file?: string) => (file && file !== "-" ? createWriteStream(file) : process.stdout);

/** Upload progress on stderr: a redrawn line on a terminal, a line per 10% otherwise. */
export function progressPrinter(label: string) {
  let lastTenth = -1;
  let shown = false;
  const print = (sent: number, total: number) => {
    const pct = total ? Math.min(100, Math.floor((sent / total) * 100)) : 100;
    if (process.stderr.isTTY) {
      process.stderr.write(`\r${label}: ${formatBytes(sent)} of ${formatBytes(total)} (${pct}%)   `);
      shown = true;
    } else if (Math.floor(pct / 10) > lastTenth) {
      lastTenth = Math.floor(pct / 10);
      note(`${label}: ${formatBytes(sent)} of ${formatBytes(total)} (${pct}%)`);
    }
  };
  return Object.assign(print, {
    done() {
      if (shown) process.stderr.write("\n");
    },
  });
}

/** Reads every page of a paged list route (`?after=` the `next` of the page before) and hands each row to `each`; returns how many. */
export async function eachOfPaged<T>(
  ctx: CliContext,
  path: string,
  key: string,
  each: (row: T) => void,
  params: Record<string, string> = {},
): Promise<number> {
  let after: number | null = null;
  let total = 0;
  do {
    const query: URLSearchParams = new URLSearchParams({
      ...params,
      limit: String(MAX_PAGE),
      ...(after === null ? {} : { after: String(after) }),
    });
    const { data }: { data: Record<string, unknown> & { next: number | null } } = await ctx.client().request("GET", `${path}?${query}`);
    const rows = data[key] as T[];
    rows.forEach(each);
    total += rows.length;
    after = data.next;
  } while (after !== null);
  return total;
}

/**
 * The body of a `list [--search]` command: every page of `path` (the search as `q`, checked with
 * the route's own `schema`), one line per row on stdout, then "Listed N <noun>." on stderr.
 */
export async function listEvery<T>(
  ctx: CliContext,
  list: {
    path: string;
    key: string;
    schema: z.ZodType;
    search: string | undefined;
    noun: readonly [string, string];
    header?: string;
    line: (row: T) => string;
  },
): Promise<void> {
  ctx.needToken();
  const { q } = parseArgs(list.schema, { q: list.search }, { q: "search" }) as { q?: string };
  if (list.header) out(list.header);
  const total = await eachOfPaged<T>(ctx, list.path, list.key, (row) => out(list.line(row)), q ? { q } : {});
  note(`Listed ${total} ${total === 1 ? list.noun[0] : list.noun[1]}.`);
}

/** What an offline command (score, aggregate) made of its files: the lines to print, or the problems found. */
export type OfflineReport = { ok: true; stdout: string[]; summary: string } | { ok: false; stderr: string[] };

/** Prints an offline report: its lines on stdout and the summary on stderr; with problems, those and `failure` (exit 422). */
export function printReport(report: OfflineReport, failure: string): void {
  if (!report.ok) {
    for (const line of report.stderr) note(line);
    throw new ApiError(failure, 422, "invalid");
  }
  // `kps score … | head` closes the pipe early: that is no error.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
  });
  for (const line of report.stdout) out(line);
  note(report.summary);
}

/** A command that reads files and needs no app (score, aggregate): its description says so. */
export const offlineCommand = (program: Command, name: string, description: string) =>
  program.command(name).description(`${description} (offline: no app needed)`);

// Child process of bench/export/run.ts: one export through the app's own path, in a process of its
// own so that its peak RSS is the export's. Prints one JSON line at the end.
//
//   node --import tsx bench/export/export-child.ts --kind kilt|judgments --campaign ID --out FILE (--url URL | --data-dir DIR)
//   node --import tsx bench/export/export-child.ts --kind open-only (--url URL | --data-dir DIR)
//   node --import tsx bench/export/export-child.ts --kind pglite-copy --sql-file F --out FILE --data-dir DIR
//
// kilt / judgments: the generator (exportKilt with location "span", or exportJudgments) goes through
// the same streaming the HTTP routes use (`primed` + `linesResponse` from app/_server/downloads.ts:
// lines gathered into ~64 KB chunks, or the judgments export's bytes passed on) and its body is
// piped into FILE. Timed: from the generator's
// creation to the file's close. The database's `execute` is wrapped to add up the time spent
// awaiting SQL (round trip + the driver decoding rows), per statement kind; the rest is JavaScript
// (building lines, JSON, streaming, writing).
// open-only: opens the database, runs one query, reports: the memory floor of such a process.
// pglite-copy: PGlite's own `COPY (…) TO '/dev/blob'` of a SELECT, written to FILE (the PGlite
// counterpart of the psql COPY baseline).
import fs from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { parseArgs } from "node:util";
import { sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { rawClientOf, type Db } from "@/db/client";
import { system } from "@/lib/auth/actor";
import { exportJudgments } from "@/lib/campaign/report/export-judgments";
import { exportKilt, type ExportReport } from "@/lib/campaign/report/export-kilt";
import { linesResponse, primed } from "@/app/_server/downloads";
import { postgresCpuSeconds } from "../import/proc";
import { cpuSince, openChildDatabase, peakSampler, reportResult, runMain } from "../common";

export interface SqlStat {
  calls: number;
  seconds: number;
  rows: number;
}

export interface ChildReport {
  kind: string;
  seconds: number;
  lines: number;
  bytes: number;
  /** process.resourceUsage().maxRSS, in KiB. */
  maxRssKiB: number;
  /** Highest values seen by a 100 ms sampler of process.memoryUsage(), bytes. */
  maxMemory?: { rss: number; heapUsed: number; heapTotal: number; external: number; arrayBuffers: number };
  cpuSeconds: number;
  serverCpuSeconds?: number;
  /** Time awaiting db.execute, by statement kind. */
  sql?: Record<string, SqlStat>;
  report?: Omit<ExportReport, "unanswerable"> & { unanswerable: number };
}

function kindOf(text: string): string {
  if (/from queries q\s/.test(text) && /limit/.test(text) && !/join/.test(text)) return "kilt: questions page";
  if (/from passages p join pages pg/.test(text)) return "kilt: passages + pages";
  if (/row_number\(\) over/.test(text)) return "kilt: highlights";
  if (/from judgments j\s/.test(text) && /as counted/.test(text)) return "judgments: page";
  if (/from campaigns/.test(text)) return "campaign";
  return "other";
}

/** Wraps db.execute to add up the time spent awaiting each statement (sequential awaits: no overlap). */
function instrument(db: Db, stats: Record<string, SqlStat>) {
  const dialect = new PgDialect();
  const execute = db.execute.bind(db) as (q: SQL) => Promise<unknown>;
  (db as unknown as { execute: (q: SQL) => Promise<unknown> }).execute = async (q: SQL) => {
    const kind = kindOf(dialect.sqlToQuery(q).sql);
    const t0 = performance.now();
    const result = await execute(q);
    const s = (stats[kind] ??= { calls: 0, seconds: 0, rows: 0 });
    s.calls++;
    s.seconds += (performance.now() - t0) / 1000;
    s.rows += Array.isArray(result) ? result.length : ((result as { rows?: unknown[] }).rows?.length ?? 0);
    return result;
  };
}

/** The process's memory figures; sampled for their peaks during an export. */
function memoryNow() {
  const m = process.memoryUsage();
  return { rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, arrayBuffers: m.arrayBuffers };
}

async function main() {
  const { values } = parseArgs({
    options: {
      kind: { type: "string" },
      campaign: { type: "string" },
      out: { type: "string" },
      url: { type: "string" },
      "data-dir": { type: "string" },
      "sql-file": { type: "string" },
    },
  });
  const kind = values.kind ?? "";
  const handle = await openChildDatabase(values);
  try {
    if (kind === "open-only") {
      const t0 = performance.now();
      await handle.db.execute(sql`select count(*) from campaigns`);
      reportResult({
        kind,
        seconds: (performance.now() - t0) / 1000,
        lines: 0,
        bytes: 0,
        maxRssKiB: process.resourceUsage().maxRSS,
        cpuSeconds: 0,
      });
      return;
    }
    const out = values.out;
    if (!out) throw new Error("--out is required");

    if (kind === "pglite-copy") {
      const raw = rawClientOf(handle.db);
      if (raw.kind !== "pglite") throw new Error("pglite-copy needs --data-dir");
      const select = fs.readFileSync(values["sql-file"] ?? "", "utf8");
      const memory = peakSampler(memoryNow, 100);
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      const result = await raw.client.query(`copy (${select}) to '/dev/blob'`);
      const blob = result.blob;
      if (!blob) throw new Error("COPY TO '/dev/blob' returned no blob");
      const bytes = Buffer.from(await blob.arrayBuffer());
      fs.writeFileSync(out, bytes);
      const seconds = (performance.now() - t0) / 1000;
      let lines = 0;
      for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, i + 1)) lines++;
      reportResult({
        kind,
        seconds,
        lines,
        bytes: bytes.length,
        maxRssKiB: process.resourceUsage().maxRSS,
        maxMemory: memory.stop(),
        cpuSeconds: cpuSince(cpu0),
      });
      return;
    }

    const campaignId = Number(values.campaign);
    if (!Number.isInteger(campaignId)) throw new Error("--campaign is required");
    const stats: Record<string, SqlStat> = {};
    instrument(handle.db, stats);
    const memory = peakSampler(memoryNow, 100);
    const server0 = handle.kind === "postgres" ? postgresCpuSeconds() : undefined;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    let exportReport: ExportReport | undefined;
    const generator =
      kind === "kilt"
        ? exportKilt(handle.db, system, campaignId, { location: "span" }, (r) => (exportReport = r))
        : kind === "judgments"
          ? exportJudgments(handle.db, system, campaignId)
          : undefined;
    if (!generator) throw new Error(`--kind must be kilt, judgments, open-only or pglite-copy, not '${kind}'`);
    let lines = 0;
    const counted = (async function* () {
      for await (const chunk of generator as AsyncGenerator<string | Uint8Array>) {
        if (typeof chunk === "string") lines++;
        else for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
        yield chunk;
      }
    })();
    // As the HTTP routes do: primed generator → linesResponse (a ReadableStream of encoded lines).
    const response = linesResponse(await primed(counted), "bench.jsonl");
    await pipeline(Readable.fromWeb(response.body! as import("node:stream/web").ReadableStream<Uint8Array>), fs.createWriteStream(out));
    const seconds = (performance.now() - t0) / 1000;
    const cpuSeconds = cpuSince(cpu0);
    const server1 = handle.kind === "postgres" ? postgresCpuSeconds() : undefined;
    reportResult({
      kind,
      seconds,
      lines,
      bytes: fs.statSync(out).size,
      maxRssKiB: process.resourceUsage().maxRSS,
      maxMemory: memory.stop(),
      cpuSeconds,
      serverCpuSeconds: server0 !== undefined && server1 !== undefined ? server1 - server0 : undefined,
      sql: stats,
      report: exportReport ? { ...exportReport, unanswerable: exportReport.unanswerable.length } : undefined,
    });
  } finally {
    await handle.close();
  }
}

runMain(main);

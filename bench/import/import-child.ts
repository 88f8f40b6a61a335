// Child process of bench/import/run.ts: one knowledge-source import through the app's own path,
// in a process of its own so that its peak RSS is the import's. Prints one JSON line at the end.
//
//   node --import tsx bench/import/import-child.ts --file F (--url URL | --data-dir DIR)
//   node --import tsx bench/import/import-child.ts --file F --parse-only
//   node --import tsx bench/import/import-child.ts --file F (--url URL | --data-dir DIR) --open-only
//
// --parse-only runs the import's JavaScript side alone (read lines, JSON.parse, schema validation,
// COPY escaping) without a database: the CPU cost the app pays before PostgreSQL sees a byte.
// --open-only opens the database, runs one query and reports: the memory floor of such a process.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { copyTextArray, copyValue } from "@/db/bulk";
import { system } from "@/lib/auth/actor";
import { importKnowledge, MAX_KNOWLEDGE_LINE_BYTES } from "@/lib/knowledge/import-knowledge";
import { readLines } from "@/lib/kilt/jsonl";
import { knowledgeRecordSchema } from "@/lib/kilt/schemas";
import { residentSplit } from "./memory";
import { postgresCpuSeconds } from "./proc";
import { cpuSince, openChildDatabase, peakSampler, reportResult, runMain } from "../common";

export interface ChildReport {
  seconds: number;
  /** Seconds until the last row reached the staging table (read + validate + COPY). */
  stageSeconds?: number;
  pages: number;
  lines: number;
  bytes: number;
  /** process.resourceUsage().maxRSS, in KiB. */
  maxRssKiB: number;
  /** maxRSS when the last row had reached the staging table (before the upsert), in KiB. */
  stageMaxRssKiB?: number;
  /** process.memoryUsage() at that moment, in bytes (a WebAssembly memory counts in arrayBuffers). */
  stageMemory?: NodeJS.MemoryUsage;
  /** The highest of each memory figure sampled every 2 s (bytes; wasm/anon/files from /proc/self/smaps). */
  peaks?: Record<string, number>;
  /** The same figures once the database is open (before the import). */
  opened?: Record<string, number>;
  /** CPU seconds of this process during the import. */
  cpuSeconds: number;
  /** CPU seconds of the local PostgreSQL server's processes during the import (when visible). */
  serverCpuSeconds?: number;
}

function memoryNow(): Record<string, number> {
  const u = process.memoryUsage();
  const split = residentSplit();
  return {
    rss: split?.rss ?? u.rss,
    heapTotal: u.heapTotal,
    heapUsed: u.heapUsed,
    arrayBuffers: u.arrayBuffers,
    external: u.external,
    wasm: split?.wasm ?? 0,
    anon: split?.anon ?? 0,
    files: split?.files ?? 0,
  };
}

async function main() {
  const { values } = parseArgs({
    options: {
      file: { type: "string" },
      url: { type: "string" },
      "data-dir": { type: "string" },
      "parse-only": { type: "boolean", default: false },
      "open-only": { type: "boolean", default: false },
    },
  });
  const file = values.file ?? "";
  if (!file && !values["open-only"]) throw new Error("--file is required");

  if (values["parse-only"]) {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    let pages = 0;
    let lines = 0;
    let bytes = 0;
    let sink = 0;
    for await (const line of readLines(fs.createReadStream(file), {
      file,
      maxLineBytes: MAX_KNOWLEDGE_LINE_BYTES,
      onBytes: (b) => (bytes = b),
    })) {
      lines++;
      const record = knowledgeRecordSchema.parse(JSON.parse(line.text));
      const row = [String(line.lineNumber), copyValue(record.wikipedia_id), copyValue(record.wikipedia_title), copyTextArray(record.text)];
      sink += (row.join("\t") + "\n").length;
      pages++;
    }
    if (sink < 0) console.error(sink);
    reportResult({
      seconds: (performance.now() - t0) / 1000,
      pages,
      lines,
      bytes,
      maxRssKiB: process.resourceUsage().maxRSS,
      cpuSeconds: cpuSince(cpu0),
    });
    return;
  }

  const handle = await openChildDatabase(values);
  try {
    if (values["open-only"]) {
      const t0 = performance.now();
      await handle.db.execute(sql`select count(*) from pages`);
      reportResult({
        seconds: (performance.now() - t0) / 1000,
        pages: 0,
        lines: 0,
        bytes: 0,
        maxRssKiB: process.resourceUsage().maxRSS,
        cpuSeconds: 0,
        opened: memoryNow(),
      });
      return;
    }
    const opened = memoryNow();
    const sampler = peakSampler(memoryNow, 2000);
    const server0 = handle.kind === "postgres" ? postgresCpuSeconds() : undefined;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    let lastProgress = t0;
    let stageMaxRssKiB = 0;
    let stageMemory: NodeJS.MemoryUsage | undefined;
    const result = await importKnowledge(handle.db, system, {
      fileName: path.basename(file),
      source: fs.createReadStream(file),
      // The last call comes right after the COPY into the staging table has finished.
      onProgress: () => {
        lastProgress = performance.now();
        stageMaxRssKiB = process.resourceUsage().maxRSS;
        stageMemory = process.memoryUsage();
        sampler.sample();
      },
    });
    const t1 = performance.now();
    const peaks = sampler.stop();
    const server1 = handle.kind === "postgres" ? postgresCpuSeconds() : undefined;
    reportResult({
      seconds: (t1 - t0) / 1000,
      stageSeconds: (lastProgress - t0) / 1000,
      pages: result.pages,
      lines: result.lines,
      bytes: result.bytes,
      maxRssKiB: process.resourceUsage().maxRSS,
      stageMaxRssKiB,
      stageMemory,
      peaks,
      opened,
      cpuSeconds: cpuSince(cpu0),
      serverCpuSeconds: server0 !== undefined && server1 !== undefined ? server1 - server0 : undefined,
    });
  } finally {
    await handle.close();
  }
}

runMain(main);

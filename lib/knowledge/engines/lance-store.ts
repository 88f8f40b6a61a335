import "server-only";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Connection, Table } from "@lancedb/lancedb";
import { env } from "@/lib/env";
import { refreshTable } from "@/server/lance-index-build.mjs";
import { withMallocArenas } from "@/server/malloc-arenas.mjs";
import { shardSchema } from "./lance-rows";

/**
 * The LanceDB side of the LanceDB engine (internal to lib/knowledge/engines/lance.ts): the library,
 * loaded once with its thread settings, and the tables of paragraphs (shards) with their BM25 indexes.
 */

/** The first table of paragraphs; the next ones are `paragraphs_1`, `paragraphs_2`, … (the shards). */
export const TABLE = "paragraphs";
/** Paragraphs per table before a build goes on in a new one (KPS_LANCE_SHARD_PARAGRAPHS). */
export const DEFAULT_SHARD_PARAGRAPHS = 2_000_000;
export const INDEX_NAME = "text_idx";
type Lance = typeof import("@lancedb/lancedb");

let loading: Promise<Lance> | undefined;

/** The index build's buffer per worker, in MiB (KPS_LANCE_FTS_PARTITION_MB). */
export const DEFAULT_FTS_PARTITION_MB = 256;
/** The caches of a connection's session, in MiB (KPS_LANCE_INDEX_CACHE_MB, KPS_LANCE_METADATA_CACHE_MB). */
export const DEFAULT_INDEX_CACHE_MB = 512;
export const DEFAULT_METADATA_CACHE_MB = 128;
const MIB = BigInt(1024 * 1024);

/**
 * The library, loaded on first use. Lance sizes its thread pools from the environment when its
 * runtime starts: LANCE_CPU_THREADS (the compute pool) and LANCE_IO_THREADS (reads and writes).
 * With its defaults an index build was seen to hang on a 2-core machine (the library also reads
 * LANCE_IO_CORE_RESERVATION, which takes cores from the compute pool), so both are set here from
 * KPS_LANCE_CPU_THREADS (default: the core count) and KPS_LANCE_IO_THREADS (default 8) before the
 * import, unless the environment already sets them. Likewise the index build's buffer per worker,
 * LANCE_FTS_PARTITION_SIZE (MiB), from KPS_LANCE_FTS_PARTITION_MB: the library's own default (2 GiB)
 * made a 5M-paragraph build peak at 2.1 GB of RSS; at 256 MiB it peaked at 1.8 GB (bench/search).
 */
export function lance(): Promise<Lance> {
  loading ??= (async () => {
    const settings = env();
    process.env.LANCE_CPU_THREADS ??= String(settings.KPS_LANCE_CPU_THREADS ?? Math.max(1, os.availableParallelism()));
    process.env.LANCE_IO_THREADS ??= String(settings.KPS_LANCE_IO_THREADS ?? 8);
    process.env.LANCE_FTS_PARTITION_SIZE ??= String(settings.KPS_LANCE_FTS_PARTITION_MB ?? DEFAULT_FTS_PARTITION_MB);
    return import("@lancedb/lancedb");
  })();
  return loading;
}

/** The caches a build's own connection keeps, in MiB: a build reads little twice, and the queries' caches stay theirs. */
export const BUILD_CACHES = { indexMiB: 32, metadataMiB: 16 };

/** A connection to the engine's directory with caches of these sizes (default: the queries', from the settings). */
export async function connectDir(dir: string, caches?: { indexMiB: number; metadataMiB: number }): Promise<Connection> {
  const lancedb = await lance();
  fs.mkdirSync(dir, { recursive: true });
  // The session's caches, bounded: with the library's defaults (6 GiB of index data, 1 GiB of
  // metadata) they kept what a build merged and read, and a 5M-paragraph build's RSS grew with it.
  const settings = env();
  const session = new lancedb.Session(
    BigInt(caches?.indexMiB ?? settings.KPS_LANCE_INDEX_CACHE_MB ?? DEFAULT_INDEX_CACHE_MB) * MIB,
    BigInt(caches?.metadataMiB ?? settings.KPS_LANCE_METADATA_CACHE_MB ?? DEFAULT_METADATA_CACHE_MB) * MIB,
  );
  // 0: every read checks for a newer version, so a build in another process (the CLI, another
  // worker, an index build's child) is seen at once. The check is one small manifest read.
  return lancedb.connect(dir, { readConsistencyInterval: 0 }, session);
}

/** The name of shard `k`. */
export const shardName = (k: number) => (k === 0 ? TABLE : `${TABLE}_${k}`);

/** The shards' names in the directory, in shard order. */
export async function shardNames(conn: Connection): Promise<string[]> {
  const shard = (name: string) => (name === TABLE ? 0 : Number(/^paragraphs_([1-9]\d*)$/.exec(name)?.[1] ?? -1));
  return (await conn.tableNames()).filter((n) => shard(n) >= 0).sort((a, b) => shard(a) - shard(b));
}

/** A shard's table, created empty. */
export async function createShard(conn: Connection, k: number): Promise<Table> {
  return conn.createEmptyTable(shardName(k), shardSchema(), { mode: "create", existOk: true });
}

/**
 * Rows added since the BM25 index was last built or optimized. LanceDB searches them too (a flat
 * scan beside the index), so results are complete at any time; the scan is what grows with them.
 */
export async function unindexedRows(table: Table): Promise<number | null> {
  const stats = await table.indexStats(INDEX_NAME);
  return stats ? stats.numUnindexedRows : null;
}

/** The script that builds an index in a child process, found from the app's root as the demo's files are (lib/campaign/demo.ts). */
const INDEX_BUILD_SCRIPT = path.join(process.cwd(), "server", "lance-index-build.mjs");
/** Rows to index from which the build runs in a child process (KPS_LANCE_INDEX_CHILD_ROWS). */
export const DEFAULT_INDEX_CHILD_ROWS = 100_000;
let indexChildPeakKiB = 0;

/** The largest peak RSS of an index-building child of this process so far, in KiB (bench/search adds it to the build's own). */
export function largestIndexChildKiB(): number {
  return indexChildPeakKiB;
}

/**
 * Brings the BM25 index of shard `table` in `dir` up to date: creates it when missing, else merges the
 * unindexed rows into it (lance-index-build.mjs). On a shard of `childFromRows` rows or more, the
 * build runs in a child process, so that the native memory a build leaves behind goes with it (this
 * process's handle sees the new version at its next read); a smaller one is indexed here, where it
 * leaves little, sparing the child's start. Nothing is done when there is nothing to do.
 */
export async function refreshIndex(dir: string, table: Table, childFromRows?: number): Promise<void> {
  childFromRows ??= env().KPS_LANCE_INDEX_CHILD_ROWS ?? DEFAULT_INDEX_CHILD_ROWS;
  const lancedb = await lance(); // also puts the thread settings in process.env, which a child inherits
  // Every shard is asked when a build ends: the cheaper look (the index's statistics) first.
  if ((await unindexedRows(table)) === 0) return;
  const rows = await table.countRows();
  if (rows === 0) return;
  // A merge reads the shard's whole index, so the shard's rows decide, not the ones waiting.
  if (rows < childFromRows) {
    await refreshTable(lancedb, table, INDEX_NAME);
    return;
  }
  // The build's caches, not the queries': the child reads each part once and serves no later read,
  // and what its caches would keep adds to its peak (bench/search/README.md).
  const { code, signal, stdout, stderr } = await runNode([
    INDEX_BUILD_SCRIPT,
    dir,
    table.name,
    INDEX_NAME,
    String(BUILD_CACHES.indexMiB),
    String(BUILD_CACHES.metadataMiB),
  ]);
  if (code !== 0)
    throw new Error(
      `LanceDB's index build of table '${table.name}' in ${dir} failed (${signal ? `signal ${signal}` : `exit status ${code}`}): ${stderr.trim() || "no message"}`,
    );
  // Its exit status says the build is done; its peak RSS is on its report line (anything the
  // library printed before it is passed over).
  const report = /^\{"action":.*$/m.exec(stdout)?.[0];
  const peak = report ? (JSON.parse(report) as { maxRssKiB?: number }).maxRssKiB : undefined;
  indexChildPeakKiB = Math.max(indexChildPeakKiB, peak ?? 0);
}

/**
 * Runs node with `args`, in this process's environment with two malloc arenas unless it sets its own
 * (server/malloc-arenas.mjs); its output and how it ended (the last 4,000 characters of stderr).
 */
function runNode(args: string[]): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"], env: withMallocArenas(process.env) });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr = (stderr + d).slice(-4000)));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** The bytes of the engine's directory (the table's data, deletion files, indexes and manifests). */
export function dirBytes(dir: string): number {
  if (!fs.existsSync(dir)) return 0;
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) total += fs.statSync(path.join(entry.parentPath, entry.name)).size;
  return total;
}

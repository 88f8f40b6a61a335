import "server-only";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Connection, Table } from "@lancedb/lancedb";
import { env } from "@/lib/env";

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

export async function connectDir(dir: string): Promise<Connection> {
  const lancedb = await lance();
  fs.mkdirSync(dir, { recursive: true });
  // The session's caches, bounded: with the library's defaults (6 GiB of index data, 1 GiB of
  // metadata) they kept what a build merged and read, and a 5M-paragraph build's RSS grew with it.
  const settings = env();
  const session = new lancedb.Session(
    BigInt(settings.KPS_LANCE_INDEX_CACHE_MB ?? DEFAULT_INDEX_CACHE_MB) * MIB,
    BigInt(settings.KPS_LANCE_METADATA_CACHE_MB ?? DEFAULT_METADATA_CACHE_MB) * MIB,
  );
  // 0: every read checks for a newer version, so a build in another process (the CLI, another
  // worker) is seen at once. The check is one small manifest read.
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
  const arrow = await import("apache-arrow");
  const schema = new arrow.Schema([
    new arrow.Field("wikipedia_id", new arrow.Utf8(), false),
    new arrow.Field("paragraph_id", new arrow.Int32(), false),
    new arrow.Field("text", new arrow.Utf8(), false),
  ]);
  return conn.createEmptyTable(shardName(k), schema, { mode: "create", existOk: true });
}

/**
 * Rows added since the BM25 index was last built or optimized. LanceDB searches them too (a flat
 * scan beside the index), so results are complete at any time; the scan is what grows with them.
 */
export async function unindexedRows(table: Table): Promise<number | null> {
  const stats = await table.indexStats(INDEX_NAME);
  return stats ? stats.numUnindexedRows : null;
}

/**
 * Brings the BM25 index up to date: creates it when missing, else merges the unindexed rows into it
 * (`optimize`, which also compacts the small fragments each chunk wrote and removes versions older
 * than a minute). English stemming and stop words, as PostgreSQL's 'english' configuration; the text
 * is already folded (lance-rows.ts), ascii folding on top covers what foldText leaves.
 */
export async function refreshIndex(table: Table): Promise<void> {
  const lancedb = await lance();
  const pending = await unindexedRows(table);
  if (pending === null) {
    if ((await table.countRows()) === 0) return;
    await table.createIndex("text", {
      name: INDEX_NAME,
      replace: true,
      config: lancedb.Index.fts({
        baseTokenizer: "simple",
        language: "English",
        stem: true,
        removeStopWords: true,
        lowercase: true,
        asciiFolding: true,
        withPosition: false,
      }),
    });
  } else if (pending > 0) {
    await table.optimize({ cleanupOlderThan: new Date(Date.now() - 60_000) });
  }
}

/** The bytes of the engine's directory (the table's data, deletion files, indexes and manifests). */
export function dirBytes(dir: string): number {
  if (!fs.existsSync(dir)) return 0;
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) total += fs.statSync(path.join(entry.parentPath, entry.name)).size;
  return total;
}

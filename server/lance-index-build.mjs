// The LanceDB engine's BM25 index build (lance-store.ts: refreshIndex), in the app's process for a
// few rows, else in a process of its own: `node lance-index-build.mjs DIR TABLE INDEX_NAME
// INDEX_CACHE_MIB METADATA_CACHE_MIB`, which prints one line of JSON, `{"action":"created"|"optimized"|"none",
// "maxRssKiB":N}` (its peak RSS), or the error on stderr with exit status 1. A build leaves native
// memory in the process that ran it (the library's allocations, not given back when it ends): in the
// app's process a build's peak RSS grew with the paragraphs indexed, while appending the same rows
// without an index did not (bench/search/README.md). In a child it goes with the child. The thread
// settings (LANCE_CPU_THREADS, LANCE_IO_THREADS, LANCE_FTS_PARTITION_SIZE) come in the environment
// the app's process set before it loaded the library (lance-store.ts: lance()).
// Plain JavaScript, so that node runs it as it is, from the app's tree.
import { pathToFileURL } from "node:url";

/**
 * Brings `table`'s index `indexName` up to date: creates it when missing (on a table with rows), else
 * merges the rows it does not hold yet (`optimize`, which also compacts the small fragments each chunk
 * wrote and removes versions older than a minute). English stemming and stop words, as PostgreSQL's
 * 'english' configuration; the text is already folded (lance-rows.ts), ascii folding on top covers
 * what foldText leaves.
 */
export async function refreshTable(lancedb, table, indexName) {
  const stats = await table.indexStats(indexName);
  if (stats === undefined) {
    if ((await table.countRows()) === 0) return "none";
    await table.createIndex("text", {
      name: indexName,
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
    return "created";
  }
  if (stats.numUnindexedRows === 0) return "none";
  await table.optimize({ cleanupOlderThan: new Date(Date.now() - 60_000) });
  return "optimized";
}

async function main([dir, tableName, indexName, indexCacheMiB, metadataCacheMiB]) {
  if (!dir || !tableName || !indexName || !/^\d+$/.test(indexCacheMiB ?? "") || !/^\d+$/.test(metadataCacheMiB ?? ""))
    throw new Error("usage: node lance-index-build.mjs DIR TABLE INDEX_NAME INDEX_CACHE_MIB METADATA_CACHE_MIB");
  const lancedb = await import("@lancedb/lancedb");
  const MIB = 1024n * 1024n;
  const session = new lancedb.Session(BigInt(indexCacheMiB) * MIB, BigInt(metadataCacheMiB) * MIB);
  const conn = await lancedb.connect(dir, { readConsistencyInterval: 0 }, session);
  const action = await refreshTable(lancedb, await conn.openTable(tableName), indexName);
  process.stdout.write(`${JSON.stringify({ action, maxRssKiB: process.resourceUsage().maxRSS })}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  await main(process.argv.slice(2)).catch((e) => {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  });

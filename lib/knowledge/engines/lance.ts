import "server-only";
import type { Connection, Table } from "@lancedb/lancedb";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import type { EngineFigures, KnowledgeEngine, RankedHit } from "../engine";
import { STALE_PAGES } from "../index-sql";
import { queryWords } from "../query";
import { foldText, pageRows, pagesFilter, rowsTable, type LanceRow } from "./lance-rows";
import { env } from "@/lib/env";
import {
  BUILD_CACHES,
  connectDir,
  createShard,
  DEFAULT_SHARD_PARAGRAPHS,
  dirBytes,
  lance,
  refreshIndex,
  shardName,
  shardNames,
  unindexedRows,
} from "./lance-store";

/**
 * The embedded BM25 engine: LanceDB's full-text index over tables of content paragraphs (shards of
 * at most KPS_LANCE_SHARD_PARAGRAPHS each), in a directory of its own (KPS_KNOWLEDGE_INDEX_DIR; a
 * test's temporary directory). PostgreSQL's `pages` stays the source of truth: a build reads the
 * stale pages from it and sets their `indexed_at`, and `clear` can always be followed by a rebuild.
 *
 * A chunk deletes its pages' old rows and appends the new ones (one small fragment) to the last
 * shard; the rows are searchable at once (LanceDB scans the rows its index does not hold yet), and
 * the index takes them in when a build ends or UNINDEXED_LIMIT rows are waiting, so a build stopped
 * anywhere loses nothing and resumes where it stopped. A shard that would pass its size has its index
 * brought up to date, and the chunk goes to a new shard: an index build or merge never holds more
 * than a shard (the library's build memory grows with its table: bench/search). A query asks every
 * shard and keeps the best; each shard scores with its own statistics (BM25's document frequencies
 * and lengths), which are alike when shards are large.
 */

/** Rows appended before a chunk brings the index up to date mid-build (a flat scan of them stays cheap). */
export const UNINDEXED_LIMIT = 1_000_000;

/** Queries of rankMany run at once (the library's own pools do the work). */
const RANK_PARALLEL = 4;

type StalePage = { wikipedia_id: string; title: string; updated_at: string; paragraphs: string[]; never_indexed: boolean };
type Hit = { wikipedia_id: string; paragraph_id: number; _score: number };

/**
 * `shardParagraphs` and `indexChildRows` (the shard's rows from which its index is built in a child
 * process): KPS_LANCE_SHARD_PARAGRAPHS' and KPS_LANCE_INDEX_CHILD_ROWS' unless given (tests, bench/search).
 */
export function createLanceEngine({
  dir,
  shardParagraphs,
  indexChildRows,
}: {
  dir: string;
  shardParagraphs?: number;
  indexChildRows?: number;
}): KnowledgeEngine {
  // Two connections: the queries' (with the caches of the settings) and the build's (small caches:
  // what a build reads would otherwise fill the queries' caches and the process's memory with them).
  const reading = shardView(dir);
  const building = shardView(dir, BUILD_CACHES);
  const shardLimit = () => shardParagraphs ?? env().KPS_LANCE_SHARD_PARAGRAPHS ?? DEFAULT_SHARD_PARAGRAPHS;

  async function indexStaleChunk(db: Db, limit: number): Promise<number> {
    const pages = await stalePages(db, limit);
    const tables = await building.shards(true);
    if (!pages.length) {
      for (const t of tables) await refreshIndex(dir, t, indexChildRows);
      return 0;
    }
    let last = tables.at(-1)!;
    // Rows of these pages from an earlier build: in any shard for a page indexed before, only in the
    // last one for a page never indexed (a chunk that stopped before its update below wrote there).
    const indexedBefore = pages.filter((p) => !p.never_indexed).map((p) => p.wikipedia_id);
    for (const t of tables.slice(0, -1)) if (indexedBefore.length) await t.delete(pagesFilter(indexedBefore));
    await last.delete(pagesFilter(pages.map((p) => p.wikipedia_id)));
    const rows: LanceRow[] = pages.flatMap((p) => pageRows(p.wikipedia_id, p.title, p.paragraphs));
    if (rows.length) {
      const held = await last.countRows();
      if (held > 0 && held + rows.length > shardLimit()) {
        await refreshIndex(dir, last, indexChildRows);
        last = await building.create(tables.length);
      }
      await last.add(rowsTable(rows));
    }
    await db.execute(sql`update pages set indexed_at = v.at::timestamptz
      from unnest(${sql.param(pages.map((p) => p.wikipedia_id))}::text[], ${sql.param(pages.map((p) => p.updated_at))}::text[]) as v(id, at)
      where pages.wikipedia_id = v.id`);
    // Before the index exists every row is unindexed: it is created as soon as the limit is reached.
    if (((await unindexedRows(last)) ?? (await last.countRows())) >= UNINDEXED_LIMIT) await refreshIndex(dir, last, indexChildRows);
    return pages.length;
  }

  async function clear(db: Db): Promise<void> {
    const c = await building.connection();
    for (const name of await shardNames(c)) await c.dropTable(name);
    // The tables made again count their versions from 1: this process's caches, keyed by them, would
    // answer from the dropped ones' index.
    building.reconnect();
    reading.reconnect();
    await db.execute(sql`update pages set indexed_at = null where indexed_at is not null`);
  }

  async function rank(_db: Db, text: string, limit: number): Promise<RankedHit[]> {
    const words = queryWords(text);
    return words.length && limit > 0 ? rankFresh(reading, words, Math.floor(limit)) : [];
  }

  async function rankMany(db: Db, texts: string[], limit: number): Promise<RankedHit[][]> {
    const results: RankedHit[][] = new Array(texts.length);
    for (let i = 0; i < texts.length; i += RANK_PARALLEL)
      await Promise.all(texts.slice(i, i + RANK_PARALLEL).map(async (text, j) => (results[i + j] = await rank(db, text, limit))));
    return results;
  }

  async function figures(): Promise<EngineFigures> {
    let paragraphs = 0;
    for (const t of await reading.shards(false)) paragraphs += await t.countRows();
    return { method: "lance-bm25", paragraphs, bytes: dirBytes(dir) };
  }

  // One chunk at a time: every chunk appends to the last shard, and one may open the next.
  return { name: "lance", indexStaleChunk, chunkWorkers: () => 1, clear, rank, rankMany, figures };
}

/**
 * rankShards over the view's shards. When another process cleared and rebuilt the index since this
 * one's last read, its caches name index files that are gone: asked again on a new connection (once;
 * another error is thrown).
 */
async function rankFresh(view: ShardView, words: string[], limit: number): Promise<RankedHit[]> {
  try {
    return await rankShards(await view.shards(false), words, limit);
  } catch (e) {
    if (!(e instanceof Error && /_indices\/.* not found/.test(e.message))) throw e;
    view.reconnect();
    return rankShards(await view.shards(false), words, limit);
  }
}

type ShardView = ReturnType<typeof shardView>;

/** A connection to the engine's directory and the shards opened on it. */
function shardView(dir: string, caches?: typeof BUILD_CACHES) {
  let conn: Promise<Connection> | undefined;
  const opened = new Map<string, Table>();
  const connection = () => (conn ??= connectDir(dir, caches));
  return {
    connection,
    /** A new connection, with empty caches (the tables are opened again). */
    reconnect() {
      conn = undefined;
      opened.clear();
    },
    /** Shard `k`, created empty. */
    async create(k: number): Promise<Table> {
      const t = await createShard(await connection(), k);
      opened.set(shardName(k), t);
      return t;
    },
    /** The shards in order (the directory is listed each time: another process may have added one); the first created when `create` and none exists. */
    async shards(create: boolean): Promise<Table[]> {
      const c = await connection();
      const names = await shardNames(c);
      if (!names.length && create) opened.set(shardName(0), await createShard(c, 0));
      const out: Table[] = [];
      for (const name of names.length ? names : create ? [shardName(0)] : []) {
        let t = opened.get(name);
        if (!t) opened.set(name, (t = await c.openTable(name)));
        out.push(t);
      }
      return out;
    },
  };
}

/** The next stale pages, in id order. */
async function stalePages(db: Db, limit: number): Promise<StalePage[]> {
  return rowsOf<StalePage>(
    await db.execute(sql`select wikipedia_id, title, updated_at::text as updated_at, array_to_json(paragraphs) as paragraphs,
        indexed_at is null as never_indexed
      from pages where ${STALE_PAGES} order by wikipedia_id limit ${Math.max(0, Math.floor(limit))}`),
  );
}

/** The best `limit` paragraphs of every shard for the query's words, best first (ties: page id, then paragraph). */
async function rankShards(tables: Table[], words: string[], limit: number): Promise<RankedHit[]> {
  if (!tables.length) return [];
  const lancedb = await lance();
  // A MatchQuery is tokenized, never parsed: no word can be read as an operator.
  const query = new lancedb.MatchQuery(foldText(words.join(" ")), "text", { operator: lancedb.Operator.Or });
  const perShard = await Promise.all(
    tables.map(
      async (t) =>
        (await t.query().fullTextSearch(query).select(["wikipedia_id", "paragraph_id", "_score"]).limit(limit).toArray()) as Hit[],
    ),
  );
  return perShard
    .flat()
    .map((r) => ({ wikipediaId: r.wikipedia_id, paragraphId: Number(r.paragraph_id), score: Number(r._score) }))
    .sort((a, b) => b.score - a.score || a.wikipediaId.localeCompare(b.wikipediaId) || a.paragraphId - b.paragraphId)
    .slice(0, limit);
}

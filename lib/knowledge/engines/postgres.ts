import "server-only";
import os from "node:os";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import { env } from "@/lib/env";
import type { EngineFigures, KnowledgeEngine } from "../engine";
import { foldText, STALE_PAGES } from "../index-sql";
import {
  clientKind,
  dropRumIndex,
  finishMethod,
  forgetMethod,
  prepareMethod,
  queryMethod,
  type MethodChoice,
  type PostgresMethod,
} from "./postgres-method";
import { rankWith } from "./postgres-rank";

/**
 * The PostgreSQL engine: one row of `paragraph_index` per content paragraph — neither paragraph 0
 * (the title line) nor a `Section::::` header — with KILT's paragraph ids, the nearest header above
 * it ("" before the first) and a tsvector of the title (weight A) and the paragraph (weight D), both
 * folded with foldText, English configuration. GIN indexes it always (drizzle's migration); RUM
 * too where the server offers the extension (postgres-method.ts), and then answers the queries.
 */
export interface PostgresEngineOptions {
  /** "auto" (the default): RUM where the server has it, GIN elsewhere; "gin" or "rum" forces one. */
  method?: MethodChoice;
  /** Queries rankMany runs at once on PostgreSQL (PGlite runs one at a time). */
  concurrency?: number;
  /** Chunks a build runs at once on PostgreSQL (default KPS_INDEX_BUILD_WORKERS, else the core count up to 4; PGlite: 1). */
  buildWorkers?: number;
}

export function createPostgresEngine(options: PostgresEngineOptions = {}): KnowledgeEngine {
  const choice = options.method ?? "auto";
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 4));
  const prepared = new WeakMap<Db, Promise<PostgresMethod>>();
  const rank = async (db: Db, text: string, limit: number) => rankWith(db, await queryMethod(db, choice), text, limit);
  return {
    name: "postgres",
    async indexStaleChunk(db, limit) {
      if (!prepared.has(db))
        prepared.set(
          db,
          prepareMethod(db, choice).catch((e) => (prepared.delete(db), Promise.reject(e))),
        );
      const method = await prepared.get(db)!;
      const n = await indexStaleChunk(db, limit);
      if (n === 0) await finishMethod(db, method);
      return n;
    },
    // Chunks at once take disjoint pages (`for update skip locked`), each in its own server process
    // and on a connection of the app's pool (20): by default no more than 4, so requests keep theirs.
    chunkWorkers: (db) =>
      clientKind(db) === "postgres"
        ? Math.max(1, Math.floor(options.buildWorkers ?? env().KPS_INDEX_BUILD_WORKERS ?? Math.min(4, os.availableParallelism())))
        : 1,
    clear,
    rank,
    async rankMany(db, texts, limit) {
      const method = await queryMethod(db, choice);
      const at = clientKind(db) === "postgres" ? concurrency : 1;
      return mapBounded(texts, at, (text) => rankWith(db, method, text, limit));
    },
    async figures(db) {
      return figures(db, await queryMethod(db, choice));
    },
  };
}

/** `f` over `items`, at most `at` at once, results in the order of `items`. */
async function mapBounded<T, R>(items: T[], at: number, f: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await f(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(at, items.length) }, worker));
  return results;
}

/**
 * Indexes up to `limit` stale pages in one transaction: their old rows are deleted, the new ones
 * inserted, and `indexed_at` set to the `updated_at` that was read, so a page re-imported meanwhile
 * stays stale. Returns how many pages it indexed (0: none left).
 */
async function indexStaleChunk(db: Db, limit: number): Promise<number> {
  return db.transaction(async (tx) => {
    const chosen = rowsOf<{ wikipedia_id: string }>(
      await tx.execute(
        sql`select wikipedia_id from pages where ${STALE_PAGES} order by wikipedia_id limit ${limit} for update skip locked`,
      ),
    );
    if (!chosen.length) return 0;
    const ids = chosen.map((c) => c.wikipedia_id);
    const idList = sql`any(${sql.param(ids)}::text[])`;
    await tx.execute(sql`delete from paragraph_index where wikipedia_id = ${idList}`);
    await tx.execute(sql`insert into paragraph_index (wikipedia_id, paragraph_id, section, document)
      with chosen as (select wikipedia_id, paragraphs, setweight(to_tsvector('english', ${foldText(sql`title`)}), 'A') as title_vector
        from pages where wikipedia_id = ${idList})
      select c.wikipedia_id, e.i - 1,
        coalesce(rtrim(c.paragraphs[e.header], E'\n'), ''),
        c.title_vector || to_tsvector('english', ${foldText(sql`regexp_replace(e.text, '^BULLET::::-? ?', '')`)})
      from chosen c
      cross join lateral (
        select t.text, t.i, max(case when t.i > 1 and t.text like 'Section::::%' then t.i end) over (order by t.i) as header
        from unnest(c.paragraphs) with ordinality as t(text, i)
      ) e
      where e.i > 1 and e.text not like 'Section::::%' and btrim(e.text, E' \n\t') <> ''`);
    await tx.execute(sql`update pages set indexed_at = updated_at where wikipedia_id = ${idList}`);
    return ids.length;
  });
}

/**
 * Empties paragraph_index and marks every page stale, in one transaction. DELETE rather than
 * TRUNCATE: TRUNCATE's exclusive lock would stop every search until the transaction ends, and
 * the rebuild that follows rewrites the table anyway. Then the RUM index is dropped (a statement of
 * its own, so its exclusive lock is held for no longer than the drop): the rebuild makes it again
 * over every row at once when it ends. Should the process stop in between, the rebuild only keeps
 * the index row by row.
 */
async function clear(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`delete from paragraph_index where true`);
    await tx.execute(sql`update pages set indexed_at = null where indexed_at is not null`);
  });
  await dropRumIndex(db);
  forgetMethod(db);
}

async function figures(db: Db, method: string): Promise<EngineFigures> {
  const [row] = rowsOf<{ paragraphs: number; bytes: string | number }>(
    await db.execute(sql`select (select count(*)::int from paragraph_index) as paragraphs,
      pg_total_relation_size('paragraph_index') as bytes`),
  );
  return { method, paragraphs: row?.paragraphs ?? 0, bytes: row ? Number(row.bytes) : null };
}

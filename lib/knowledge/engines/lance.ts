import "server-only";
import type { Connection, Table } from "@lancedb/lancedb";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import type { EngineFigures, KnowledgeEngine, RankedHit } from "../engine";
import { STALE_PAGES } from "../index-sql";
import { queryWords } from "../query";
import { foldText, pageRows, pagesFilter, type LanceRow } from "./lance-rows";
import { connectDir, dirBytes, lance, openTable, refreshIndex, TABLE, unindexedRows } from "./lance-store";

/**
 * The embedded BM25 engine: LanceDB's full-text index over a table of content paragraphs, in a
 * directory of its own (KPS_KNOWLEDGE_INDEX_DIR; a test's temporary directory). PostgreSQL's
 * `pages` stays the source of truth: a build reads the stale pages from it and sets their
 * `indexed_at`, and `clear` can always be followed by a rebuild.
 *
 * A chunk deletes its pages' old rows and appends the new ones (one small fragment); the rows are
 * searchable at once (LanceDB scans the rows its index does not hold yet), and the index takes them
 * in when a build ends or UNINDEXED_LIMIT rows are waiting, so a build stopped anywhere loses
 * nothing and resumes where it stopped.
 */

/** Rows appended before a chunk brings the index up to date mid-build (a flat scan of them stays cheap). */
export const UNINDEXED_LIMIT = 1_000_000;

/** Queries of rankMany run at once (the library's own pools do the work). */
const RANK_PARALLEL = 4;

type StalePage = { wikipedia_id: string; title: string; updated_at: string; paragraphs: string[] };

export function createLanceEngine({ dir }: { dir: string }): KnowledgeEngine {
  let conn: Promise<Connection> | undefined;
  let table: Table | null = null;
  const connection = () => (conn ??= connectDir(dir));
  async function tableOf(create: boolean): Promise<Table | null> {
    table ??= await openTable(await connection(), create);
    return table;
  }

  async function indexStaleChunk(db: Db, limit: number): Promise<number> {
    const pages = rowsOf<StalePage>(
      await db.execute(sql`select wikipedia_id, title, updated_at::text as updated_at, array_to_json(paragraphs) as paragraphs
        from pages where ${STALE_PAGES} order by wikipedia_id limit ${Math.max(0, Math.floor(limit))}`),
    );
    const t = (await tableOf(true))!;
    if (!pages.length) {
      await refreshIndex(t);
      return 0;
    }
    const rows: LanceRow[] = pages.flatMap((p) => pageRows(p.wikipedia_id, p.title, p.paragraphs));
    // Rows of these pages from an earlier build (or from a chunk that stopped before its update below).
    await t.delete(pagesFilter(pages.map((p) => p.wikipedia_id)));
    if (rows.length) await t.add(rows);
    await db.execute(sql`update pages set indexed_at = v.at::timestamptz
      from unnest(${sql.param(pages.map((p) => p.wikipedia_id))}::text[], ${sql.param(pages.map((p) => p.updated_at))}::text[]) as v(id, at)
      where pages.wikipedia_id = v.id`);
    // Before the index exists every row is unindexed: it is created as soon as the limit is reached.
    if (((await unindexedRows(t)) ?? (await t.countRows())) >= UNINDEXED_LIMIT) await refreshIndex(t);
    return pages.length;
  }

  async function clear(db: Db): Promise<void> {
    const c = await connection();
    if ((await c.tableNames()).includes(TABLE)) await c.dropTable(TABLE);
    table = null;
    await db.execute(sql`update pages set indexed_at = null where indexed_at is not null`);
  }

  async function rank(_db: Db, text: string, limit: number): Promise<RankedHit[]> {
    const words = queryWords(text);
    const t = await tableOf(false);
    if (!words.length || !t || limit <= 0) return [];
    const lancedb = await lance();
    // A MatchQuery is tokenized, never parsed: no word can be read as an operator.
    const query = new lancedb.MatchQuery(foldText(words.join(" ")), "text", { operator: lancedb.Operator.Or });
    const rows = (await t
      .query()
      .fullTextSearch(query)
      .select(["wikipedia_id", "paragraph_id", "_score"])
      .limit(Math.floor(limit))
      .toArray()) as { wikipedia_id: string; paragraph_id: number; _score: number }[];
    return rows
      .map((r) => ({ wikipediaId: r.wikipedia_id, paragraphId: Number(r.paragraph_id), score: Number(r._score) }))
      .sort((a, b) => b.score - a.score || a.wikipediaId.localeCompare(b.wikipediaId) || a.paragraphId - b.paragraphId);
  }

  async function rankMany(db: Db, texts: string[], limit: number): Promise<RankedHit[][]> {
    const results: RankedHit[][] = new Array(texts.length);
    for (let i = 0; i < texts.length; i += RANK_PARALLEL)
      await Promise.all(texts.slice(i, i + RANK_PARALLEL).map(async (text, j) => (results[i + j] = await rank(db, text, limit))));
    return results;
  }

  async function figures(): Promise<EngineFigures> {
    const t = await tableOf(false);
    return { method: "lance-bm25", paragraphs: t ? await t.countRows() : 0, bytes: dirBytes(dir) };
  }

  return { name: "lance", indexStaleChunk, clear, rank, rankMany, figures };
}

import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import { queryWords } from "./query";

/**
 * The SQL every engine shares (internal: no authorization): which pages are stale (`indexed_at`
 * null or older than `updated_at`), the chunk size, and the folding of text. The PostgreSQL
 * engine's own SQL is in engines/postgres*.ts.
 */

/**
 * The folding of the text index, used alike on paragraphs, titles and queries: lower case, accents
 * stripped (NFD, then the combining marks U+0300–U+036F dropped, then the letters NFD does not
 * decompose: đ ħ ł ø ŧ ı). It folds what kps_fold folds and more (Greek tonos, Vietnamese marks).
 * kps_fold itself (db/sql/search.sql, kept for titles: pages_title_folded_idx) compares every character
 * with its ~230 accented letters, 0.2 ms for a paragraph — the 100k-page build took most of an hour;
 * this is about six times cheaper, and ASCII text (the test below) pays only lower().
 */
export const foldText = (text: SQL) =>
  sql`(case when ${text} ~ '[^\u0001-\u007f]' then lower(translate(regexp_replace(normalize(${text}, NFD), '[\u0300-\u036f]', '', 'g'), 'đĐħĦłŁøØŧŦı', 'dDhHlLoOtTi')) else lower(${text}) end)`;

/** Pages per statement: small enough that a chunk takes about a second, so progress moves. */
export const INDEX_CHUNK_PAGES = 500;

/** The stale pages: never indexed, or changed since (the partial index pages_unindexed_idx). */
export const STALE_PAGES = sql`(indexed_at is null or indexed_at < updated_at)`;

export async function countStalePages(db: Db): Promise<number> {
  const [row] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from pages where ${STALE_PAGES}`));
  return row?.n ?? 0;
}

/**
 * The tsquery of a free-text query, or null when it has no words: an OR of its lexemes (English
 * stemming and stop words, folded with foldText like the index). An OR rather than plainto_tsquery's
 * AND because a question ("Which year did the observatory open?") shares only some of its words
 * with the paragraph that answers it; AND would find nothing. websearch_to_tsquery on "w1 or w2 or …"
 * builds the OR and, unlike to_tsquery, never raises on its input; ts_rank then orders the matches
 * by how many of the lexemes they hold, and how often, with the title's (weight A) counting most.
 */
export function orQuery(text: string): SQL | null {
  const words = queryWords(text);
  if (!words.length) return null;
  return sql`websearch_to_tsquery('english', ${foldText(sql`${words.join(" or ")}::text`)})`;
}

import { sql, type SQL } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import { AppError } from "@/lib/errors";
import { indexBuilt } from "./index-build";
import { foldText } from "./index-sql";
import type { RankedParagraph } from "./types";

/** Words of a query kept for the text search (a question rarely has more). */
export const MAX_QUERY_WORDS = 32;

export const INDEX_NOT_BUILT =
  "The text index has not been built yet: a coordinator builds it with `kps knowledge index` or on the knowledge import page.";

/** 409 until the text index has been built once. */
export async function requireIndexBuilt(db: Db): Promise<void> {
  if (!(await indexBuilt(db))) throw new AppError("conflict", INDEX_NOT_BUILT);
}

/**
 * The words of a free-text query: runs of letters and digits, nothing else. Every character that
 * means something to tsquery or websearch syntax (quotes, `-`, `&|!():*<->`) falls away here, so no
 * input can make the SQL below raise a syntax error.
 */
export function queryWords(text: string): string[] {
  const words = text.match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.filter((w) => w.toLowerCase() !== "or").slice(0, MAX_QUERY_WORDS);
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

/**
 * ts_rank's weights {D, C, B, A}: a word of the paragraph counts 0.4, a word of its page's title 1
 * (the title matches every paragraph of its page, so it decides between pages and the paragraph's
 * own words between paragraphs). With the default 0.1 for D, a short paragraph of a page whose
 * title holds one query word outranked the paragraph holding four of them (on the 200-page fixture
 * the labelled paragraph fell to ranks 3–4; with 0.4 it is first for all ten questions).
 * Normalization 1 divides by 1 + log(length), so a long paragraph is not first merely for being long.
 */
export const RANK = (query: SQL) => sql`ts_rank('{0.4, 0.4, 0.4, 1.0}'::float4[], pi.document, ${query}, 1)`;

/**
 * The k paragraphs of the text index that best match `text`, best first ([] when none matches).
 * Internal (no actor): the batch import calls it after authorizing its caller. Throws AppError
 * conflict while the index has not been built.
 */
export async function rankParagraphs(db: Db, text: string, k: number): Promise<RankedParagraph[]> {
  await requireIndexBuilt(db);
  const query = orQuery(text);
  if (!query || k <= 0) return [];
  const rows = rowsOf<{ wikipedia_id: string; paragraph_id: number; score: number }>(
    await db.execute(sql`with q as (select ${query} as query)
      select pi.wikipedia_id, pi.paragraph_id, (${RANK(sql`q.query`)})::float8 as score
      from paragraph_index pi, q where pi.document @@ q.query
      order by score desc, pi.wikipedia_id, pi.paragraph_id limit ${Math.floor(k)}`),
  );
  return rows.map((r) => ({ wikipediaId: r.wikipedia_id, paragraphId: Number(r.paragraph_id), score: Number(r.score) }));
}

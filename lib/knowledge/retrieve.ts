import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { rawClientOf, rowsOf, type Db } from "@/db/client";
import { AppError } from "@/lib/errors";
import { indexBuilt } from "./index-build";
import { foldText } from "./index-sql";

/** A paragraph the text search ranked for a question (the batch import's text retrieval). */
export interface RankedParagraph {
  wikipediaId: string;
  paragraphId: number;
  score: number;
}

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

/** Lexemes of a query paired in the first stage (12 give 66 pairs). */
const PAIRED_LEXEMES = 12;

type RankedRow = { wikipedia_id: string; paragraph_id: number; score: number };

/**
 * The `limit` best paragraphs for `text`, in two stages. An OR of a question's lexemes matches a
 * large share of all paragraphs (a common word alone does), and ranking every match is what costs:
 * on 744k paragraphs of the synthetic source a question took 1.1 s at the median. So the first stage
 * ranks only paragraphs holding at least two of the lexemes — an OR of every pair's AND, which the
 * GIN index answers — and only when that finds fewer than `limit` does the second rank every
 * paragraph holding any. Both order by the same ts_rank of the full OR query.
 */
export async function rankedRows(db: Db, text: string, limit: number): Promise<RankedRow[]> {
  const words = queryWords(text);
  if (!words.length || limit <= 0) return [];
  const folded = foldText(sql`${words.join(" ")}::text`);
  const pairs = sql`(select string_agg(format('(%s & %s)', quote_literal(a.l), quote_literal(b.l)), ' | ') from lx a join lx b on a.n < b.n)`;
  const run = async (matches: SQL) =>
    rowsOf<RankedRow>(
      await db.execute(sql`with lx as (select lexeme as l, row_number() over (order by lexeme) as n
          from unnest(to_tsvector('english', ${folded})) limit ${PAIRED_LEXEMES}),
        q as (select ${orQuery(text)} as query, ${pairs} as pairs)
        select pi.wikipedia_id, pi.paragraph_id, (${RANK(sql`q.query`)})::float8 as score
        from paragraph_index pi, q where ${matches}
        order by score desc, pi.wikipedia_id, pi.paragraph_id limit ${Math.floor(limit)}`),
    ).map((r) => ({ ...r, paragraph_id: Number(r.paragraph_id), score: Number(r.score) }));
  const strong = await run(sql`q.pairs is not null and pi.document @@ q.pairs::tsquery`);
  return strong.length >= limit ? strong : run(sql`pi.document @@ q.query`);
}

/**
 * The k paragraphs of the text index that best match `text`, best first ([] when none matches).
 * Internal (no actor): the batch import calls it after authorizing its caller. Throws AppError
 * conflict while the index has not been built.
 */
export async function rankParagraphs(db: Db, text: string, k: number): Promise<RankedParagraph[]> {
  await requireIndexBuilt(db);
  return (await rankedRows(db, text, k)).map((r) => ({ wikipediaId: r.wikipedia_id, paragraphId: r.paragraph_id, score: r.score }));
}

/** Connections one rankParagraphsMany uses at once on PostgreSQL (the pool holds 20); PGlite has one. */
export const RANK_CONNECTIONS = 4;

/** How many queries may run at once on `db`: RANK_CONNECTIONS on PostgreSQL, 1 on PGlite or in a transaction (one connection). */
function rankConcurrency(db: Db): number {
  try {
    return rawClientOf(db).kind === "postgres" ? RANK_CONNECTIONS : 1;
  } catch {
    return 1; // a transaction: its one connection
  }
}

/**
 * rankParagraphs for many texts at once: results[i] is rankParagraphs(db, texts[i], k), the same
 * paragraphs in the same order (each text is ranked by the same statement, ties broken by page and
 * paragraph id), with up to RANK_CONNECTIONS statements at once on PostgreSQL. Checks the index once.
 */
export async function rankParagraphsMany(db: Db, texts: string[], k: number): Promise<RankedParagraph[][]> {
  await requireIndexBuilt(db);
  const results: RankedParagraph[][] = new Array(texts.length);
  let next = 0;
  const worker = async () => {
    while (next < texts.length) {
      const i = next++;
      results[i] = (await rankedRows(db, texts[i]!, k)).map((r) => ({
        wikipediaId: r.wikipedia_id,
        paragraphId: r.paragraph_id,
        score: r.score,
      }));
    }
  };
  await Promise.all(Array.from({ length: Math.min(rankConcurrency(db), texts.length) }, worker));
  return results;
}

import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import type { RankedHit } from "../engine";
import { foldText, orQuery } from "../index-sql";
import { queryWords } from "../query";
import type { PostgresMethod } from "./postgres-method";

/**
 * ts_rank's weights {D, C, B, A}: a word of the paragraph counts 0.4, a word of its page's title 1
 * (the title matches every paragraph of its page, so it decides between pages and the paragraph's
 * own words between paragraphs). With the default 0.1 for D, a short paragraph of a page whose
 * title holds one query word outranked the paragraph holding four of them (on the 200-page fixture
 * the labelled paragraph fell to ranks 3–4; with 0.4 it is first for all ten questions).
 * Normalization 1 divides by 1 + log(length), so a long paragraph is not first merely for being long.
 */
export const RANK = (query: SQL) => sql`ts_rank('{0.4, 0.4, 0.4, 1.0}'::float4[], pi.document, ${query}, 1)`;

/** Lexemes of a query paired in the GIN query's first stage (12 give 66 pairs). */
const PAIRED_LEXEMES = 12;

type RankedRow = { wikipedia_id: string; paragraph_id: number | string; score: number | string };

const hitsOf = (rows: RankedRow[]): RankedHit[] =>
  rows.map((r) => ({ wikipediaId: r.wikipedia_id, paragraphId: Number(r.paragraph_id), score: Number(r.score) }));

/**
 * With GIN, in two stages. An OR of a question's lexemes matches a large share of all paragraphs
 * (a common word alone does), and ranking every match is what costs: GIN holds no positions, so
 * each match's tsvector is read from the heap (on 744k paragraphs of the synthetic source a
 * question took 1.1 s at the median). So the first stage ranks only paragraphs holding at least two
 * of the lexemes — an OR of every pair's AND, which the GIN index answers — and only when that
 * finds fewer than `limit` does the second rank every paragraph holding any. Both order by the same
 * ts_rank of the full OR query.
 */
async function rankGin(db: Db, text: string, limit: number): Promise<RankedHit[]> {
  const folded = foldText(sql`${queryWords(text).join(" ")}::text`);
  const pairs = sql`(select string_agg(format('(%s & %s)', quote_literal(a.l), quote_literal(b.l)), ' | ') from lx a join lx b on a.n < b.n)`;
  const run = async (matches: SQL) =>
    hitsOf(
      rowsOf<RankedRow>(
        await db.execute(sql`with lx as (select lexeme as l, row_number() over (order by lexeme) as n
          from unnest(to_tsvector('english', ${folded})) limit ${PAIRED_LEXEMES}),
        q as (select ${orQuery(text)} as query, ${pairs} as pairs)
        select pi.wikipedia_id, pi.paragraph_id, (${RANK(sql`q.query`)})::float8 as score
        from paragraph_index pi, q where ${matches}
        order by score desc, pi.wikipedia_id, pi.paragraph_id limit ${limit}`),
      ),
    );
  const strong = await run(sql`q.pairs is not null and pi.document @@ q.pairs::tsquery`);
  return strong.length >= limit ? strong : run(sql`pi.document @@ q.query`);
}

/** Paragraphs the RUM query takes from the index's order before ranking them with RANK. */
const rumPool = (limit: number) => Math.max(100, limit * 10);

/**
 * With RUM: the index's ordered scan (`order by document <=> query limit n`, rum_tsvector_ops)
 * ranks every match from the positions it stores and reads the heap only for the `n` it returns;
 * those are then ordered by RANK, so the title's weight and the length normalization are today's.
 * RUM's own distance weighs a paragraph's word 0.1 against the title's 1 (ts_rank's defaults, not
 * settable), which alone put the labelled paragraph lower on the 200-page fixture; as a first cut
 * of 100 or more it keeps the paragraphs RANK puts first.
 */
async function rankRum(db: Db, text: string, limit: number): Promise<RankedHit[]> {
  const query = orQuery(text)!;
  return hitsOf(
    rowsOf<RankedRow>(
      await db.execute(sql`select pi.wikipedia_id, pi.paragraph_id, (${RANK(query)})::float8 as score
        from (select wikipedia_id, paragraph_id, document from paragraph_index
          where document @@ ${query} order by document <=> ${query} limit ${rumPool(limit)}) pi
        order by score desc, pi.wikipedia_id, pi.paragraph_id limit ${limit}`),
    ),
  );
}

/** The `limit` best paragraphs for `text` by the given method, best first ([] when no word or none matches). */
export async function rankWith(db: Db, method: PostgresMethod, text: string, limit: number): Promise<RankedHit[]> {
  const k = Math.floor(limit);
  if (!queryWords(text).length || !(k > 0)) return [];
  return method === "rum" ? rankRum(db, text, k) : rankGin(db, text, k);
}

import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";

/**
 * The SQL of the text index (internal: no authorization; lib/knowledge/index-build.ts and the
 * knowledge import call it after their own check). One row of `paragraph_index` per content
 * paragraph — neither paragraph 0 (the title line) nor a `Section::::` header — with KILT's
 * paragraph ids, the nearest header above it ("" before the first) and a tsvector of the title
 * (weight A) and the paragraph (weight D), both folded with foldText (below), English configuration.
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
 * Indexes up to `limit` stale pages in one transaction: their old rows are deleted, the new ones
 * inserted, and `indexed_at` set to the `updated_at` that was read, so a page re-imported meanwhile
 * stays stale. Returns how many pages it indexed (0: none left).
 */
export async function indexStaleChunk(db: Db, limit = INDEX_CHUNK_PAGES): Promise<number> {
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

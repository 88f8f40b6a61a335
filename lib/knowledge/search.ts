import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import { requireUser, type Actor } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import { indexBuilt } from "./index-build";
import { INDEX_NOT_BUILT, orQuery, rankedRows } from "./retrieve";
import type { SearchOptions } from "./schemas";
import { HEADLINE_OPTIONS, markedSegments, prefixSegments, snippetOf } from "./segments";
import type { KnowledgePage, SearchResponse, SearchResult } from "./knowledge.contract";

/** Coordinators and annotators read the knowledge source (annotators propose passages from it); crowd workers do not. */
export function requireKnowledgeReader(actor: Actor): void {
  if (actor.kind === "system") return;
  const user = requireUser(actor);
  if (user.role !== "coordinator" && user.role !== "annotator")
    throw new AppError("forbidden", "Only coordinators and annotators may search the knowledge source.");
}

/** A prefix LIKE pattern of folded text: `%`, `_` and `\` are literal. */
export const prefixPattern = (text: string) => `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Searches the knowledge source by title prefix (always) or by text (once the index is built). */
export async function searchKnowledge(db: Db, actor: Actor, options: SearchOptions): Promise<SearchResponse> {
  requireKnowledgeReader(actor);
  const indexed = await indexBuilt(db);
  if (options.mode === "title") return { mode: "title", indexed, results: await titleSearch(db, options.q, options.limit) };
  if (!indexed) throw new AppError("conflict", INDEX_NOT_BUILT);
  return { mode: "text", indexed, results: await textSearch(db, options.q, options.limit) };
}

/**
 * Pages whose folded title starts with the folded query (pages_title_folded_idx), the exact title
 * first, then shorter titles, then alphabetically; the snippet is the start of the first content paragraph.
 */
async function titleSearch(db: Db, q: string, limit: number): Promise<SearchResult[]> {
  const rows = rowsOf<{ wikipedia_id: string; title: string; lead: string | null; prefix: number }>(
    await db.execute(sql`select wikipedia_id, title, char_length(kps_fold(${q}::text))::int as prefix,
        (select e from unnest(paragraphs[2:12]) as e where e not like 'Section::::%' and btrim(e, E' \n\t') <> '' limit 1) as lead
      from pages where kps_fold(title) like kps_fold(${prefixPattern(q)}::text)
      order by kps_fold(title) = kps_fold(${q}::text) desc, char_length(title), title, wikipedia_id limit ${limit}`),
  );
  return rows.map((r) => ({
    wikipediaId: r.wikipedia_id,
    title: r.title,
    paragraphId: null,
    section: "",
    titleSegments: prefixSegments(r.title, r.prefix),
    snippet: snippetOf([{ text: stripBullet(r.lead ?? ""), match: false }], 200),
  }));
}

const stripBullet = (text: string) => text.replace(/^BULLET::::-? ?/, "");

/** The best-ranked paragraphs of the text index, with the matched words marked in the title and the snippet. */
async function textSearch(db: Db, q: string, limit: number): Promise<SearchResult[]> {
  const ranked = await rankedRows(db, q, limit);
  const query = orQuery(q);
  if (!ranked.length || !query) return [];
  const rows = rowsOf<{ i: number; section: string; title: string; text: string; marked_text: string; marked_title: string }>(
    await db.execute(sql`with q as (select ${query} as query),
      top as (select r.i, r.w, r.p from unnest(${sql.param(ranked.map((r) => r.wikipedia_id))}::text[], ${sql.param(ranked.map((r) => r.paragraph_id))}::int[])
        with ordinality as r(w, p, i)),
      hit as (select top.i, pi.section, pg.title, translate(regexp_replace(pg.paragraphs[top.p + 1], '^BULLET::::-? ?', ''), E'\\x01\\x02', '  ') as text
        from top join paragraph_index pi on pi.wikipedia_id = top.w and pi.paragraph_id = top.p join pages pg on pg.wikipedia_id = top.w)
      select hit.i, hit.section, hit.title, hit.text,
        ts_headline('english', kps_fold(hit.text), q.query, ${HEADLINE_OPTIONS}) as marked_text,
        ts_headline('english', kps_fold(translate(hit.title, E'\\x01\\x02', '  ')), q.query, ${HEADLINE_OPTIONS}) as marked_title
      from hit, q order by hit.i`),
  );
  return rows.map((r) => {
    const at = ranked[Number(r.i) - 1]!;
    return {
      wikipediaId: at.wikipedia_id,
      title: r.title,
      paragraphId: at.paragraph_id,
      section: r.section,
      titleSegments: markedSegments(r.marked_title, r.title),
      snippet: snippetOf(markedSegments(r.marked_text, r.text)),
    };
  });
}

/** One page of the knowledge source, every paragraph with the section it is in (coordinators and annotators). */
export async function getKnowledgePage(db: Db, actor: Actor, wikipediaId: string): Promise<KnowledgePage> {
  requireKnowledgeReader(actor);
  const [row] = rowsOf<{ title: string; paragraphs: string[] }>(
    await db.execute(sql`select title, array_to_json(paragraphs) as paragraphs from pages where wikipedia_id = ${wikipediaId}`),
  );
  if (!row) throw new AppError("not_found", `No page '${wikipediaId}' in the knowledge source.`);
  let section = "";
  const paragraphs = row.paragraphs.map((text, id) => {
    if (id > 0 && text.startsWith("Section::::")) section = text.replace(/\n+$/, "");
    return { id, text, section: id === 0 ? "" : section };
  });
  return { wikipediaId, title: row.title, paragraphs };
}

import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import { requireUser, type Actor } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import type { KnowledgeEngine } from "./engine";
import { knowledgeEngine } from "./engines";
import { indexBuilt, requireIndexBuilt } from "./index-build";
import { orQuery } from "./index-sql";
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

/**
 * Searches the knowledge source by title prefix (always; the same for every engine) or by text,
 * ranked by the process's engine once it has built the index.
 */
export async function searchKnowledge(
  db: Db,
  actor: Actor,
  options: SearchOptions,
  engine: KnowledgeEngine = knowledgeEngine(),
): Promise<SearchResponse> {
  requireKnowledgeReader(actor);
  if (options.mode === "title")
    return { mode: "title", indexed: await indexBuilt(db, engine), results: await titleSearch(db, options.q, options.limit) };
  await requireIndexBuilt(db, engine);
  return { mode: "text", indexed: true, results: await textSearch(db, engine, options.q, options.limit) };
}

/**
 * Pages whose folded title starts with the folded query (pages_title_folded_idx), the exact title
 * first, then shorter titles, then alphabetically; the snippet is the start of the first content paragraph.
 */
export async function titleSearch(db: Db, q: string, limit: number): Promise<SearchResult[]> {
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

/**
 * The paragraphs `engine` ranks best for `q`, decorated from `pages` whichever engine ranked them:
 * the section (the nearest `Section::::` header above the paragraph) and the matched words marked
 * in the title and the snippet (ts_headline of the folded text). Internal: no authorization, no
 * check that the index is built (searchKnowledge does both).
 */
export async function textSearch(db: Db, engine: KnowledgeEngine, q: string, limit: number): Promise<SearchResult[]> {
  const ranked = await engine.rank(db, q, limit);
  const query = orQuery(q);
  if (!ranked.length || !query) return [];
  const rows = rowsOf<{ i: number; section: string; title: string; text: string; marked_text: string; marked_title: string }>(
    await db.execute(sql`with q as (select ${query} as query),
      top as (select r.i, r.w, r.p from unnest(${sql.param(ranked.map((r) => r.wikipediaId))}::text[], ${sql.param(ranked.map((r) => r.paragraphId))}::int[])
        with ordinality as r(w, p, i)),
      hit as (select top.i, pg.title, translate(regexp_replace(pg.paragraphs[top.p + 1], '^BULLET::::-? ?', ''), E'\\x01\\x02', '  ') as text,
          coalesce((select rtrim(h.t, E'\\n') from unnest(pg.paragraphs[2:top.p]) with ordinality as h(t, j)
            where h.t like 'Section::::%' order by h.j desc limit 1), '') as section
        from top join pages pg on pg.wikipedia_id = top.w where pg.paragraphs[top.p + 1] is not null)
      select hit.i, hit.section, hit.title, hit.text,
        ts_headline('english', kps_fold(hit.text), q.query, ${HEADLINE_OPTIONS}) as marked_text,
        ts_headline('english', kps_fold(translate(hit.title, E'\\x01\\x02', '  ')), q.query, ${HEADLINE_OPTIONS}) as marked_title
      from hit, q order by hit.i`),
  );
  return rows.map((r) => {
    const at = ranked[Number(r.i) - 1]!;
    return {
      wikipediaId: at.wikipediaId,
      title: r.title,
      paragraphId: at.paragraphId,
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

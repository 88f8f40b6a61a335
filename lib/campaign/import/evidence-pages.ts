import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import type { PageMatch } from "./evidence-map.contract";
import { titleText } from "./redirects";

/** The page an item of evidence given as text names. */
export interface PageRef {
  wikipediaId?: string;
  title?: string;
}

export interface FoundPage {
  wikipediaId: string;
  title: string;
  how: PageMatch;
  /** Found by a folded title that several pages share (the one of smallest id taken): how many share it. */
  sharedBy?: number;
}

type PageRow = { wikipedia_id: string; title: string };

/** kps_fold's accented letters (db/sql/search.sql), each with the letter it folds to. */
const FOLD_FROM =
  "àáâãäåāăąçćĉċčďđèéêëēĕėęěĝğġģĥħìíîïĩīĭįıĵķĺļľŀłñńņňòóôõöøōŏőŕŗřśŝşšţťŧùúûüũūŭůűųŵýÿŷźżžÀÁÂÃÄÅĀĂĄÇĆĈĊČĎĐÈÉÊËĒĔĖĘĚĜĞĠĢĤĦÌÍÎÏĨĪĬĮİĴĶĹĻĽĿŁÑŃŅŇÒÓÔÕÖØŌŎŐŔŖŘŚŜŞŠŢŤŦÙÚÛÜŨŪŬŮŰŲŴÝŸŶŹŻŽ";
const FOLD_TO =
  "aaaaaaaaacccccddeeeeeeeeegggghhiiiiiiiiijklllllnnnnooooooooorrrsssstttuuuuuuuuuuwyyyzzzaaaaaaaaacccccddeeeeeeeeegggghhiiiiiiiiijklllllnnnnooooooooorrrsssstttuuuuuuuuuuwyyyzzz";
const FOLDS = new Map(Array.from(FOLD_FROM).map((c, i) => [c, FOLD_TO[i]!]));

/**
 * kps_fold (db/sql/search.sql) in JavaScript, for titles matched outside the database (the filtered
 * knowledge import): the accented letters of its list replaced, then lower case. On a database whose
 * lower() leaves non-ASCII letters as they are (the C locale), it folds a little more than kps_fold:
 * two titles kps_fold makes equal, it makes equal too.
 */
export function foldedTitle(title: string): string {
  let out = "";
  for (const c of title) out += FOLDS.get(c) ?? c;
  return out.toLowerCase();
}
const CHUNK = 1000;

/** The knowledge source's pages of these ids. */
async function pagesById(db: Db, ids: string[]): Promise<Map<string, PageRow>> {
  const out = new Map<string, PageRow>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = rowsOf<PageRow>(
      await db.execute(sql`select wikipedia_id, title from pages where wikipedia_id = any(${sql.param(ids.slice(i, i + CHUNK))}::text[])`),
    );
    for (const r of rows) out.set(r.wikipedia_id, r);
  }
  return out;
}

/**
 * The pages titled like `names`: by exact title, and by title folded for case and accents (kps_fold,
 * db/sql/search.sql, as the title search folds; its index answers). Of two pages with one title or one
 * folded title, the one of smallest id counts; a folded title's match says how many pages share it
 * (the report names the items found so).
 */
async function pagesByTitle(db: Db, names: string[]) {
  const exact = new Map<string, PageRow>();
  // Each folded title's first page, and every page that shares it (a title folded alike in two chunks is read twice).
  const folded = new Map<string, PageRow & { shared: Set<string> }>();
  const foldOf = new Map<string, string>();
  for (let i = 0; i < names.length; i += CHUNK) {
    const chunk = names.slice(i, i + CHUNK);
    const folds = rowsOf<{ name: string; folded: string }>(
      await db.execute(sql`select x as name, kps_fold(x) as folded from unnest(${sql.param(chunk)}::text[]) as x`),
    );
    for (const f of folds) foldOf.set(f.name, f.folded);
    const rows = rowsOf<PageRow & { folded: string }>(
      await db.execute(sql`
        select wikipedia_id, title, kps_fold(title) as folded from pages
        where kps_fold(title) = any(${sql.param([...new Set(folds.map((f) => f.folded))])}::text[])
        order by char_length(wikipedia_id), wikipedia_id`),
    );
    for (const r of rows) {
      if (!exact.has(r.title)) exact.set(r.title, r);
      const first = folded.get(r.folded);
      if (first) first.shared.add(r.wikipedia_id);
      else folded.set(r.folded, { wikipedia_id: r.wikipedia_id, title: r.title, shared: new Set([r.wikipedia_id]) });
    }
  }
  const foldedRow = (name: string) => {
    const row = folded.get(foldOf.get(name) ?? "");
    return row && { wikipedia_id: row.wikipedia_id, title: row.title, pages: row.shared.size };
  };
  return { exact, folded: foldedRow };
}

/**
 * Each item's page: by its wikipedia_id, else its exact title, else the title a redirect leads to
 * (`redirects`: from-title → to-title; the target by its exact title, else folded), else its title
 * folded for case and accents; null when none is in the knowledge source.
 */
export async function findPages(db: Db, refs: readonly PageRef[], redirects: ReadonlyMap<string, string>): Promise<(FoundPage | null)[]> {
  const byId = await pagesById(db, [...new Set(refs.flatMap((r) => (r.wikipediaId === undefined ? [] : [r.wikipediaId])))]);
  const titles = refs.flatMap((r) => (r.title === undefined ? [] : [titleText(r.title)]));
  const names = [...new Set([...titles, ...titles.flatMap((t) => (redirects.has(t) ? [redirects.get(t)!] : []))])];
  const byTitle = await pagesByTitle(db, names);
  const found = (row: (PageRow & { pages?: number }) | undefined, how: PageMatch): FoundPage | null =>
    row ? { wikipediaId: row.wikipedia_id, title: row.title, how, ...(row.pages && row.pages > 1 ? { sharedBy: row.pages } : {}) } : null;
  return refs.map((r) => {
    const byItsId = r.wikipediaId === undefined ? null : found(byId.get(r.wikipediaId), "id");
    if (byItsId || r.title === undefined) return byItsId;
    const title = titleText(r.title);
    const target = redirects.get(title);
    return (
      found(byTitle.exact.get(title), "title") ??
      (target === undefined ? null : found(byTitle.exact.get(target) ?? byTitle.folded(target), "redirect")) ??
      found(byTitle.folded(title), "folded")
    );
  });
}

import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import { pages } from "@/db/schema";
import { unique } from "@/test/databases";
import type { KnowledgeEngine } from "./engine";

// The pages and helpers of the shared engine suite (engine-suite.ts): words no other test's pages
// hold, so the suite's queries answer alike on a database other files share.

/** Pages in KILT's shape: paragraph 0 the title line, each paragraph ending in a newline. */
export const kiltPage = (wikipediaId: string, title: string, body: string[]) => ({
  wikipediaId,
  title,
  paragraphs: [`${title}\n`, ...body.map((b) => `${b}\n`)],
});

/** The suite's pages, with a unique `tag` in every title and unique words in their text. */
export function suitePages() {
  const tag = unique("zq").replace("-", "");
  const word = (stem: string) => `${stem}${tag}`;
  const ids = { elodie: unique("p"), elodieMarchand: unique("p"), cafe: unique("p"), moving: unique("p"), fresh: unique("p") };
  const rows = [
    kiltPage(ids.elodie, `Élodie ${tag}`, [
      "Section::::Life.",
      "Élodie painted harbours near Brest.",
      "Section::::Later years.",
      `She moved to Quimper and taught ${word("drawing")}.`,
      "BULLET::::- A bullet about herons.",
    ]),
    kiltPage(ids.elodieMarchand, `Elodie ${tag} Marchand`, ["A singer from Lyon who recorded songs of the sea."]),
    kiltPage(ids.cafe, `Cafe ${tag}`, [`The cafe served creme brulee every evening to ${word("guests")}.`]),
    kiltPage(ids.moving, `Lantern ${tag}`, [`Lanterns of glass and ${word("amber")} lit the quay.`]),
  ];
  return { tag, word, ids, rows };
}

export async function insertPages(db: Db, rows: ReturnType<typeof kiltPage>[]): Promise<void> {
  await db.insert(pages).values(rows);
}

/** Changes a page's text as a re-import does: new paragraphs and `updated_at` now, so it is stale. */
export async function replaceText(db: Db, wikipediaId: string, paragraphs: string[]): Promise<void> {
  await db.execute(
    sql`update pages set paragraphs = ${sql.param(paragraphs)}::text[], updated_at = clock_timestamp() where wikipedia_id = ${wikipediaId}`,
  );
}

/** Runs the engine's chunks until no page is stale; returns the pages indexed. */
export async function indexAll(db: Db, engine: KnowledgeEngine, chunk = 500): Promise<number> {
  let total = 0;
  for (let n = await engine.indexStaleChunk(db, chunk); n > 0; n = await engine.indexStaleChunk(db, chunk)) total += n;
  return total;
}

export async function stalePageCount(db: Db): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from pages where indexed_at is null or indexed_at < updated_at`),
  );
  return row?.n ?? -1;
}

/** Queries that must never make an engine throw: tsquery and websearch syntax, quotes, length, unusual unicode. */
export const HOSTILE_QUERIES = [
  "'&|!():*<->",
  "!(a & b) | c:* <-> d <2> e",
  `"unbalanced quote 'and another`,
  "or OR Or -or",
  "-",
  "\\ % _ ; -- /* */ $$ $1",
  "a".repeat(10_000),
  "word ".repeat(2_000),
  "日本語の検索 ❤️ 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 \u200b ǅ ß İstanbul ﬁ Ⅻ ١٢٣ \u202e",
  "  \t\n ",
  "",
];

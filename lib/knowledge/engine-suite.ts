import "server-only";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle, Db } from "@/db/client";
import type { Actor } from "@/lib/auth/actor";
import { openPrivateDatabase, testDatabaseKinds, type DatabaseKind } from "@/test/databases";
import type { KnowledgeEngine, RankedHit } from "./engine";
import { HOSTILE_QUERIES, indexAll, insertPages, kiltPage, replaceText, stalePageCount, suitePages } from "./engine-suite-pages";
import { searchOptionsSchema } from "./schemas";
import { searchKnowledge, textSearch } from "./search";
import { plainText } from "./segments";

const annotator: Actor = { kind: "user", id: 1, username: "a", role: "annotator", via: "session" };

/** Makes the engine under test for a database (its files, if any, in a fresh place). */
export type MakeEngine = (db: Db, kind: DatabaseKind) => KnowledgeEngine | Promise<KnowledgeEngine>;

/**
 * The tests every KnowledgeEngine passes, once per test database: title search (shared by all
 * engines), text search decorated from `pages`, rank and rankMany alike, incremental updates,
 * clear and rebuild, and hostile query text. Each run has a database of its own (openPrivateDatabase):
 * `clear` empties the whole index and marks every page stale, which on the database other test
 * files share would take their index away mid-test, and `indexed_at` is one column for all
 * engines. Its pages still use unique titles and words. `cleanup` runs after the run (remove files).
 */
export function describeKnowledgeEngine(label: string, makeEngine: MakeEngine, cleanup?: (engine: KnowledgeEngine) => unknown): void {
  for (const kind of testDatabaseKinds()) {
    describe(`knowledge engine ${label} [${kind}]`, () => {
      let handle: DatabaseHandle | undefined;
      let drop: (() => Promise<void>) | undefined;
      let made: KnowledgeEngine | undefined;
      const data = suitePages();
      const db = () => handle!.db;
      const engine = () => made!;
      beforeAll(async () => {
        ({ handle, drop } = await openPrivateDatabase(kind));
        made = await makeEngine(handle.db, kind);
        await insertPages(handle.db, data.rows);
        await indexAll(handle.db, made);
      }, 120_000);
      afterAll(async () => {
        if (made) await cleanup?.(made);
        await drop?.();
      });
      suiteTests(db, engine, data);
    });
  }
}

const idsOf = (hits: { wikipediaId: string; paragraphId: number | null }[]) => hits.map((h) => `${h.wikipediaId}:${h.paragraphId}`);

function suiteTests(db: () => Db, engine: () => KnowledgeEngine, data: ReturnType<typeof suitePages>): void {
  searchTests(db, engine, data);
  indexTests(db, engine, data);
}

/** Title and text search, decorated alike whichever engine ranked. */
function searchTests(db: () => Db, engine: () => KnowledgeEngine, data: ReturnType<typeof suitePages>): void {
  const { tag, word, ids } = data;
  const title = async (q: string) =>
    (await searchKnowledge(db(), annotator, searchOptionsSchema.parse({ q, mode: "title" }), engine())).results;
  const text = (q: string, limit = 10) => textSearch(db(), engine(), q, limit);

  it("finds titles by prefix, case- and accent-insensitive, the exact title first", async () => {
    expect((await title(`élodie ${tag}`)).map((r) => r.wikipediaId)).toEqual([ids.elodie, ids.elodieMarchand]);
    expect((await title(`ELODIE ${tag}`)).map((r) => r.wikipediaId)).toEqual([ids.elodie, ids.elodieMarchand]);
    expect((await title(`Elodie ${tag} M`)).map((r) => r.wikipediaId)).toEqual([ids.elodieMarchand]);
    expect((await title("élod")).map((r) => r.wikipediaId)).toEqual(expect.arrayContaining([ids.elodie, ids.elodieMarchand]));
    expect((await title(`café ${tag}`)).map((r) => r.wikipediaId)).toEqual([ids.cafe]);
  });

  it("ranks paragraphs by text with the section and the matched words marked, segments making up the text", async () => {
    const found = await text(`Where did Élodie paint harbours, ${tag}?`);
    expect(found[0]).toMatchObject({ wikipediaId: ids.elodie, paragraphId: 2, section: "Section::::Life.", title: `Élodie ${tag}` });
    expect(plainText(found[0]!.snippet)).toBe("Élodie painted harbours near Brest.");
    expect(found[0]!.snippet.filter((s) => s.match).map((s) => s.text)).toEqual(["Élodie", "painted", "harbours"]);
    expect(plainText(found[0]!.titleSegments)).toBe(`Élodie ${tag}`);
    expect(found[0]!.titleSegments.filter((s) => s.match).map((s) => s.text)).toEqual(["Élodie", tag]);
    const later = await text(`taught ${word("drawing")} in Quimper`);
    expect(later[0]).toMatchObject({ wikipediaId: ids.elodie, paragraphId: 4, section: "Section::::Later years." });
    expect(plainText(later[0]!.snippet)).toBe(`She moved to Quimper and taught ${word("drawing")}.`);
    for (const r of found) expect(r.snippet.every((s) => s.text.length > 0)).toBe(true);
  });

  it("matches an accented query to unaccented text and an unaccented query to accented text", async () => {
    const accented = await text(`crème brûlée café ${word("guests")}`);
    expect(accented[0]).toMatchObject({ wikipediaId: ids.cafe, paragraphId: 1 });
    expect(accented[0]!.snippet.filter((s) => s.match).map((s) => s.text)).toEqual(expect.arrayContaining(["cafe", "creme", "brulee"]));
    const plain = await text(`Elodie painted harbours ${tag}`);
    expect(plain[0]).toMatchObject({ wikipediaId: ids.elodie, paragraphId: 2 });
    expect(plain[0]!.snippet.filter((s) => s.match).map((s) => s.text)).toContain("Élodie");
  });
}

/** Ranking, updates, hostile input, figures, clear and rebuild. */
function indexTests(db: () => Db, engine: () => KnowledgeEngine, data: ReturnType<typeof suitePages>): void {
  const { tag, word, ids } = data;
  const text = (q: string, limit = 10) => textSearch(db(), engine(), q, limit);

  it("ranks best first, at most the limit, and rankMany answers as rank one by one", async () => {
    const queries = [`Élodie harbours ${tag}`, `${word("amber")} lanterns`, `crème ${word("guests")}`, "", "'&|!():*<->", `${tag}`];
    const one: RankedHit[][] = [];
    for (const q of queries) one.push(await engine().rank(db(), q, 3));
    expect(await engine().rankMany(db(), queries, 3)).toEqual(one);
    expect(await engine().rankMany(db(), [], 3)).toEqual([]);
    for (const hits of one) {
      expect(hits.length).toBeLessThanOrEqual(3);
      expect(hits.every((h, i) => i === 0 || h.score <= hits[i - 1]!.score)).toBe(true);
    }
    expect(one[3]).toEqual([]);
    expect(await engine().rank(db(), `${tag} Élodie`, 0)).toEqual([]);
  });

  it("indexes a changed page by its new words, no longer by its old ones, and a new page, after the next chunk", async () => {
    const amber = word("amber");
    expect(idsOf(await engine().rank(db(), amber, 5))).toEqual([`${ids.moving}:1`]);
    await replaceText(db(), ids.moving, [`Lantern ${tag}\n`, `Kettles of copper and ${word("pewter")}.\n`]);
    await insertPages(db(), [kiltPage(ids.fresh, `Newcomer ${tag}`, [`A ${word("quince")} orchard.`])]);
    expect(await stalePageCount(db())).toBe(2);
    expect(await indexAll(db(), engine())).toBe(2);
    expect(await engine().rank(db(), amber, 5)).toEqual([]);
    expect(idsOf(await engine().rank(db(), word("pewter"), 5))).toEqual([`${ids.moving}:1`]);
    expect(idsOf(await engine().rank(db(), `${word("quince")} orchard`, 5))[0]).toBe(`${ids.fresh}:1`);
    expect(plainText((await text(word("pewter")))[0]!.snippet)).toBe(`Kettles of copper and ${word("pewter")}.`);
  });

  it("never throws on hostile query text, and answers [] where no word is left", async () => {
    for (const q of HOSTILE_QUERIES) {
      const hits = await engine().rank(db(), q, 4);
      expect(hits.length).toBeLessThanOrEqual(4);
      expect((await text(q, 4)).length).toBeLessThanOrEqual(4);
    }
    expect(await engine().rank(db(), "'&|!():*<->", 4)).toEqual([]);
    expect((await engine().rankMany(db(), HOSTILE_QUERIES, 2)).length).toBe(HOSTILE_QUERIES.length);
  });

  it("tells its figures", async () => {
    const figures = await engine().figures(db());
    expect(figures.method).toMatch(/\S/);
    expect(figures.paragraphs).toBeGreaterThanOrEqual(7);
    if (figures.bytes !== null) expect(figures.bytes).toBeGreaterThan(0);
  });

  // Last: it empties the index before building it again.
  it("after clear finds nothing until a rebuild from pages, which answers as before", async () => {
    const queries = [`Élodie harbours ${tag}`, `${word("pewter")} kettles`, `crème ${word("guests")}`, `${word("quince")} ${tag}`];
    const before = await Promise.all(queries.map((q) => engine().rank(db(), q, 5)));
    const paragraphs = (await engine().figures(db())).paragraphs;
    await engine().clear(db());
    expect(await stalePageCount(db())).toBe(data.rows.length + 1);
    for (const q of queries) expect(await engine().rank(db(), q, 5)).toEqual([]);
    expect(await indexAll(db(), engine())).toBe(data.rows.length + 1);
    const after = await Promise.all(queries.map((q) => engine().rank(db(), q, 5)));
    expect(after.map(idsOf)).toEqual(before.map(idsOf));
    expect((await engine().figures(db())).paragraphs).toBe(paragraphs);
  });
}

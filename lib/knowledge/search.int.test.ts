import { Readable } from "node:stream";
import { sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { rowsOf, type Db } from "@/db/client";
import { pages } from "@/db/schema";
import { system, type Actor } from "@/lib/auth/actor";
import { importKnowledge } from "@/lib/knowledge/import-knowledge";
import { describeEachDatabase, unique } from "@/test/databases";
import { buildIndex } from "./index-build";
import { searchOptionsSchema } from "./schemas";
import { getKnowledgePage, searchKnowledge } from "./search";
import { plainText } from "./segments";

const annotator: Actor = { kind: "user", id: 1, username: "a", role: "annotator", via: "session" };
const crowd: Actor = { kind: "user", id: 2, username: "c", role: "crowd", via: "session" };
const search = (db: Db, q: string, mode: "title" | "text" = "title", actor: Actor = annotator) =>
  searchKnowledge(db, actor, searchOptionsSchema.parse({ q, mode }));

describeEachDatabase("searching the knowledge source", ({ db }) => {
  const tag = unique("q").replace("-", "");
  const ids = { elodie: unique("p"), Elodie: unique("p"), pct: unique("p"), under: unique("p"), long: unique("p") };

  beforeAll(async () => {
    await db()
      .insert(pages)
      .values([
        {
          wikipediaId: ids.elodie,
          title: `Élodie ${tag}`,
          paragraphs: [`Élodie ${tag}\n`, "Section::::Life.\n", "Élodie painted harbours near Brest.\n"],
        },
        { wikipediaId: ids.Elodie, title: `Elodie ${tag} Marchand`, paragraphs: [`Elodie\n`, "A singer from Lyon.\n"] },
        { wikipediaId: ids.pct, title: `100% ${tag}`, paragraphs: ["100%\n", "A song.\n"] },
        { wikipediaId: ids.under, title: `100x ${tag}`, paragraphs: ["100x\n", "A zoom.\n"] },
        { wikipediaId: ids.long, title: `Snake_case ${tag}`, paragraphs: ["Snake_case\n", "Naming style.\n"] },
      ]);
  });

  it("finds titles by prefix, case- and accent-insensitive, the exact title first", async () => {
    const lower = await search(db(), `élodie ${tag}`);
    expect(lower.results.map((r) => r.wikipediaId)).toEqual([ids.elodie, ids.Elodie]);
    const upper = await search(db(), `ELODIE ${tag}`);
    expect(upper.results.map((r) => r.wikipediaId)).toEqual([ids.elodie, ids.Elodie]);
    expect(upper.results[0]).toMatchObject({
      paragraphId: null,
      section: "",
      snippet: [{ text: "Élodie painted harbours near Brest.", match: false }],
    });
    expect(upper.results[1]!.titleSegments).toEqual([
      { text: `Elodie ${tag}`, match: true },
      { text: " Marchand", match: false },
    ]);
    expect((await search(db(), "élo")).results.length).toBeGreaterThan(0);
  });

  it("takes % and _ literally", async () => {
    expect((await search(db(), "100%")).results.map((r) => r.wikipediaId)).toContain(ids.pct);
    expect((await search(db(), "100%")).results.map((r) => r.wikipediaId)).not.toContain(ids.under);
    expect((await search(db(), "snake_")).results.map((r) => r.wikipediaId)).toContain(ids.long);
    expect((await search(db(), "snake%")).results).toEqual([]);
  });

  it("refuses text search with 409 until the index is built, and crowd workers always", async () => {
    await expect(search(db(), "harbours", "title", crowd)).rejects.toMatchObject({ code: "forbidden" });
    // In a transaction rolled back: other suites on the shared server keep their index state.
    await db()
      .transaction(async (tx) => {
        await tx.execute(sql`delete from app_meta where key = 'knowledge_index'`);
        const refused = await search(tx as unknown as Db, "harbours", "text").catch((e) => e);
        expect(refused).toMatchObject({ code: "conflict", message: expect.stringContaining("kps knowledge index") });
        expect((await search(tx as unknown as Db, `élodie ${tag}`)).indexed).toBe(false);
        throw new Error("rollback");
      })
      .catch((e) => expect((e as Error).message).toBe("rollback"));
  });

  it("ranks paragraphs by text once indexed, with the matched words marked and the section", async () => {
    await buildIndex(db(), system);
    const found = await search(db(), `Where did Élodie paint harbours, ${tag}?`, "text");
    expect(found.indexed).toBe(true);
    const top = found.results[0]!;
    expect(top).toMatchObject({ wikipediaId: ids.elodie, paragraphId: 2, section: "Section::::Life." });
    expect(plainText(top.snippet)).toBe("Élodie painted harbours near Brest.");
    expect(top.snippet.filter((s) => s.match).map((s) => s.text)).toEqual(["Élodie", "painted", "harbours"]);
    expect(top.titleSegments.filter((s) => s.match).map((s) => s.text)).toEqual(["Élodie", tag]);
    expect((await search(db(), "'&|!():*<->", "text")).results).toEqual([]);
  });

  it("reads a page with every paragraph and its section", async () => {
    const page = await getKnowledgePage(db(), annotator, ids.elodie);
    expect(page.paragraphs).toEqual([
      { id: 0, text: `Élodie ${tag}\n`, section: "" },
      { id: 1, text: "Section::::Life.\n", section: "Section::::Life." },
      { id: 2, text: "Élodie painted harbours near Brest.\n", section: "Section::::Life." },
    ]);
    await expect(getKnowledgePage(db(), annotator, "../../etc/passwd")).rejects.toMatchObject({ code: "not_found" });
    await expect(getKnowledgePage(db(), crowd, ids.elodie)).rejects.toMatchObject({ code: "forbidden" });
  });

  it("indexes new and changed pages after a later import, and says how many", async () => {
    const id = unique("p");
    const line = (text: string) =>
      JSON.stringify({ wikipedia_id: id, wikipedia_title: `Importé ${tag}`, text: [`Importé ${tag}\n`, `${text}\n`] }) + "\n";
    const first = await importKnowledge(db(), system, { fileName: "a.jsonl", source: Readable.from([line("Lanterns of glass.")]) });
    // CI's PostgreSQL database is shared by the test files running at once: when another file's
    // build holds the lease past the import's wait, that build indexes the page and the import says 0.
    if (first.indexed === 0) await waitUntilIndexed(db(), id);
    else expect(first.indexed).toBeGreaterThanOrEqual(1);
    expect((await search(db(), `lanterns ${tag}`, "text")).results[0]).toMatchObject({ wikipediaId: id, paragraphId: 1 });
    await importKnowledge(db(), system, { fileName: "b.jsonl", source: Readable.from([line("Kettles of copper.")]) });
    const stale = (await search(db(), `lanterns ${tag}`, "text")).results.filter((r) => plainText(r.snippet).includes("Lanterns"));
    expect(stale).toEqual([]);
    expect(plainText((await search(db(), `kettles ${tag}`, "text")).results[0]!.snippet)).toBe("Kettles of copper.");
  });
});

/** Waits (at most 60 s) until another build has indexed the page. */
async function waitUntilIndexed(db: Db, wikipediaId: string): Promise<void> {
  const until = Date.now() + 60_000;
  for (;;) {
    const [row] = rowsOf<{ fresh: boolean }>(
      await db.execute(
        sql`select indexed_at is not null and indexed_at >= updated_at as fresh from pages where wikipedia_id = ${wikipediaId}`,
      ),
    );
    if (row?.fresh) return;
    if (Date.now() > until) throw new Error(`page ${wikipediaId} was not indexed within 60 s by the import or another build`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

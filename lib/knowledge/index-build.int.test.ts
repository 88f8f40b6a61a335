import { sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { rowsOf, type Db } from "@/db/client";
import { pages } from "@/db/schema";
import { system } from "@/lib/auth/actor";
import { describeEachDatabase, unique } from "@/test/databases";
import { buildIndex, getIndexStatus } from "./index-build";
import { rankParagraphs } from "./retrieve";

const page = (id: string, title: string, body: string[]) => ({
  wikipediaId: id,
  title,
  paragraphs: [`${title}\n`, ...body.map((b) => `${b}\n`)],
});

async function indexRows(db: Db, id: string) {
  return rowsOf<{ paragraph_id: number; section: string }>(
    await db.execute(sql`select paragraph_id, section from paragraph_index where wikipedia_id = ${id} order by paragraph_id`),
  );
}

describeEachDatabase("the text index", ({ db }) => {
  const word = unique("zorblat").replace("-", "");
  const a = unique("page");
  const b = unique("page");

  beforeAll(async () => {
    await db()
      .insert(pages)
      .values([
        page(a, `Quentor ${word}`, [
          "The quentor lake lies north of the city.",
          "Section::::History.",
          "Fishermen settled the shore of the lake in 1203.",
          "BULLET::::- A bullet about herons.",
        ]),
        page(b, "Mirelle Abbey", [`The abbey keeps a ${word} manuscript.`, "Section::::Architecture.", "Its cloister has forty arches."]),
      ]);
  });

  it("indexes content paragraphs with KILT's ids and the section above each", async () => {
    await buildIndex(db(), system);
    expect(await indexRows(db(), a)).toEqual([
      { paragraph_id: 1, section: "" },
      { paragraph_id: 3, section: "Section::::History." },
      { paragraph_id: 4, section: "Section::::History." },
    ]);
    const status = await getIndexStatus(db(), system);
    expect(status).toMatchObject({ state: "ready", stalePages: 0, progress: null });
  });

  it("ranks paragraphs of a question-like query, best first", async () => {
    const ranked = await rankParagraphs(db(), `When did fishermen settle the shore of the ${word} lake?`, 4);
    expect(ranked[0]).toMatchObject({ wikipediaId: a, paragraphId: 3 });
    expect(ranked.every((r, i) => i === 0 || r.score <= ranked[i - 1]!.score)).toBe(true);
    expect(await rankParagraphs(db(), "'&|!():*<->", 4)).toEqual([]);
  });

  it("re-indexes a changed page, replacing its rows", async () => {
    await db().execute(
      sql`update pages set paragraphs = array[${`Quentor ${word}\n`}, 'Only one paragraph now.\n'], updated_at = now() where wikipedia_id = ${a}`,
    );
    expect((await getIndexStatus(db(), system)).stalePages).toBeGreaterThanOrEqual(1);
    await buildIndex(db(), system);
    expect(await indexRows(db(), a)).toEqual([{ paragraph_id: 1, section: "" }]);
  });
});

import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { describeEachDatabase, unique } from "@/test/databases";
import { rowsOf } from "./client";
import { copyValue, openCopyStream, textArrayLiteral } from "./bulk";

describeEachDatabase("COPY", ({ db }) => {
  it("stores text and arrays exactly, whatever characters they hold", async () => {
    const table = unique("copy_ok").replace("-", "_");
    await db().execute(sql.raw(`create table ${table} (id int, title text, paragraphs text[])`));
    const values = ["tab\there", "new\nline", "back\\slash", 'quote " and {brace}, comma', "\\N", "NULL", "𐌅𐌄𐌋 e\u0301 白 שלום", "", "\r\n"];
    const copy = await openCopyStream(db(), table, ["id", "title", "paragraphs"]);
    for (let i = 0; i < 3000; i++) await copy.writeRow([String(i), copyValue(values[i % values.length]!), copyValue(textArrayLiteral(values))]);
    await copy.end();
    const rows = rowsOf<{ id: number; title: string; paragraphs: string[] }>(await db().execute(sql.raw(`select id, title, paragraphs from ${table} order by id limit 20`)));
    expect(rows).toHaveLength(20);
    rows.forEach((r, i) => {
      expect(r.title).toBe(values[i % values.length]);
      expect(r.paragraphs).toEqual(values);
    });
    await db().execute(sql.raw(`drop table ${table}`));
  });

  it("fails, rather than hangs, when the server refuses a row", async () => {
    const table = unique("copy_bad").replace("-", "_");
    await db().execute(sql.raw(`create table ${table} (a int)`));
    const copy = await openCopyStream(db(), table, ["a"], { finishTimeoutMs: 3000 });
    const run = (async () => {
      for (let i = 0; i < 1000; i++) await copy.writeRow([i === 500 ? "not a number" : String(i)]);
      await copy.end();
    })();
    await expect(run).rejects.toThrow();
    await db().execute(sql.raw(`drop table ${table}`));
  });
});

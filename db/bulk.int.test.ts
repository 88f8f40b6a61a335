import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { describeEachDatabase, unique } from "@/test/databases";
import { rowsOf } from "./client";
import { copyValue, openCopyStream, textArrayLiteral } from "./bulk";

describeEachDatabase("COPY", ({ db }) => {
  it("stores text and arrays exactly, whatever characters they hold", async () => {
    const table = unique("copy_ok").replace("-", "_");
    await db().execute(sql.raw(`create table ${table} (id int, title text, paragraphs text[])`));
    const values = [
      "tab\there",
      "new\nline",
      "back\\slash",
      'quote " and {brace}, comma',
      "\\N",
      "NULL",
      "𐌅𐌄𐌋 e\u0301 白 שלום",
      "",
      "\r\n",
    ];
    const copy = await openCopyStream(db(), table, ["id", "title", "paragraphs"]);
    for (let i = 0; i < 3000; i++)
      await copy.writeRow([String(i), copyValue(values[i % values.length]!), copyValue(textArrayLiteral(values))]);
    await copy.end();
    const rows = rowsOf<{ id: number; title: string; paragraphs: string[] }>(
      await db().execute(sql.raw(`select id, title, paragraphs from ${table} order by id limit 20`)),
    );
    expect(rows).toHaveLength(20);
    rows.forEach((r, i) => {
      expect(r.title).toBe(values[i % values.length]);
      expect(r.paragraphs).toEqual(values);
    });
    await db().execute(sql.raw(`drop table ${table}`));
  });

  it("stores every row when they fill several COPY chunks, one row larger than a chunk among them", async () => {
    const table = unique("copy_big").replace("-", "_");
    await db().execute(sql.raw(`create table ${table} (id int, paragraphs text[])`));
    const paragraph = (i: number) => `${i} 白凪 𐌅 "q" \\ tab\t line\n`.repeat(i === 1500 ? 60_000 : 40);
    const copy = await openCopyStream(db(), table, ["id", "paragraphs"]);
    for (let i = 0; i < 3000; i++) await copy.writeRow([String(i), copyValue(textArrayLiteral([paragraph(i), "end"]))]);
    await copy.end();
    const [counts] = rowsOf<{ n: number; bytes: number }>(
      await db().execute(sql.raw(`select count(*)::int as n, sum(octet_length(paragraphs[1]))::int as bytes from ${table}`)),
    );
    expect(counts?.n).toBe(3000);
    expect(counts!.bytes).toBeGreaterThan(5 * 1024 * 1024);
    const rows = rowsOf<{ id: number; paragraphs: string[] }>(
      await db().execute(sql.raw(`select id, paragraphs from ${table} where id in (0, 1499, 1500, 1501, 2999) order by id`)),
    );
    expect(rows.map((r) => r.id)).toEqual([0, 1499, 1500, 1501, 2999]);
    for (const r of rows) expect(r.paragraphs).toEqual([paragraph(r.id), "end"]);
    await db().execute(sql.raw(`drop table ${table}`));
  });

  it("keeps its connection to itself while other queries fill the pool (postgres.js pipelines onto busy connections)", async () => {
    const table = unique("copy_busy").replace("-", "_");
    await db().execute(sql.raw(`create table ${table} (id int)`));
    const copy = await openCopyStream(db(), table, ["id"]);
    // Far more queries than the pool has connections, sent while the COPY is open: before the
    // connection was reserved, one of them landed inside the COPY and the server ended it.
    const load = Promise.all(Array.from({ length: 200 }, (_, i) => db().execute(sql`select ${i}::int as n, pg_sleep(0.001)`)));
    for (let i = 0; i < 2000; i++) await copy.writeRow([String(i)]);
    await copy.end();
    expect((await load).length).toBe(200);
    const [row] = rowsOf<{ n: number }>(await db().execute(sql.raw(`select count(*)::int as n from ${table}`)));
    expect(row?.n).toBe(2000);
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

import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { describeEachDatabase, unique } from "@/test/databases";
import { rowsOf } from "./client";
import { copyLines } from "./copy-lines";

describeEachDatabase("copyLines (COPY … TO as lines)", ({ db }) => {
  it("hands out every value byte for byte, one per line, in chunks of whole lines", async () => {
    const table = unique("copy_lines").replace("-", "_");
    await db().execute(sql.raw(`create table ${table} (id int, v text)`));
    // What COPY's text format would change (backslashes, a tab) and what CSV would quote if its quote were '"' (quotes, commas).
    const values = [
      '{"a":"back\\\\slash \\" \\n \\u0001"}',
      "tab\there",
      'quote " and , comma',
      "\\.x",
      "\\N",
      "𐌅𐌄𐌋 e\u0301 白 \u2028\u2029",
      "x",
    ];
    for (let i = 0; i < 3000; i += 500) {
      const batch = Array.from({ length: 500 }, (_, k) => sql`(${i + k}, ${values[(i + k) % values.length]! + "·".repeat((i + k) % 97)})`);
      await db().execute(sql`insert into ${sql.raw(table)} (id, v) values ${sql.join(batch, sql`, `)}`);
    }
    const chunks = await copyLines(db(), `select v from ${table} order by id`, { settings: { jit: "off" } });
    const expected = rowsOf<{ v: string }>(await db().execute(sql.raw(`select v from ${table} order by id`)))
      .map((r) => r.v + "\n")
      .join("");
    expect(Buffer.concat(chunks).equals(Buffer.from(expected, "utf8"))).toBe(true);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.every((c) => c.length > 0 && c[c.length - 1] === 10)).toBe(true);
    await db().execute(sql.raw(`drop table ${table}`));
  });

  it("refuses a value COPY would have to quote, rather than altering it", async () => {
    await expect(copyLines(db(), `select 'line' || chr(10) || 'feed'`)).rejects.toThrow(/would have changed/);
    await expect(copyLines(db(), `select ''`)).rejects.toThrow(/would have changed/);
  });

  it("fails with the server's error when a row fails mid-stream, and the database stays usable", async () => {
    const failing = `select case when i < 20000 then repeat('x', 100) else (1 / (i - i))::text end from generate_series(1, 30000) i`;
    await expect(copyLines(db(), failing, { settings: { jit: "off" } })).rejects.toThrow(/division by zero/);
    const [r] = rowsOf<{ one: number }>(await db().execute(sql`select 1 as one`));
    expect(Number(r!.one)).toBe(1);
    expect(Buffer.concat(await copyLines(db(), `select 'ok'`)).toString()).toBe("ok\n");
  });
});

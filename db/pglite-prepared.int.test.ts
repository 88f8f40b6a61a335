import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pglitePreparedRows } from "./pglite-prepared";

describe("named prepared statements on PGlite", () => {
  let client: PGlite;
  beforeAll(async () => {
    client = await PGlite.create();
    await client.exec("create table t (id bigint primary key, name text not null, at timestamptz not null default now(), tags text[])");
  });
  afterAll(() => client.close());

  /** Parse messages ('P') sent while `body` runs. */
  async function parses<T>(body: () => Promise<T>): Promise<{ result: T; parses: number }> {
    const target = client as unknown as { execProtocolStream: PGlite["execProtocolStream"] };
    const original = target.execProtocolStream;
    let parses = 0;
    target.execProtocolStream = function (this: PGlite, message, options) {
      if (message[0] === 0x50) parses++;
      return original.call(this, message, options);
    } as PGlite["execProtocolStream"];
    try {
      return { result: await body(), parses };
    } finally {
      target.execProtocolStream = original;
    }
  }

  it("parses a statement once, then only binds and executes it; rows as query() gives them", async () => {
    const insert = "insert into t (id, name, tags) values ($1, $2, $3::text[]) returning id, name, tags";
    const first = await parses(() => pglitePreparedRows(client, insert, [1, "one", "{a,b}"]));
    const second = await parses(() => pglitePreparedRows(client, insert, [2, "two", null]));
    expect(first.parses).toBe(1);
    expect(second.parses).toBe(0);
    expect(first.result).toEqual([{ id: 1, name: "one", tags: ["a", "b"] }]);
    const select = "select id, name, at, tags, $2::boolean as flag from t where id <= $1 order by id";
    const prepared = await pglitePreparedRows(client, select, [2, true]);
    expect(prepared).toEqual((await client.query(select, [2, true])).rows);
    expect(prepared[0]!).toMatchObject({ id: 1, flag: true });
    expect((prepared[0] as { at: unknown }).at).toBeInstanceOf(Date);
  });

  it("an error keeps its SQLSTATE and leaves the connection usable", async () => {
    const insert = "insert into t (id, name) values ($1, $2)";
    await pglitePreparedRows(client, insert, [10, "ten"]);
    await expect(pglitePreparedRows(client, insert, [10, "again"])).rejects.toMatchObject({ code: "23505" });
    await expect(pglitePreparedRows(client, "select nonsense from", [])).rejects.toMatchObject({ code: "42601" });
    expect(await pglitePreparedRows(client, "select count(*)::int as n from t where id = $1", [10])).toEqual([{ n: 1 }]);
  });

  it("waits for another caller's transaction instead of running inside it", async () => {
    let inside!: () => void;
    const started = new Promise<void>((resolve) => (inside = resolve));
    const transaction = client.transaction(async (tx) => {
      await tx.query("insert into t (id, name) values (20, 'in a transaction')");
      inside();
      await new Promise((r) => setTimeout(r, 200));
      await tx.rollback();
    });
    await started;
    // Run inside the open transaction, this would see row 20 (and be rolled back with it).
    const seen = await pglitePreparedRows(client, "select count(*)::int as n from t where id = $1", [20]);
    await transaction;
    expect(seen).toEqual([{ n: 0 }]);
  });
});

import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { describeEachDatabase, testDatabaseUrl } from "@/test/databases";
import { DEFAULT_POOL_SIZE, openDatabase, rowsOf } from "./client";
import { databaseConfigOf, databaseEnvShape } from "./config";

// The connection parameters db/client.ts sends to a server. PGlite is built without LLVM: it never
// compiles, whatever its `jit` setting says; the plan is checked on both.
describeEachDatabase("connections", ({ db, kind }) => {
  it("run without JIT: a statement the planner costs far above jit_above_cost is not compiled", async () => {
    if (kind === "postgres") {
      // Every connection of the pool: several at once, each asked.
      const all = await Promise.all(
        Array.from({ length: 5 }, () => db().execute(sql`select current_setting('jit') as jit, pg_backend_pid() as pid, pg_sleep(0.05)`)),
      );
      expect(new Set(all.map((r) => rowsOf<{ jit: string }>(r)[0]!.jit))).toEqual(new Set(["off"]));
    }
    const [plan] = rowsOf<{ "QUERY PLAN": unknown }>(
      await db().execute(
        sql`explain (analyze, format json) select sum(a * b) from generate_series(1, 3000000) a cross join generate_series(1, 10) b where a < 100`,
      ),
    );
    const top = (plan!["QUERY PLAN"] as { Plan: { "Total Cost": number }; JIT?: unknown }[])[0]!;
    const [cost] = rowsOf<{ above: string }>(await db().execute(sql`select current_setting('jit_above_cost') as above`));
    expect(top.Plan["Total Cost"]).toBeGreaterThan(Number(cost!.above));
    expect(top.JIT).toBeUndefined();
  });
});

// KPS_DB_POOL: each process opens at most that many connections to a server; requests past them
// wait for a free one instead of failing. Counted by backend pid, from the pool's own statements.
describe("the connection pool", () => {
  const url = testDatabaseUrl();
  it.runIf(url !== undefined)("opens at most poolSize connections, and the requests past them wait their turn", async () => {
    const sizes = [3, DEFAULT_POOL_SIZE];
    for (const poolSize of sizes) {
      const handle = await openDatabase({ url: url!, poolSize });
      try {
        const all = await Promise.all(
          Array.from({ length: poolSize * 3 }, () => handle.db.execute(sql`select pg_backend_pid() as pid, pg_sleep(0.05)`)),
        );
        expect(all).toHaveLength(poolSize * 3);
        expect(new Set(all.map((r) => rowsOf<{ pid: number }>(r)[0]!.pid)).size).toBe(poolSize);
      } finally {
        await handle.close();
      }
    }
  });

  it("reads KPS_DB_POOL as a whole number of at least 1, and says which variable is wrong", () => {
    const shape = z.object(databaseEnvShape);
    expect(databaseConfigOf(shape.parse({ KPS_DB_POOL: "4" })).poolSize).toBe(4);
    expect(databaseConfigOf(shape.parse({})).poolSize).toBeUndefined();
    for (const bad of ["0", "-1", "2.5", "eight", "1e9"]) {
      const result = shape.safeParse({ KPS_DB_POOL: bad });
      expect(result.success, bad).toBe(false);
      expect(result.error?.issues[0]?.path).toEqual(["KPS_DB_POOL"]);
    }
  });
});

import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { describeEachDatabase } from "@/test/databases";
import { rowsOf } from "./client";

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

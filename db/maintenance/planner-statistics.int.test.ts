import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rowsOf, type Db } from "@/db/client";
import { makeCampaign } from "@/test/campaign-factory";
import { useEmptyPglite } from "@/test/databases";
import { HOT_TABLES, keepStatisticsFresh, staleTables } from "./planner-statistics";

/** How many times each hot table was analyzed (PGlite keeps pg_stat_user_tables). */
async function analyzeCounts(db: Db): Promise<Record<string, number>> {
  const rows = rowsOf<{ relname: string; n: number }>(
    await db.execute(
      sql`select relname, analyze_count::int as n from pg_stat_user_tables where relname in ('passages', 'claims', 'judgments', 'queries')`,
    ),
  );
  return Object.fromEntries(rows.map((r) => [r.relname, r.n]));
}

describe("planner statistics on PGlite (no autovacuum)", () => {
  const handle = useEmptyPglite();

  it("analyzes every hot table at start, then only the tables whose rows changed enough", async () => {
    const { db } = handle();
    await makeCampaign(db, { queries: 40, candidates: 2 });
    await db.execute(sql`select pg_stat_force_next_flush()`);
    const before = await analyzeCounts(db);

    const keeper = keepStatisticsFresh(handle(), 3_600_000);
    try {
      // The start-up round: all four, whatever their counts.
      await keeper.runOnce(); // one round at a time: this is the start-up round, still running
      await db.execute(sql`select pg_stat_force_next_flush()`);
      const started = await analyzeCounts(db);
      for (const t of HOT_TABLES) expect(started[t], t).toBeGreaterThan(before[t] ?? 0);
      expect(await staleTables(db)).toEqual([]);

      // 40 questions, each updated twice: 80 changes > 50 + 10 % of 40 rows. Passages barely change.
      await db.execute(sql`update queries set line_number = line_number`);
      await db.execute(sql`update queries set line_number = line_number`);
      expect(await staleTables(db)).toEqual(["queries"]);
      expect(await keeper.runOnce()).toEqual(["queries"]);
      await db.execute(sql`select pg_stat_force_next_flush()`);
      const after = await analyzeCounts(db);
      expect(after.queries).toBe(started.queries! + 1);
      expect(after.passages).toBe(started.passages);
      expect(await staleTables(db)).toEqual([]);
      expect(keeper.analyzed()).toBe(HOT_TABLES.length + 1);
    } finally {
      keeper.stop();
    }
  });

  it("does nothing on PostgreSQL, which has autovacuum", async () => {
    const keeper = keepStatisticsFresh({ db: handle().db, kind: "postgres" });
    expect(await keeper.runOnce()).toEqual([]);
    expect(keeper.analyzed()).toBe(0);
    keeper.stop();
  });
});

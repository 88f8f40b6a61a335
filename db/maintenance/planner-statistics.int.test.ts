import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf, type Db } from "@/db/client";
import { makeCampaign } from "@/test/campaign-factory";
import { openPrivateDatabase, testDatabaseKinds, useEmptyPglite } from "@/test/databases";
import { autovacuumAnalyzes, HOT_TABLES, keepStatisticsFresh, staleTables } from "./planner-statistics";

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

  it("does nothing where the database says autovacuum is on (a PGlite handle passed as a PostgreSQL server's)", async () => {
    // The PGlite handle reports autovacuum on (the setting; it has no launcher): as a PostgreSQL server would.
    const keeper = keepStatisticsFresh({ db: handle().db, kind: "postgres" }, 3_600_000);
    expect(await keeper.runOnce()).toEqual([]);
    expect(keeper.analyzed()).toBe(0);
    keeper.stop();
  });
});

// On a PostgreSQL server: what autovacuum does, unless it is off (as on CI's server), when two
// processes' keepers do it, one at a time.
for (const kind of testDatabaseKinds().filter((k) => k === "postgres")) {
  describe(`planner statistics on a PostgreSQL server [${kind}]`, () => {
    let own: Awaited<ReturnType<typeof openPrivateDatabase>> | undefined;
    beforeAll(async () => {
      own = await openPrivateDatabase(kind);
    });
    afterAll(async () => own?.drop());

    it("analyzes the changed hot tables, once for two processes, only when the server's autovacuum is off", async () => {
      const { db } = own!.handle;
      const [setting] = rowsOf<{ autovacuum: string; track_counts: string }>(
        await db.execute(sql`select current_setting('autovacuum') as autovacuum, current_setting('track_counts') as track_counts`),
      );
      const serverAnalyzes = setting!.autovacuum === "on" && setting!.track_counts === "on";
      expect(await autovacuumAnalyzes(own!.handle)).toBe(serverAnalyzes);

      await makeCampaign(db, { queries: 40, candidates: 2 });
      // 80 changes of 40 questions, counted where every connection sees them (flushed at commit).
      await db.transaction(async (tx) => {
        await tx.execute(sql`update queries set line_number = line_number`);
        await tx.execute(sql`update queries set line_number = line_number`);
        await tx.execute(sql`select pg_stat_force_next_flush()`);
      });
      const before = await analyzeCounts(db);

      // Two processes' keepers, one round each at the same time.
      let warned = 0;
      const keepers = [0, 1].map(() => keepStatisticsFresh(own!.handle, 3_600_000, () => warned++));
      try {
        const rounds = await Promise.all(keepers.map((k) => k.runOnce()));
        await db.execute(sql`select pg_stat_force_next_flush()`);
        const after = await analyzeCounts(db);
        // Each keeper (each process) says once that autovacuum is off, and only then.
        expect(warned).toBe(serverAnalyzes ? 0 : 2);
        if (serverAnalyzes) {
          expect(rounds).toEqual([[], []]);
          expect(after.queries).toBe(before.queries);
        } else {
          // Queries changed past the rule (other tables may be due too: the changes counted on the pool's
          // other connections reach the statistics when those flush them). Each due table was analyzed
          // by one keeper: the other found the lock taken, or nothing left to do.
          const analyzed = rounds.flat();
          expect(analyzed).toContain("queries");
          expect(new Set(analyzed).size).toBe(analyzed.length);
          for (const t of HOT_TABLES) expect(after[t], t).toBe(before[t]! + (analyzed.includes(t) ? 1 : 0));
        }
      } finally {
        for (const k of keepers) k.stop();
      }
    });
  });
}

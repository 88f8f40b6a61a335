import { sql } from "drizzle-orm";
import { rowsOf, type DatabaseHandle, type Db } from "@/db/client";

// PGlite runs no autovacuum, so nothing refreshes the planner's statistics while annotators work:
// the hot tables grow from a few rows to millions and the planner keeps the estimates of the day
// they were created (a seq scan where an index would do, or the other way round). This keeps them
// fresh as autovacuum would: ANALYZE at start-up, then, every minute, of each hot table whose rows
// changed past autovacuum's default rule since its last ANALYZE. PostgreSQL has autovacuum.

/** The tables the annotation path and the dashboard read on every request. */
export const HOT_TABLES = ["passages", "claims", "judgments", "queries"] as const;
export type HotTable = (typeof HOT_TABLES)[number];

/** autovacuum_analyze_threshold and autovacuum_analyze_scale_factor, PostgreSQL's defaults. */
const ANALYZE_THRESHOLD = 50;
const ANALYZE_SCALE_FACTOR = 0.1;

/** How often the keeper looks at the change counts (a cheap read of pg_stat_user_tables). */
export const CHECK_INTERVAL_MS = 60_000;

/**
 * The hot tables due for an ANALYZE: never analyzed and not empty, or changed in more than
 * 50 + 10 % of their rows since the last one (`n_mod_since_analyze`, which PGlite keeps too).
 */
export async function staleTables(db: Db): Promise<HotTable[]> {
  // The change counts reach pg_stat_user_tables at most once a second; this makes them current.
  await db.execute(sql`select pg_stat_force_next_flush()`);
  const rows = rowsOf<{ relname: HotTable }>(
    await db.execute(sql`
      select s.relname from pg_stat_user_tables s join pg_class c on c.oid = s.relid
      where s.schemaname = current_schema() and s.relname in (${sql.join(
        HOT_TABLES.map((t) => sql`${t}`),
        sql`, `,
      )})
        and ((coalesce(s.last_analyze, s.last_autoanalyze) is null and s.n_live_tup + s.n_mod_since_analyze > 0)
          or s.n_mod_since_analyze > ${ANALYZE_THRESHOLD} + ${ANALYZE_SCALE_FACTOR} * greatest(c.reltuples, 0))
      order by s.relname`),
  );
  return rows.map((r) => r.relname);
}

/** ANALYZE of each table in its own statement, so that on PGlite's one connection requests run between them. */
export async function analyzeTables(db: Db, tables: readonly HotTable[]): Promise<void> {
  for (const table of tables) {
    if (!HOT_TABLES.includes(table)) throw new Error(`not a hot table: ${table}`);
    await db.execute(sql`analyze ${sql.identifier(table)}`);
  }
}

export interface StatisticsKeeper {
  /** One round: the stale hot tables analyzed; returns their names. Never two rounds at once. */
  runOnce(): Promise<HotTable[]>;
  /** How many tables the keeper analyzed since it started. */
  analyzed(): number;
  stop(): void;
}

/**
 * On PGlite: analyzes every hot table now (off the start-up path: the first requests may run
 * between its statements), then the stale ones every `intervalMs`. On PostgreSQL: nothing
 * (autovacuum does it). Errors only skip a round.
 */
export function keepStatisticsFresh(handle: Pick<DatabaseHandle, "db" | "kind">, intervalMs = CHECK_INTERVAL_MS): StatisticsKeeper {
  let running: Promise<HotTable[]> | null = null;
  let analyzed = 0;
  const round = (tables?: readonly HotTable[]) => {
    running ??= (async () => {
      try {
        const due = tables ?? (await staleTables(handle.db));
        await analyzeTables(handle.db, due);
        analyzed += due.length;
        return [...due];
      } finally {
        running = null;
      }
    })();
    return running;
  };
  if (handle.kind !== "pglite") return { runOnce: async () => [], analyzed: () => 0, stop: () => {} };
  round(HOT_TABLES).catch(() => {});
  const timer = setInterval(() => {
    round().catch(() => {});
  }, intervalMs);
  timer.unref();
  return { runOnce: () => round(), analyzed: () => analyzed, stop: () => clearInterval(timer) };
}

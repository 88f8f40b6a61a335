import { sql } from "drizzle-orm";
import { rowsOf, type DatabaseHandle, type Db, type Tx } from "@/db/client";

// PGlite runs no autovacuum, so nothing refreshes the planner's statistics while annotators work:
// the hot tables grow from a few rows to millions and the planner keeps the estimates of the day
// they were created (a seq scan where an index would do, or the other way round). The statements of
// the judging path are prepared once per connection, and their plans are made again only when a
// table they read is analyzed: without statistics, the claim statement keeps plans made for empty
// tables, which read every claim and judgment of the annotator, or every judgment of the campaign's
// day, for each task handed out (plan-statistics.int.test.ts). This keeps them fresh as autovacuum
// would: every minute, ANALYZE of each hot table whose rows changed past autovacuum's default rule
// since its last ANALYZE (on PGlite of every hot table at start-up too). PostgreSQL does it itself
// with autovacuum on; a server whose autovacuum is off (as CI's is) gets the same keeper.

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
export async function staleTables(db: Db | Tx): Promise<HotTable[]> {
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
export async function analyzeTables(db: Db | Tx, tables: readonly HotTable[]): Promise<void> {
  for (const table of tables) {
    if (!HOT_TABLES.includes(table)) throw new Error(`not a hot table: ${table}`);
    await db.execute(sql`analyze ${sql.identifier(table)}`);
  }
}

/** What the server says at start-up on a PostgreSQL server whose autovacuum is off. */
export const AUTOVACUUM_OFF =
  "PostgreSQL's autovacuum is off (or track_counts): the app analyzes its hot tables itself, so the judging path keeps its plans, " +
  "but nothing vacuums them and their dead rows pile up. Turn autovacuum on (docs/operations.md).";

/** The advisory lock key that lets one process of a PostgreSQL server analyze at a time. */
const KEEPER_LOCK = 4_711_008_003;

/**
 * Whether PostgreSQL's autovacuum analyzes the tables itself: `autovacuum` and `track_counts` (its
 * change counts) both on. PGlite: never (it has no autovacuum launcher, whatever the setting says).
 */
export async function autovacuumAnalyzes(handle: Pick<DatabaseHandle, "db" | "kind">): Promise<boolean> {
  if (handle.kind === "pglite") return false;
  const [row] = rowsOf<{ on: boolean }>(
    await handle.db.execute(sql`select current_setting('autovacuum')::boolean and current_setting('track_counts')::boolean as on`),
  );
  return row?.on === true;
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
 * between its statements), then the stale ones every `intervalMs`. On PostgreSQL with autovacuum
 * off: the stale ones now and every `intervalMs`, one process of the server at a time (an advisory
 * try-lock in the round's transaction; a process that finds it taken skips the round), and
 * `onAutovacuumOff` is called once, when the keeper finds it so. On PostgreSQL with autovacuum on:
 * nothing. Errors only skip a round.
 */
export function keepStatisticsFresh(
  handle: Pick<DatabaseHandle, "db" | "kind">,
  intervalMs = CHECK_INTERVAL_MS,
  onAutovacuumOff: () => void = () => {},
): StatisticsKeeper {
  let running: Promise<HotTable[]> | null = null;
  let analyzed = 0;
  // Whether this keeper has work: read at its first round that reaches the database (on PostgreSQL
  // the setting changes only with a reload), again after a round that could not read it.
  let active: boolean | undefined = handle.kind === "pglite" ? true : undefined;
  const analyzeDue = async (db: Db | Tx, tables?: readonly HotTable[]): Promise<HotTable[]> => {
    const due = tables ?? (await staleTables(db));
    await analyzeTables(db, due);
    return [...due];
  };
  const oneProcessAtATime = (tables?: readonly HotTable[]) =>
    handle.db.transaction(async (tx) => {
      const [turn] = rowsOf<{ ok: boolean }>(await tx.execute(sql`select pg_try_advisory_xact_lock(${KEEPER_LOCK}) as ok`));
      return turn?.ok ? analyzeDue(tx, tables) : [];
    });
  const round = (tables?: readonly HotTable[]) => {
    running ??= (async () => {
      try {
        if (active === undefined) {
          active = !(await autovacuumAnalyzes(handle));
          if (active) onAutovacuumOff();
        }
        if (!active) return [];
        const due = handle.kind === "pglite" ? await analyzeDue(handle.db, tables) : await oneProcessAtATime(tables);
        analyzed += due.length;
        return due;
      } finally {
        running = null;
      }
    })();
    return running;
  };
  round(handle.kind === "pglite" ? HOT_TABLES : undefined).catch(() => {});
  const timer = setInterval(() => {
    round().catch(() => {});
  }, intervalMs);
  timer.unref();
  return { runOnce: () => round(), analyzed: () => analyzed, stop: () => clearInterval(timer) };
}

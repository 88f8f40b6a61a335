import { rawClientOf, type Db, type Tx } from "@/db/client";
import { pglitePreparedRows } from "@/db/pglite-prepared";
import { AppError } from "@/lib/errors";

/**
 * A drizzle prepared statement (`.prepare("name")`), built once per database object and reused: the
 * query builder runs once, not per call, and on PostgreSQL postgres.js sends it as a named statement
 * (parsed and planned once per connection; `prepare` is on by default in postgres.js, and the app
 * connects to PostgreSQL directly — a transaction-pooling PgBouncer would need `prepare: false`).
 */
const KEY = Symbol.for("kps.prepared");
const store: WeakMap<object, Map<string, unknown>> = ((globalThis as unknown as Record<symbol, WeakMap<object, Map<string, unknown>>>)[
  KEY
] ??= new WeakMap());

export function preparedFor<P>(db: Db | Tx, name: string, build: (db: Db) => P): P {
  let map = store.get(db);
  if (!map) store.set(db, (map = new Map()));
  let prepared = map.get(name) as P | undefined;
  if (prepared === undefined) map.set(name, (prepared = build(db as Db)));
  return prepared;
}

/**
 * Runs one SQL statement with `$n` parameters on the database's driver directly, past drizzle, as
 * a named prepared statement (parsed and planned once per connection, then only bound and
 * executed): postgres.js's on PostgreSQL, db/pglite-prepared.ts's on PGlite (whose own `query()`
 * parses and plans every call). For the hottest statements, whose SQL is a constant. Rows come as
 * the driver parses them: no drizzle mapping (timestamps as strings on PostgreSQL, int8 as strings)
 * — select numbers, text and json.
 */
export async function preparedRows<T>(db: Db, text: string, params: (string | number | boolean | null)[]): Promise<T[]> {
  const raw = rawClientOf(db);
  if (raw.kind === "postgres") return (await raw.client.unsafe(text, params, { prepare: true })) as unknown as T[];
  return pglitePreparedRows<T>(raw.client, text, params);
}

/** How long a statement waits its turn behind the same holder's (`preparedRowsSerialized`) before it gives up. */
const TURN_WAIT_MS = 2000;

/**
 * `preparedRows`, one holder of `lock` (an advisory lock key pair) at a time: on PostgreSQL in a
 * transaction that first takes the lock, so a statement of the same holder that comes second runs
 * after the first committed and sees what it wrote (under READ COMMITTED, each statement reads as
 * of its start). A statement whose holder is busy waits without a connection (a try-lock, then a
 * short sleep), so one holder's flood of requests cannot take the pool; past TURN_WAIT_MS it is
 * refused (409). PGlite runs one statement at a time anyway.
 */
export async function preparedRowsSerialized<T>(
  db: Db,
  lock: [number, number],
  text: string,
  params: (string | number | boolean | null)[],
): Promise<T[]> {
  const raw = rawClientOf(db);
  if (raw.kind !== "postgres") return pglitePreparedRows<T>(raw.client, text, params);
  const client = raw.client;
  for (const start = Date.now(); ;) {
    const rows = await client.begin(async (t) => {
      const [turn] = await t.unsafe("select pg_try_advisory_xact_lock($1::int, $2::int) as ok", lock);
      return turn?.ok ? t.unsafe(text, params, { prepare: true }) : null;
    });
    if (rows) return rows as unknown as T[];
    if (Date.now() - start > TURN_WAIT_MS)
      throw new AppError("conflict", "Another request of yours is being answered; try again in a moment.", { busy: true });
    await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
  }
}

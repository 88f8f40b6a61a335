import { rawClientOf, type Db, type Tx } from "@/db/client";
import { pglitePreparedRows } from "@/db/pglite-prepared";

/**
 * A drizzle prepared statement (`.prepare("name")`), built once per database object and reused: the
 * query builder runs once, not per call, and on PostgreSQL postgres.js sends it as a named statement
 * (parsed and planned once per connection; `prepare` is on by default in postgres.js, and the app
 * connects to PostgreSQL directly — a transaction-pooling PgBouncer would need `prepare: false`).
 */
const KEY = Symbol.for("kps.prepared");
const store: WeakMap<object, Map<string, unknown>> = ((globalThis as unknown as Record<symbol, WeakMap<object, Map<string, unknown>>>)[KEY] ??= new WeakMap());

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

/**
 * `preparedRows`, one holder of `lock` (an advisory lock key pair) at a time: on PostgreSQL in a
 * transaction that first takes the lock, so a second statement of the same holder waits for the
 * first to commit and then sees what it wrote (under READ COMMITTED, each statement reads after
 * it starts). PGlite runs one statement at a time anyway.
 */
export async function preparedRowsSerialized<T>(db: Db, lock: [number, number], text: string, params: (string | number | boolean | null)[]): Promise<T[]> {
  const raw = rawClientOf(db);
  if (raw.kind !== "postgres") return pglitePreparedRows<T>(raw.client, text, params);
  const rows = await raw.client.begin(async (t) => {
    await t.unsafe("select pg_advisory_xact_lock($1::int, $2::int)", lock);
    return t.unsafe(text, params, { prepare: true });
  });
  return rows as unknown as T[];
}

import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import type { DatabaseConfig } from "./config";
import { acquireDirLock } from "./lock";
import { migrateDatabase } from "./migrate";
import { mendedNote, mendModes, narrowUmask } from "./private-files";
import * as schema from "./schema";

/** The database, on either driver. `db` may also be a transaction of it. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** A transaction of `Db` (what `db.transaction(tx => …)` hands in). */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export type DatabaseKind = "pglite" | "postgres";

export interface DatabaseHandle {
  db: Db;
  kind: DatabaseKind;
  /** Where the data lives, for messages: a directory, "memory", or the server address. */
  location: string;
  /** What opening did that the start-up log should say (the data directory's modes mended). */
  notes?: string[];
  /** The postgres.js client, on PostgreSQL (for COPY and session-level locks). */
  postgresClient?: postgres.Sql;
  close(): Promise<void>;
}

/** `memory` with `loadDataDir`: a fresh in-memory database started from a dumped data directory (PGlite's `dumpDataDir`), no initdb. */
export type OpenOptions = { url: string; poolSize?: number } | { dataDir: string } | { memory: true; loadDataDir?: Blob };

/**
 * Connections each process opens to a PostgreSQL server at most (`KPS_DB_POOL`); requests beyond
 * them wait in the client's queue for the next free connection. Fewer backends than 2 × 20 did not
 * measure faster on the 2-core machine of bench/annotate: two processes of 8 connections each took
 * 400.3 judgments/s on average over six runs, of 20 each 409.4, alternated in the same scripts
 * (`--db-pool 20,8`), with a spread of 330.6–467.5 between runs.
 */
export const DEFAULT_POOL_SIZE = 20;

/** How to open the database a `DatabaseConfig` names. */
export function openOptionsOf(config: DatabaseConfig): OpenOptions {
  return config.databaseUrl ? { url: config.databaseUrl, poolSize: config.poolSize } : { dataDir: config.dataDir };
}

/** The driver client behind a drizzle database, for what drizzle does not do (COPY). */
export type RawClient = { kind: "postgres"; client: postgres.Sql } | { kind: "pglite"; client: PGlite };
// A global symbol, not a module-level WeakMap: Next.js bundles may load this module more than once.
const RAW = Symbol.for("kps.rawClient");

/** The driver client of a database opened by `openDatabase` (not of a transaction). */
export function rawClientOf(db: Db): RawClient {
  const raw = (db as unknown as { [RAW]?: RawClient })[RAW];
  if (!raw) throw new Error("rawClientOf: not a database opened by openDatabase (a transaction?)");
  return raw;
}

function register(db: Db, raw: RawClient): Db {
  Object.defineProperty(db, RAW, { value: raw, enumerable: false });
  return db;
}

/**
 * The embedded server keeps its buffer pool inside the process: 16 MB instead of 128 MB saves
 * ~125 MB of memory at the same import speed (bench/import).
 */
const PGLITE_CONF = ["shared_buffers = 16MB"];

/**
 * Sent in the startup packet of every connection to a server. JIT off: the walk of a campaign's
 * questions (report/kilt-provenance.ts, for the export, the golds and the leaderboard) reads each
 * page of 500 questions in one statement whose subplans (an evidence set's members) the planner
 * costs high, so the server compiled it with LLVM every time: 420 ms of JIT for 55 ms of work, 90%
 * of the walk's database time (bench/runs). The app's statements are short; none gains from JIT.
 */
export const SERVER_CONNECTION_PARAMETERS = { jit: "off" } as const;

/** Opens a database without migrating it. The app uses `getDatabase()`; tests and tools use this. */
export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  if ("url" in options) {
    const client = postgres(options.url, {
      max: options.poolSize ?? DEFAULT_POOL_SIZE,
      onnotice: () => {},
      connection: SERVER_CONNECTION_PARAMETERS,
    });
    const db = register(drizzlePostgres({ client, schema }) as unknown as Db, { kind: "postgres", client });
    const u = new URL(options.url);
    return {
      db,
      kind: "postgres",
      location: `${u.hostname}:${u.port || 5432}${u.pathname}`,
      postgresClient: client,
      close: () => client.end({ timeout: 5 }),
    };
  }
  if ("memory" in options) {
    const client = await PGlite.create({
      postgresqlconf: PGLITE_CONF,
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    });
    const db = register(drizzlePglite({ client, schema }) as unknown as Db, { kind: "pglite", client });
    return { db, kind: "pglite", location: "memory", close: () => client.close() };
  }
  // Before the lock file and PGlite's files are made: owner-only (db/private-files.ts).
  narrowUmask();
  const lock = acquireDirLock(options.dataDir);
  try {
    const mended = mendModes(options.dataDir, [lock.path]);
    const client = await PGlite.create(path.resolve(options.dataDir), { postgresqlconf: PGLITE_CONF });
    // PGlite sets its own modes on what it unpacks and rewrites at open (0666, 0644), whatever the
    // umask; what Postgres creates afterwards (WAL, relations) it creates 0600 itself.
    mendModes(options.dataDir);
    return {
      db: register(drizzlePglite({ client, schema }) as unknown as Db, { kind: "pglite", client }),
      kind: "pglite",
      location: options.dataDir,
      notes: mendedNote(options.dataDir, mended),
      close: async () => {
        await client.close();
        lock.release();
      },
    };
  } catch (error) {
    lock.release();
    throw error;
  }
}

const globalForDb = globalThis as unknown as { kpsDatabase?: Promise<DatabaseHandle> };

/**
 * The app's one database, opened from `config` (the app passes `databaseConfig()` from lib/env.ts)
 * and migrated on first use. Cached on globalThis so that Next.js bundles and hot reloads share one
 * connection (and one lock); the config is read only by the call that opens it.
 */
export function getDatabase(config: DatabaseConfig): Promise<DatabaseHandle> {
  globalForDb.kpsDatabase ??= (async () => {
    const handle = await openDatabase(openOptionsOf(config));
    await migrateDatabase(handle);
    return handle;
  })();
  globalForDb.kpsDatabase.catch(() => {
    globalForDb.kpsDatabase = undefined;
  });
  return globalForDb.kpsDatabase;
}

/** Rows of `db.execute`, on either driver (an array on postgres.js, `{rows}` on PGlite). */
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

export async function getDb(config: DatabaseConfig): Promise<Db> {
  return (await getDatabase(config)).db;
}

export { schema };

import path from "node:path";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import type { DatabaseHandle } from "./client";
import { applySqlRules } from "./sql-rules";

export const migrationsFolder = path.join(process.cwd(), "db", "migrations");

/** Arbitrary, fixed key of the advisory lock that serialises migrations across app instances. */
export const MIGRATION_LOCK_KEY = 4_711_008_001;

/**
 * Applies the committed drizzle-kit migrations, then the current trigger and rule functions of
 * db/sql (db/sql-rules.ts); safe to run from several processes at once.
 */
export async function migrateDatabase(handle: DatabaseHandle): Promise<void> {
  if (handle.kind === "pglite") {
    await migratePglite(handle.db as unknown as PgliteDatabase, { migrationsFolder });
    await applySqlRules(handle.db);
    return;
  }
  const client = handle.postgresClient;
  if (!client) throw new Error("migrateDatabase: a PostgreSQL handle without its client");
  // A session-level lock on a reserved connection: instances starting together migrate in turn.
  const reserved = await client.reserve();
  try {
    await reserved`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
    await migratePostgres(handle.db as unknown as PostgresJsDatabase, { migrationsFolder });
    await applySqlRules(handle.db);
  } finally {
    await reserved`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`.catch(() => {});
    reserved.release();
  }
}

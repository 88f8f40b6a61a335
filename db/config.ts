import { z } from "zod";

/**
 * The environment variables that say where the database is. lib/env.ts folds them into the app's
 * one env schema; db/migrate-cli.ts, a program of its own, reads just these. db/ itself never
 * reads the environment: the app hands `getDatabase` a `DatabaseConfig`.
 */
export const databaseEnvShape = {
  /** PostgreSQL connection string; unset means the embedded PGlite database. */
  DATABASE_URL: z.url().optional(),
  /** Where the embedded database keeps its files. */
  KPS_DATA_DIR: z.string().min(1).default(".data/pglite"),
  /** Connections each process opens to a PostgreSQL server at most (db/client.ts, `DEFAULT_POOL_SIZE`). */
  KPS_DB_POOL: z.coerce.number().int().min(1).max(1000).optional(),
};

export type DatabaseEnv = z.infer<z.ZodObject<typeof databaseEnvShape>>;

/** Where the app's database lives: PostgreSQL at `databaseUrl` when set, else PGlite in `dataDir`. */
export interface DatabaseConfig {
  databaseUrl?: string;
  dataDir: string;
  /** Connections to the PostgreSQL server at most, per process (unset: the client's default). */
  poolSize?: number;
}

export function databaseConfigOf(vars: DatabaseEnv): DatabaseConfig {
  return { databaseUrl: vars.DATABASE_URL, dataDir: vars.KPS_DATA_DIR, poolSize: vars.KPS_DB_POOL };
}

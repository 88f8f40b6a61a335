import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe } from "vitest";
import { openDatabase, type DatabaseHandle, type Db } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { env } from "@/lib/env";

export type DatabaseKind = "pglite" | "postgres";

/**
 * The databases integration suites run on: always PGlite; PostgreSQL too when DATABASE_URL is set.
 * `KPS_TEST_DATABASES=postgres` (with DATABASE_URL) leaves PGlite out: CI sets it on its PostgreSQL
 * run, since its embedded run covers PGlite anyway.
 */
export function testDatabaseKinds(): DatabaseKind[] {
  if (!testDatabaseUrl()) return ["pglite"];
  return process.env.KPS_TEST_DATABASES === "postgres" ? ["postgres"] : ["pglite", "postgres"];
}

/** The PostgreSQL server integration suites run on too, if any (DATABASE_URL). */
export function testDatabaseUrl(): string | undefined {
  return env().DATABASE_URL;
}

export async function openTestDatabase(kind: DatabaseKind): Promise<DatabaseHandle> {
  const url = testDatabaseUrl();
  const handle = kind === "postgres" && url ? await openDatabase({ url }) : await openDatabase({ memory: true });
  await migrateDatabase(handle);
  return handle;
}

/**
 * Runs `body` once per test database. PGlite is a fresh in-memory database per file; PostgreSQL is
 * the shared server, so tests make their own data with unique values (`unique()`).
 */
export function describeEachDatabase(
  title: string,
  body: (ctx: { db: () => Db; kind: DatabaseKind }) => void,
  kinds: DatabaseKind[] = testDatabaseKinds(),
): void {
  for (const kind of kinds) {
    describe(`${title} [${kind}]`, () => {
      let handle: DatabaseHandle | undefined;
      beforeAll(async () => {
        handle = await openTestDatabase(kind);
      });
      afterAll(async () => {
        await handle?.close();
      });
      body({
        kind,
        db: () => {
          if (!handle) throw new Error("database not open yet");
          return handle.db;
        },
      });
    });
  }
}

/** A value no other test (or earlier run on the shared server) has used: `prefix-3fa9c2…`. */
export function unique(prefix: string): string {
  return `${prefix}-${randomBytes(5).toString("hex")}`;
}

/** A small seeded generator, so a failing run can be replayed. */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** A fresh, empty embedded database for one describe block (opened before its tests, closed after). */
export function useEmptyPglite(): () => DatabaseHandle {
  let handle: DatabaseHandle | undefined;
  beforeAll(async () => {
    handle = await openTestDatabase("pglite");
  });
  afterAll(() => handle?.close());
  return () => {
    if (!handle) throw new Error("the database is opened in beforeAll");
    return handle;
  };
}

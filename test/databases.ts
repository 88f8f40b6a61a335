import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe } from "vitest";
import { openDatabase, rawClientOf, type DatabaseHandle, type Db } from "@/db/client";
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
  const handle =
    kind === "postgres" && url ? await openDatabase({ url }) : await openDatabase({ memory: true, loadDataDir: await migratedTemplate() });
  await migrateDatabase(handle); // on the template, only db/sql again (every migration is recorded there)
  return handle;
}

/**
 * A migrated PGlite data directory, dumped once per set of migrations and loaded by every test file
 * that opens PGlite: an initdb and eleven migrations cost 3–6 s per open, loading the dump well
 * under one. Kept in test-results/ under a hash of the migrations and db/sql, written atomically
 * (two vitest workers may make it at once; either copy is the same).
 */
async function migratedTemplate(): Promise<Blob> {
  const hash = createHash("sha256");
  for (const folder of ["migrations", "sql"].map((name) => path.join(process.cwd(), "db", name))) {
    for (const name of fs.readdirSync(folder, { recursive: true }).map(String).sort()) {
      const file = path.join(folder, name);
      if (fs.statSync(file).isFile()) hash.update(path.relative(process.cwd(), file)).update(fs.readFileSync(file));
    }
  }
  const dir = path.join(process.cwd(), "test-results");
  const file = path.join(dir, `pglite-template-${hash.digest("hex").slice(0, 16)}.tar.gz`);
  if (!fs.existsSync(file)) {
    const handle = await openDatabase({ memory: true });
    try {
      await migrateDatabase(handle);
      const raw = rawClientOf(handle.db);
      if (raw.kind !== "pglite") throw new Error("template: not PGlite");
      const dump = await raw.client.dumpDataDir("gzip");
      fs.mkdirSync(dir, { recursive: true });
      const tmp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
      fs.writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
      fs.renameSync(tmp, file);
    } finally {
      await handle.close();
    }
  }
  return new Blob([fs.readFileSync(file)]);
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

/**
 * A database of its own, for tests that change what every test file shares (empty a whole table,
 * mark every page stale) or need one no migration has touched (`migrate: false`): a fresh in-memory
 * PGlite, or on PostgreSQL a new database on the test server (its user may create databases, as
 * CI's does), dropped by `drop`.
 */
export async function openPrivateDatabase(
  kind: DatabaseKind,
  { migrate = true }: { migrate?: boolean } = {},
): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> {
  const url = testDatabaseUrl();
  if (kind === "pglite" || !url) {
    const handle = migrate ? await openTestDatabase("pglite") : await openDatabase({ memory: true });
    return { handle, drop: () => handle.close() };
  }
  const name = `kps_private_${randomBytes(5).toString("hex")}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  const handle = await openDatabase({ url: target.toString() });
  if (migrate) await migrateDatabase(handle);
  return {
    handle,
    drop: async () => {
      await handle.close();
      await admin.unsafe(`drop database ${name}`);
      await admin.end();
    },
  };
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

import "server-only";
import { sql } from "drizzle-orm";
import { rawClientOf, rowsOf, type Db } from "@/db/client";

/**
 * Which access method answers the PostgreSQL engine's queries. RUM (postgrespro/rum, Debian's
 * postgresql-15-rum) stores each lexeme's positions in the index, so `document <=> query` orders
 * the matches by rank inside the index, reading the heap only for the rows returned; GIN stores no
 * positions, so ranking reads every matching row's tsvector from the heap (the cost the two-stage
 * query in postgres-rank.ts cuts down). RUM is not in drizzle's migrations, since PGlite has no
 * RUM: a build creates the extension and the index where the server offers it, and a query uses
 * RUM when that index exists.
 */
export type PostgresMethod = "gin" | "rum";

/** What the engine's constructor asks for: RUM where it can be had ("auto"), or one method forced. */
export type MethodChoice = PostgresMethod | "auto";

export const RUM_INDEX = "paragraph_index_document_rum_idx";

/** The kind of client behind `db`, or null inside a transaction (no raw client there). */
export function clientKind(db: Db): "postgres" | "pglite" | null {
  try {
    return rawClientOf(db).kind;
  } catch {
    return null;
  }
}

const exists = async (db: Db, query: ReturnType<typeof sql>) => rowsOf<{ ok: boolean }>(await db.execute(query))[0]?.ok === true;

/** Whether the RUM index exists on paragraph_index. */
export const rumIndexExists = (db: Db) => exists(db, sql`select to_regclass(${RUM_INDEX}) is not null as ok`);

/**
 * Errors two sessions get when both create the same extension or index at once: `if not exists`
 * checks the catalog before taking its lock, so the loser of the race hits the catalog's unique
 * index (23505) or finds the object created meanwhile (42710 duplicate_object, 42P07 duplicate_table).
 */
const RACE_CODES = new Set(["23505", "42710", "42P07"]);

function pgCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === "object"; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Runs a `create … if not exists`; losing a race to another session that created it is not an error. */
async function createRacing(db: Db, statement: ReturnType<typeof sql>): Promise<void> {
  try {
    await db.execute(statement);
  } catch (error) {
    if (!RACE_CODES.has(pgCode(error) ?? "")) throw error;
  }
}

/**
 * Before a build: with "auto" on a server that offers the rum extension, creates the extension and
 * answers "rum"; "gin" where RUM is not offered (PGlite, a server without the package) or when GIN
 * is forced. The RUM index itself is made when the build ends (`finishMethod`).
 */
export async function prepareMethod(db: Db, choice: MethodChoice): Promise<PostgresMethod> {
  if (choice === "gin" || clientKind(db) === "pglite") return "gin";
  // Inside a caller's transaction a failed statement would abort it: take what is there.
  if (clientKind(db) === null) return (await rumIndexExists(db)) ? "rum" : "gin";
  const offered = await exists(db, sql`select exists (select 1 from pg_available_extensions where name = 'rum') as ok`);
  if (!offered) {
    if (choice === "rum") throw new Error("The rum extension is not available on this PostgreSQL server (Debian: postgresql-15-rum).");
    return "gin";
  }
  await createRacing(db, sql`create extension if not exists rum`);
  return "rum";
}

/**
 * When a build with method "rum" ends (no stale page left): the RUM index, if missing, created over
 * every row at once. One CREATE INDEX reads the table once and sorts: at 1M paragraphs it took
 * 53.3 s of a 151.5 s build, where keeping the index row by row made the build 1,199 s
 * (bench/search). Until it exists, queries use GIN. An index kept by earlier builds takes each
 * later chunk's rows as usual.
 */
export async function finishMethod(db: Db, method: PostgresMethod): Promise<void> {
  if (method !== "rum" || clientKind(db) === null || (await rumIndexExists(db))) return;
  await createRacing(db, sql.raw(`create index if not exists ${RUM_INDEX} on paragraph_index using rum (document rum_tsvector_ops)`));
  if (!(await rumIndexExists(db))) throw new Error(`The RUM index ${RUM_INDEX} was not created.`);
  methodCache.set(db, { method: "rum", until: Date.now() + METHOD_TTL_MS });
}

/** The RUM index dropped (a rebuild's clear), so that the rebuild makes it again at once when it ends. */
export async function dropRumIndex(db: Db): Promise<void> {
  await db.execute(sql.raw(`drop index if exists ${RUM_INDEX}`));
}

/** This process's method for `db` asked again at the next query (after the RUM index was dropped). */
export const forgetMethod = (db: Db) => void methodCache.delete(db);

/**
 * How long a process trusts the method it found before asking again: a build elsewhere may create
 * the RUM index, a rebuild elsewhere drop it (the RUM query then still answers, ordering the GIN
 * matches by RUM's distance without its index, until the next look).
 */
const METHOD_TTL_MS = 60_000;
const methodCache = new WeakMap<Db, { method: PostgresMethod; until: number }>();

/**
 * The method a query uses: "gin" when forced or on PGlite; with "auto" (or "rum"), "rum" while the
 * RUM index exists. Cached per database handle for a minute.
 */
export async function queryMethod(db: Db, choice: MethodChoice): Promise<PostgresMethod> {
  if (choice === "gin" || clientKind(db) === "pglite") return "gin";
  const cached = methodCache.get(db);
  if (cached && cached.until > Date.now()) return cached.method;
  const method: PostgresMethod = (await rumIndexExists(db)) ? "rum" : "gin";
  methodCache.set(db, { method, until: Date.now() + METHOD_TTL_MS });
  return method;
}

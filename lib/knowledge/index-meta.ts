import "server-only";
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import type { EngineName } from "./engine";

/**
 * The text index's state lives in one app_meta row, so every process (cluster workers, the CLI's
 * server) sees the same: `builtAt` (null until the first build finished), `engine` (the engine the
 * pages' `indexed_at` refers to: the one that built, or is building, the index; absent in rows
 * written before engines existed, which were PostgreSQL's) and a `lease` while a build runs — its
 * owner, a heartbeat and the progress. One build at a time: a build starts only by taking the lease
 * in one statement, and a lease whose heartbeat is older than LEASE_MS (its process died) may be
 * taken over.
 */
const META_KEY = "knowledge_index";
const LEASE_MS = 60_000;
const NOW_MS = sql`(extract(epoch from clock_timestamp()) * 1000)::bigint`;

export interface Lease {
  owner: string;
  heartbeat: number;
  done: number;
  total: number;
}
export interface MetaValue {
  builtAt: string | null;
  engine?: EngineName | null;
  lease: Lease | null;
  lastError?: string | null;
}

export async function readMeta(db: Db): Promise<{ meta: MetaValue; nowMs: number }> {
  const [row] = rowsOf<{ value: MetaValue | null; now_ms: string | number }>(
    await db.execute(sql`select (select value from app_meta where key = ${META_KEY}) as value, ${NOW_MS} as now_ms`),
  );
  return { meta: row?.value ?? { builtAt: null, lease: null }, nowMs: Number(row?.now_ms ?? 0) };
}

/** The engine whose index the pages' `indexed_at` and `builtAt` describe. */
export const engineOf = (meta: MetaValue): EngineName => meta.engine ?? "postgres";

export const liveLease = (meta: MetaValue, nowMs: number) => (meta.lease && meta.lease.heartbeat >= nowMs - LEASE_MS ? meta.lease : null);

/** Takes the build lease, or returns null when a live build holds it. */
export async function takeLease(db: Db, total: number): Promise<string | null> {
  const owner = randomBytes(8).toString("hex");
  const lease = sql`jsonb_build_object('owner', ${owner}::text, 'heartbeat', ${NOW_MS}, 'done', 0, 'total', ${total}::int)`;
  const rows = rowsOf<{ key: string }>(
    await db.execute(sql`insert into app_meta (key, value) values (${META_KEY}, jsonb_build_object('builtAt', null, 'lease', ${lease}))
      on conflict (key) do update set value = app_meta.value || jsonb_build_object('lease', ${lease}, 'lastError', null)
      where app_meta.value->'lease' = 'null'::jsonb or app_meta.value->'lease' is null
        or (app_meta.value->'lease'->>'heartbeat')::bigint < ${NOW_MS} - ${LEASE_MS}
      returning key`),
  );
  return rows.length ? owner : null;
}

/** Patches the row while `owner` holds the lease (`patch` is a jsonb expression of `value`). */
export async function updateLease(db: Db, owner: string, patch: ReturnType<typeof sql>): Promise<void> {
  await db.execute(sql`update app_meta set value = ${patch} where key = ${META_KEY} and value->'lease'->>'owner' = ${owner}`);
}

export const heartbeat = (db: Db, owner: string, done: number, total: number) =>
  updateLease(
    db,
    owner,
    // Chunks at once report out of order: the progress never goes back.
    sql`value || jsonb_build_object('lease', value->'lease' || jsonb_build_object('heartbeat', ${NOW_MS},
      'done', greatest(coalesce((value->'lease'->>'done')::int, 0), ${done}::int), 'total', greatest(coalesce((value->'lease'->>'total')::int, 0), ${total}::int)))`,
  );

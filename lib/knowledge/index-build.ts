import "server-only";
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import { recordAudit } from "@/lib/audit/audit";
import { requireCoordinator, type Actor } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import { countStalePages, indexStaleChunk, INDEX_CHUNK_PAGES } from "./index-sql";
import type { IndexStatus } from "./knowledge.contract";

/**
 * The text index's state lives in one app_meta row, so every process (cluster workers, the CLI's
 * server) sees the same: `builtAt` (null until the first build finished) and a `lease` while a build
 * runs — its owner, a heartbeat and the progress. One build at a time: a build starts only by
 * taking the lease in one statement, and a lease whose heartbeat is older than LEASE_MS (its process
 * died) may be taken over.
 */
const META_KEY = "knowledge_index";
const LEASE_MS = 60_000;
const NOW_MS = sql`(extract(epoch from clock_timestamp()) * 1000)::bigint`;

interface Lease {
  owner: string;
  heartbeat: number;
  done: number;
  total: number;
}
interface MetaValue {
  builtAt: string | null;
  lease: Lease | null;
  lastError?: string | null;
}

async function readMeta(db: Db): Promise<{ meta: MetaValue; nowMs: number }> {
  const [row] = rowsOf<{ value: MetaValue | null; now_ms: string | number }>(
    await db.execute(sql`select (select value from app_meta where key = ${META_KEY}) as value, ${NOW_MS} as now_ms`),
  );
  return { meta: row?.value ?? { builtAt: null, lease: null }, nowMs: Number(row?.now_ms ?? 0) };
}

const liveLease = (meta: MetaValue, nowMs: number) => (meta.lease && meta.lease.heartbeat >= nowMs - LEASE_MS ? meta.lease : null);

/** Whether text search may run: the index was built at least once (internal). */
export async function indexBuilt(db: Db): Promise<boolean> {
  return (await readMeta(db)).meta.builtAt !== null;
}

/** The index's state and figures, for coordinators. */
export async function getIndexStatus(db: Db, actor: Actor): Promise<IndexStatus> {
  requireCoordinator(actor);
  return indexStatus(db);
}

async function indexStatus(db: Db): Promise<IndexStatus> {
  const { meta, nowMs } = await readMeta(db);
  const [counts] = rowsOf<{ pages: number; stale: number; paragraphs: number }>(
    await db.execute(sql`select (select count(*)::int from pages) as pages,
      (select count(*)::int from pages where indexed_at is null or indexed_at < updated_at) as stale,
      (select count(*)::int from paragraph_index) as paragraphs`),
  );
  const lease = liveLease(meta, nowMs);
  const pages = counts?.pages ?? 0;
  const stale = counts?.stale ?? 0;
  return {
    state: lease ? "building" : meta.builtAt ? "ready" : "none",
    pages,
    indexedPages: pages - stale,
    stalePages: stale,
    paragraphs: counts?.paragraphs ?? 0,
    builtAt: meta.builtAt,
    progress: lease ? { done: lease.done, total: lease.total } : null,
    lastError: meta.lastError ?? null,
  };
}

/** Takes the build lease, or returns null when a live build holds it. */
async function takeLease(db: Db, total: number): Promise<string | null> {
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

async function updateLease(db: Db, owner: string, patch: ReturnType<typeof sql>): Promise<void> {
  await db.execute(sql`update app_meta set value = ${patch} where key = ${META_KEY} and value->'lease'->>'owner' = ${owner}`);
}

const heartbeat = (db: Db, owner: string, done: number, total: number) =>
  updateLease(
    db,
    owner,
    sql`value || jsonb_build_object('lease', value->'lease' || jsonb_build_object('heartbeat', ${NOW_MS}, 'done', ${done}::int, 'total', ${total}::int))`,
  );

/**
 * Indexes stale pages chunk by chunk under a lease already taken, up to `maxPages` (all when
 * undefined); a full run marks the index built. Returns the pages indexed.
 */
async function runUnderLease(db: Db, owner: string, total: number, opts: { maxPages?: number; markBuilt: boolean }): Promise<number> {
  let done = 0;
  try {
    for (;;) {
      const room = opts.maxPages === undefined ? INDEX_CHUNK_PAGES : Math.min(INDEX_CHUNK_PAGES, opts.maxPages - done);
      if (room <= 0) break;
      const n = await indexStaleChunk(db, room);
      if (n === 0) break;
      done += n;
      await heartbeat(db, owner, done, Math.max(total, done));
    }
    const built = opts.markBuilt ? sql`to_jsonb(now()::text)` : sql`coalesce(value->'builtAt', 'null'::jsonb)`;
    await updateLease(db, owner, sql`value || jsonb_build_object('lease', null, 'builtAt', ${built})`);
    return done;
  } catch (error) {
    await updateLease(
      db,
      owner,
      sql`value || jsonb_build_object('lease', null, 'lastError', ${String((error as Error).message ?? error)}::text)`,
    ).catch(() => {});
    throw error;
  }
}

/**
 * Starts an incremental build in the background (coordinators): the pages never indexed or changed
 * since. Returns the status at once ("building"); a build already running is left to finish.
 */
export async function startIndexBuild(db: Db, actor: Actor): Promise<IndexStatus> {
  requireCoordinator(actor);
  const total = await countStalePages(db);
  const owner = await takeLease(db, total);
  if (owner) {
    await auditBuild(db, actor, total, true);
    runUnderLease(db, owner, total, { markBuilt: true }).catch((error) => console.error("text index build failed:", error));
  }
  return indexStatus(db);
}

/**
 * Builds (incrementally) and waits for the end (coordinators; tests, the benchmark). A build running
 * elsewhere is waited for, then this one indexes what it left; 409 after `waitMs`.
 */
export async function buildIndex(db: Db, actor: Actor, waitMs = 120_000): Promise<IndexStatus> {
  requireCoordinator(actor);
  const deadline = Date.now() + waitMs;
  for (;;) {
    const total = await countStalePages(db);
    const owner = await takeLease(db, total);
    if (owner) {
      await auditBuild(db, actor, total, false);
      await runUnderLease(db, owner, total, { markBuilt: true });
      return indexStatus(db);
    }
    if (Date.now() > deadline) throw new AppError("conflict", "A text index build is already running.");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * A build changes what text search (and so the retriever's candidates of later imports) finds: the
 * entry is written when this caller's build took the lease (a build already running gets none).
 */
function auditBuild(db: Db, actor: Actor, stalePages: number, background: boolean): Promise<void> {
  return recordAudit(db, actor, {
    action: "knowledge.index",
    targetType: "knowledge",
    targetId: null,
    details: { stalePages, background },
  });
}

/**
 * After a knowledge import (internal: the import authorized its caller): when the index was built
 * before, index the new and changed pages now, at most `maxPages`; the rest stay stale for the next
 * build. Returns how many were indexed (0 when the index was never built, or when a build kept
 * running past LEASE_WAIT_AFTER_IMPORT_MS: that build picks them up itself).
 */
export async function indexAfterImport(db: Db, maxPages: number): Promise<number> {
  if (!(await indexBuilt(db))) return 0;
  const total = Math.min(await countStalePages(db), maxPages);
  if (total === 0) return 0;
  const owner = await leaseWithin(db, total, LEASE_WAIT_AFTER_IMPORT_MS);
  if (!owner) return 0;
  return runUnderLease(db, owner, total, { maxPages, markBuilt: false });
}

/**
 * How long an import waits for a running build before leaving its pages to it. Another import's
 * short incremental build usually ends within it; a full build that outlasts it indexes the new
 * pages itself, as it runs until no stale page is left.
 */
const LEASE_WAIT_AFTER_IMPORT_MS = 10_000;

async function leaseWithin(db: Db, total: number, waitMs: number): Promise<string | null> {
  const until = Date.now() + waitMs;
  for (;;) {
    const owner = await takeLease(db, total);
    if (owner || Date.now() >= until) return owner;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

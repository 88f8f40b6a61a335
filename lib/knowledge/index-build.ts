import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import { recordAudit } from "@/lib/audit/audit";
import { requireCoordinator, type Actor } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import type { KnowledgeEngine } from "./engine";
import { knowledgeEngine } from "./engines";
import { countStalePages, INDEX_CHUNK_PAGES } from "./index-sql";
import { engineOf, heartbeat, liveLease, readMeta, takeLease, updateLease, type MetaValue } from "./index-meta";
import type { IndexStatus } from "./knowledge.contract";

/**
 * Builds of the text index by the process's engine (engines/index.ts; tests pass their own), under
 * the lease of index-meta.ts, and its state. The index is "built" for an engine only when that
 * engine built it: after KPS_KNOWLEDGE_ENGINE changes, text search refuses (409) rather than answer
 * from the new engine's empty index, and the next build starts over from `pages` (a rebuild).
 */
export interface BuildOptions {
  /** Forget everything indexed and index every page again (`kps knowledge index --rebuild`). */
  rebuild?: boolean;
  engine?: KnowledgeEngine;
}

export const INDEX_NOT_BUILT =
  "The text index has not been built yet: a coordinator builds it with `kps knowledge index` or on the knowledge import page.";

const builtFor = (meta: MetaValue, engine: KnowledgeEngine) => meta.builtAt !== null && engineOf(meta) === engine.name;

/** Whether text search may run: `engine` built the index at least once (internal). */
export async function indexBuilt(db: Db, engine: KnowledgeEngine = knowledgeEngine()): Promise<boolean> {
  return builtFor((await readMeta(db)).meta, engine);
}

/** 409 until `engine` has built the text index, saying why (never built, or built by another engine). */
export async function requireIndexBuilt(db: Db, engine: KnowledgeEngine = knowledgeEngine()): Promise<void> {
  const { meta } = await readMeta(db);
  if (builtFor(meta, engine)) return;
  if (meta.builtAt === null) throw new AppError("conflict", INDEX_NOT_BUILT);
  throw new AppError(
    "conflict",
    `The text index was built by the ${engineOf(meta)} engine but KPS_KNOWLEDGE_ENGINE is ${engine.name}: a coordinator rebuilds it with \`kps knowledge index --rebuild\` or on the knowledge import page.`,
  );
}

/** The index's state and figures, for coordinators. */
export async function getIndexStatus(db: Db, actor: Actor, engine: KnowledgeEngine = knowledgeEngine()): Promise<IndexStatus> {
  requireCoordinator(actor);
  return indexStatus(db, engine);
}

async function indexStatus(db: Db, engine: KnowledgeEngine): Promise<IndexStatus> {
  const { meta, nowMs } = await readMeta(db);
  const [counts] = rowsOf<{ pages: number; stale: number }>(
    await db.execute(sql`select (select count(*)::int from pages) as pages,
      (select count(*)::int from pages where indexed_at is null or indexed_at < updated_at) as stale`),
  );
  const figures = await engine.figures(db);
  const lease = liveLease(meta, nowMs);
  const pages = counts?.pages ?? 0;
  // Pages another engine indexed are stale for this one.
  const stale = engineOf(meta) === engine.name ? (counts?.stale ?? 0) : pages;
  return {
    state: lease ? "building" : builtFor(meta, engine) ? "ready" : "none",
    engine: engine.name,
    method: figures.method,
    builtBy: meta.builtAt !== null ? engineOf(meta) : null,
    pages,
    indexedPages: pages - stale,
    stalePages: stale,
    paragraphs: figures.paragraphs,
    bytes: figures.bytes,
    builtAt: meta.builtAt,
    progress: lease ? { done: lease.done, total: lease.total } : null,
    lastError: meta.lastError ?? null,
  };
}

interface RunOptions {
  maxPages?: number;
  markBuilt: boolean;
  rebuild: boolean;
  engine: KnowledgeEngine;
}

/**
 * Indexes the stale pages, chunk after chunk until none is left or `maxPages` are done (all when
 * undefined), with `engine.chunkWorkers(db)` chunks at once; `onChunk` gets the pages done so far
 * after each chunk. On an error the other chunks under way end, no new one starts, and the first
 * error is thrown. Returns the pages indexed.
 */
export async function indexStale(
  db: Db,
  engine: KnowledgeEngine,
  { maxPages, onChunk }: { maxPages?: number; onChunk?: (done: number) => Promise<unknown> } = {},
): Promise<number> {
  let [claimed, done, failed] = [0, 0, false];
  const chunks = async () => {
    while (!failed) {
      // Pages asked for but not yet indexed count against maxPages, so workers at once never pass it.
      const room = maxPages === undefined ? INDEX_CHUNK_PAGES : Math.min(INDEX_CHUNK_PAGES, maxPages - claimed);
      if (room <= 0) return;
      claimed += room;
      const n = await engine.indexStaleChunk(db, room);
      claimed -= room - n;
      // None left that another chunk has not taken: that chunk ends the build.
      if (n === 0) return;
      done += n;
      await onChunk?.(done);
    }
  };
  const worker = () =>
    chunks().catch((error: unknown) => {
      failed = true;
      throw error;
    });
  const ends = await Promise.allSettled(Array.from({ length: Math.max(1, engine.chunkWorkers(db)) }, worker));
  const failure = ends.find((e) => e.status === "rejected");
  if (failure) throw failure.reason;
  return done;
}

/**
 * Under a lease already taken: a rebuild (asked for, or because another engine's index is what the
 * pages' `indexed_at` describes) first empties the engine and marks every page stale; then stale
 * pages are indexed chunk by chunk, up to `maxPages` (all when undefined); a full run marks the
 * index built by this engine. Returns the pages indexed.
 */
async function runUnderLease(db: Db, owner: string, total: number, opts: RunOptions): Promise<number> {
  const { engine } = opts;
  let done = 0;
  try {
    if (opts.rebuild || engineOf((await readMeta(db)).meta) !== engine.name) {
      await updateLease(db, owner, sql`value || jsonb_build_object('builtAt', null, 'engine', ${engine.name}::text)`);
      await engine.clear(db);
      total = await countStalePages(db);
    }
    done = await indexStale(db, engine, { maxPages: opts.maxPages, onChunk: (n) => heartbeat(db, owner, n, Math.max(total, n)) });
    const built = opts.markBuilt ? sql`to_jsonb(now()::text)` : sql`coalesce(value->'builtAt', 'null'::jsonb)`;
    await updateLease(db, owner, sql`value || jsonb_build_object('lease', null, 'builtAt', ${built}, 'engine', ${engine.name}::text)`);
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
 * Starts a build in the background (coordinators): incremental (the pages never indexed or changed
 * since), or a rebuild. Returns the status at once ("building"); a build already running is left to
 * finish (a rebuild asked for meanwhile is refused with 409: it would not happen).
 */
export async function startIndexBuild(db: Db, actor: Actor, options: BuildOptions = {}): Promise<IndexStatus> {
  requireCoordinator(actor);
  const engine = options.engine ?? knowledgeEngine();
  const total = await countStalePages(db);
  const owner = await takeLease(db, total);
  if (owner) {
    await auditBuild(db, actor, { stalePages: total, background: true, rebuild: !!options.rebuild, engine: engine.name });
    runUnderLease(db, owner, total, { markBuilt: true, rebuild: !!options.rebuild, engine }).catch((error) =>
      console.error("text index build failed:", error),
    );
  } else if (options.rebuild) {
    throw new AppError("conflict", "A text index build is already running: ask for the rebuild again once it has finished.");
  }
  return indexStatus(db, engine);
}

/**
 * Builds and waits for the end (coordinators; tests, the benchmark). A build running elsewhere is
 * waited for, then this one indexes what it left; 409 after `waitMs`.
 */
export async function buildIndex(db: Db, actor: Actor, waitMs = 120_000, options: BuildOptions = {}): Promise<IndexStatus> {
  requireCoordinator(actor);
  const engine = options.engine ?? knowledgeEngine();
  const deadline = Date.now() + waitMs;
  for (;;) {
    const total = await countStalePages(db);
    const owner = await takeLease(db, total);
    if (owner) {
      await auditBuild(db, actor, { stalePages: total, background: false, rebuild: !!options.rebuild, engine: engine.name });
      await runUnderLease(db, owner, total, { markBuilt: true, rebuild: !!options.rebuild, engine });
      return indexStatus(db, engine);
    }
    if (Date.now() > deadline) throw new AppError("conflict", "A text index build is already running.");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * A build changes what text search (and so the retriever's candidates of later imports) finds: the
 * entry is written when this caller's build took the lease (a build already running gets none).
 */
function auditBuild(db: Db, actor: Actor, details: Record<string, unknown>): Promise<void> {
  return recordAudit(db, actor, { action: "knowledge.index", targetType: "knowledge", targetId: null, details });
}

/**
 * After a knowledge import (internal: the import authorized its caller): when `engine` built the
 * index before, index the new and changed pages now, at most `maxPages`; the rest stay stale for
 * the next build. Returns how many were indexed (0 when the index was never built by this engine,
 * or when a build kept running past LEASE_WAIT_AFTER_IMPORT_MS: that build picks them up itself).
 */
export async function indexAfterImport(db: Db, maxPages: number, engine: KnowledgeEngine = knowledgeEngine()): Promise<number> {
  if (!(await indexBuilt(db, engine))) return 0;
  const total = Math.min(await countStalePages(db), maxPages);
  if (total === 0) return 0;
  const owner = await leaseWithin(db, total, LEASE_WAIT_AFTER_IMPORT_MS);
  if (!owner) return 0;
  return runUnderLease(db, owner, total, { maxPages, markBuilt: false, rebuild: false, engine });
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

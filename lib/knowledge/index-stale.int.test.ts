import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf, type DatabaseHandle, type Db } from "@/db/client";
import { openPrivateDatabase, testDatabaseKinds } from "@/test/databases";
import type { KnowledgeEngine } from "./engine";
import { stalePageCount } from "./engine-suite-pages";
import { createPostgresEngine } from "./engines/postgres";
import { indexStale } from "./index-build";
import { INDEX_CHUNK_PAGES } from "./index-sql";

// A build's chunks at once (indexStale with the postgres engine's chunkWorkers): on PostgreSQL they
// take disjoint pages and leave the index as one chunk after another would; on PGlite one at a time.
// A database of its own: the build indexes every stale page there is.

const PAGES = 3 * INDEX_CHUNK_PAGES + 200;

/** `PAGES` pages in id order, each with two content paragraphs around a header. */
const seed = (db: Db) =>
  db.execute(sql`insert into pages (wikipedia_id, title, paragraphs)
    select 'p' || lpad(i::text, 5, '0'), 'Page ' || i,
           array['Page ' || i || E'\n', 'alpha word' || (i % 50) || E' beta\n', E'Section::::Later.\n', 'gamma ' || i || E' delta\n']
    from generate_series(1, ${PAGES}) i`);

const count = async (db: Db, query: ReturnType<typeof sql>) => rowsOf<{ n: number }>(await db.execute(query))[0]!.n;

/** The engine with its calls watched: how many ran, the most at once, and a failure on call `failOn`. */
function watched(engine: KnowledgeEngine, failOn?: number) {
  const seen = { calls: 0, running: 0, most: 0 };
  const wrapped: KnowledgeEngine = {
    ...engine,
    async indexStaleChunk(db, limit) {
      const call = ++seen.calls;
      seen.most = Math.max(seen.most, ++seen.running);
      try {
        if (call === failOn) throw new Error(`chunk ${call} failed`);
        return await engine.indexStaleChunk(db, limit);
      } finally {
        seen.running--;
      }
    },
  };
  return { engine: wrapped, seen };
}

describe.each(testDatabaseKinds())("a build's chunks at once (%s)", (kind) => {
  let handle: DatabaseHandle | undefined;
  let drop: (() => Promise<void>) | undefined;
  const db = () => handle!.db;
  const engine = createPostgresEngine({ method: "gin", buildWorkers: 3 });
  const workers = kind === "postgres" ? 3 : 1;

  beforeAll(async () => {
    ({ handle, drop } = await openPrivateDatabase(kind));
    await seed(db());
  });
  afterAll(async () => drop?.());

  it("indexes every stale page once, with the chunks at once the engine allows, the progress never going back", async () => {
    expect(engine.chunkWorkers(db())).toBe(workers);
    const { engine: w, seen } = watched(engine);
    const progress: number[] = [];
    expect(await indexStale(db(), w, { onChunk: async (done) => progress.push(done) })).toBe(PAGES);
    expect(seen.most).toBe(workers);
    expect(progress.at(-1)).toBe(PAGES);
    expect(progress.every((d, i) => i === 0 || d > progress[i - 1]!)).toBe(true);
    expect(await stalePageCount(db())).toBe(0);
    // Two content paragraphs a page, none twice.
    expect(await count(db(), sql`select count(*)::int as n from paragraph_index`)).toBe(2 * PAGES);
    expect(await count(db(), sql`select count(*)::int as n from (select distinct wikipedia_id, paragraph_id from paragraph_index) d`)).toBe(
      2 * PAGES,
    );
    expect(
      rowsOf<{ paragraph_id: number; section: string }>(
        await db().execute(sql`select paragraph_id, section from paragraph_index where wikipedia_id = 'p01234' order by paragraph_id`),
      ),
    ).toEqual([
      { paragraph_id: 1, section: "" },
      { paragraph_id: 3, section: "Section::::Later." },
    ]);
  });

  it("stops at maxPages with chunks at once, and the next build takes the rest", async () => {
    await engine.clear(db());
    const maxPages = 2 * INDEX_CHUNK_PAGES + 100;
    expect(await indexStale(db(), engine, { maxPages })).toBe(maxPages);
    expect(await stalePageCount(db())).toBe(PAGES - maxPages);
    expect(await indexStale(db(), engine)).toBe(PAGES - maxPages);
    expect(await count(db(), sql`select count(*)::int as n from paragraph_index`)).toBe(2 * PAGES);
  });

  it("throws a chunk's error, and starts no chunk after it", async () => {
    await engine.clear(db());
    const { engine: w, seen } = watched(engine, 2);
    await expect(indexStale(db(), w)).rejects.toThrow("chunk 2 failed");
    // The chunks already under way when the second failed end; none starts after them.
    expect(seen.calls).toBe(kind === "postgres" ? workers : 2);
    expect(seen.running).toBe(0);
    expect(await stalePageCount(db())).toBe(PAGES - (seen.calls - 1) * INDEX_CHUNK_PAGES);
  });

  it("throws the progress report's error, and starts no chunk after it", async () => {
    await engine.clear(db());
    const { engine: w, seen } = watched(engine);
    let reports = 0;
    await expect(
      indexStale(db(), w, {
        onChunk: async () => {
          if (++reports === 1) throw new Error("progress failed");
        },
      }),
    ).rejects.toThrow("progress failed");
    // Only the first report fails: the other workers' first chunks end, and none starts after it.
    expect(seen.calls).toBe(workers);
    expect(await stalePageCount(db())).toBe(PAGES - workers * INDEX_CHUNK_PAGES);
  });
});

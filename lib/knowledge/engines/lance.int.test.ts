import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf, type DatabaseHandle, type Db } from "@/db/client";
import { pages } from "@/db/schema";
import { openPrivateDatabase, testDatabaseKinds, unique } from "@/test/databases";
import type { KnowledgeEngine } from "../engine";
import { env } from "@/lib/env";
import { createLanceEngine } from "./lance";
import {
  connectDir,
  createShard,
  DEFAULT_FTS_PARTITION_MB,
  INDEX_NAME,
  lance,
  largestIndexChildKiB,
  refreshIndex,
  shardName,
  shardNames,
  unindexedRows,
} from "./lance-store";

// What only the LanceDB engine has: its index lives in a directory, so a new engine on the same
// directory (another process, a restart) must answer alike, and clear must drop it and allow a rebuild.

const page = (id: string, title: string, body: string[]) => ({
  wikipediaId: id,
  title,
  paragraphs: [`${title}\n`, ...body.map((b) => `${b}\n`)],
});

async function buildAll(engine: KnowledgeEngine, db: Db, chunkPages = 500): Promise<void> {
  while ((await engine.indexStaleChunk(db, chunkPages)) > 0);
}

/**
 * A database of its own and an index directory, for one describe block: `seed` fills the database
 * before the block's tests, and both go after them. A private database because clear marks every
 * page stale, which on the database other test files share would take their index away mid-test.
 */
function privateIndex(kind: Parameters<typeof openPrivateDatabase>[0], prefix: string, seed: (db: Db) => Promise<void>) {
  let handle: DatabaseHandle | undefined;
  let drop: (() => Promise<void>) | undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const db = () => handle!.db;
  beforeAll(async () => {
    ({ handle, drop } = await openPrivateDatabase(kind));
    await seed(db());
  });
  afterAll(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await drop?.();
  });
  return { db, dir };
}

const staleOf = async (db: Db, ids: string[]) =>
  rowsOf<{ n: number }>(
    await db.execute(
      sql`select count(*)::int as n from pages where wikipedia_id = any(${sql.param(ids)}::text[]) and (indexed_at is null or indexed_at < updated_at)`,
    ),
  )[0]!.n;

// The build's buffer per worker bounds its memory (LanceDB's own default, 2 GiB, is most of the
// 2 GB a 5M-paragraph build may take): set before the library loads, unless the environment set it.
const partitionBefore = process.env.LANCE_FTS_PARTITION_SIZE;
describe("LanceDB's settings", () => {
  it("the index build's buffer per worker is KPS_LANCE_FTS_PARTITION_MB's (default 256 MiB) unless LANCE_FTS_PARTITION_SIZE is set", async () => {
    await lance();
    const want = partitionBefore ?? String(env().KPS_LANCE_FTS_PARTITION_MB ?? DEFAULT_FTS_PARTITION_MB);
    expect(process.env.LANCE_FTS_PARTITION_SIZE).toBe(want);
  });
});

for (const kind of testDatabaseKinds()) describe(`the LanceDB engine's index on disk [${kind}]`, () => lanceTests(kind));

function lanceTests(kind: Parameters<typeof openPrivateDatabase>[0]): void {
  const word = unique("vrastel").replace("-", "");
  const a = unique("page");
  const b = unique("page");
  const { db, dir } = privateIndex(kind, "kps-lance-test-", async (seeded) => {
    await seeded
      .insert(pages)
      .values([
        page(a, `Oskendal ${word}`, [
          "The oskendal fjord lies north of the town.",
          "Section::::History.",
          "Whalers settled the shore of the fjord in 1203.",
          "BULLET::::- A bullet about Ærøskøbing herons.",
          "  ",
        ]),
        page(b, "Tirvane Priory", [`The priory keeps a ${word} manuscript.`, "Section::::Architecture.", "Its cloister has forty arches."]),
      ]);
    await buildAll(engine, seeded);
  });
  const engine = createLanceEngine({ dir });

  it("indexes content paragraphs with KILT's ids, folded, and marks the pages indexed", async () => {
    expect(await staleOf(db(), [a, b])).toBe(0);
    const hits = await engine.rank(db(), `When did whalers settle the ${word} fjord?`, 10);
    expect(hits[0]).toMatchObject({ wikipediaId: a, paragraphId: 3 });
    expect(hits.filter((h) => h.wikipediaId === a).map((h) => h.paragraphId)).not.toContain(2);
    expect((await engine.rank(db(), "aerøskøbing HERONS", 5))[0]).toMatchObject({ wikipediaId: a, paragraphId: 4 });
    expect((await engine.rank(db(), "bullet", 5)).filter((h) => h.wikipediaId === a)).toHaveLength(1);
  });

  it("builds a large shard's index in a child process, and says which table and directory when that fails", async () => {
    // The seeding build made the index here (its shard is under KPS_LANCE_INDEX_CHILD_ROWS' default).
    expect(await unindexedRows(await (await connectDir(dir)).openTable(shardName(0)))).toBe(0);
    const other = fs.mkdtempSync(path.join(os.tmpdir(), "kps-lance-child-"));
    try {
      const shard = await createShard(await connectDir(other), 0);
      await shard.add([
        { wikipedia_id: "1", paragraph_id: 1, text: `a paragraph about ${word}` },
        { wikipedia_id: "1", paragraph_id: 2, text: "another one" },
      ]);
      expect(await unindexedRows(shard)).toBeNull();
      // From 2 rows on in a child: given the wrong directory, the child fails, and the error says where.
      const wrong = path.join(other, "missing");
      await expect(refreshIndex(wrong, shard, 2)).rejects.toThrow(
        `LanceDB's index build of table 'paragraphs' in ${wrong} failed (exit status 1): `,
      );
      expect(await unindexedRows(shard)).toBeNull();
      await refreshIndex(other, shard, 2);
      expect((await shard.indexStats(INDEX_NAME))?.indexType).toBe("FTS");
      expect(await unindexedRows(shard)).toBe(0);
      // The child reported its peak RSS (a fresh node process with the library: tens of MB at least).
      expect(largestIndexChildKiB()).toBeGreaterThan(20_000);
      // Rows added later are merged in a child too, and found.
      await shard.add([{ wikipedia_id: "2", paragraph_id: 1, text: `later ${word} text` }]);
      expect(await unindexedRows(shard)).toBe(1);
      await refreshIndex(other, shard, 2);
      expect(await unindexedRows(shard)).toBe(0);
      const engine2 = createLanceEngine({ dir: other });
      expect((await engine2.rank(db(), `later ${word}`, 5))[0]).toMatchObject({ wikipediaId: "2", paragraphId: 1 });
    } finally {
      fs.rmSync(other, { recursive: true, force: true });
    }
  });

  it("never fails on the query's text", async () => {
    for (const q of ['"unterminated', "AND OR NOT", "(((", "*", "fjord:* & !x", "x".repeat(10_000), `${word} ${"( ".repeat(5000)}`, ""])
      expect(Array.isArray(await engine.rank(db(), q, 5))).toBe(true);
    expect((await engine.rank(db(), `"${word}" AND (fjord OR priory)*`, 5)).length).toBeGreaterThan(0);
  });

  it("a new engine on the same directory answers alike", async () => {
    const q = `${word} manuscript cloister whalers`;
    const again = createLanceEngine({ dir });
    expect(await again.rank(db(), q, 5)).toEqual(await engine.rank(db(), q, 5));
    expect((await again.figures(db())).paragraphs).toBe((await engine.figures(db())).paragraphs);
  });

  it("replaces a changed page's rows, and sees another instance's build", async () => {
    await db().execute(sql`update pages set paragraphs = array[${`Oskendal ${word}\n`}, 'Only one paragraph now.\n'], updated_at = now()
      where wikipedia_id = ${a}`);
    const other = createLanceEngine({ dir });
    await buildAll(other, db());
    const hits = (await engine.rank(db(), word, 50)).filter((h) => h.wikipediaId === a);
    expect(hits.map((h) => h.paragraphId)).toEqual([1]);
  });

  it("clear drops the index and marks every page stale; a rebuild answers again", async () => {
    await engine.clear(db());
    expect(await staleOf(db(), [a, b])).toBe(2);
    expect(await engine.rank(db(), word, 5)).toEqual([]);
    await buildAll(engine, db());
    expect((await engine.rank(db(), `${word} priory manuscript`, 5))[0]).toMatchObject({ wikipediaId: b, paragraphId: 1 });
    expect((await engine.figures(db())).bytes).toBeGreaterThan(0);
  });

  it("answers after another instance (another worker) cleared and rebuilt the index under it", async () => {
    const q = `${word} priory manuscript`;
    const before = await engine.rank(db(), q, 5); // this instance's caches hold the index as it is
    const other = createLanceEngine({ dir });
    await other.clear(db());
    await buildAll(other, db());
    expect(before[0]).toMatchObject({ wikipediaId: b, paragraphId: 1 });
    expect(await engine.rank(db(), q, 5)).toEqual(await other.rank(db(), q, 5));
  });
}

for (const kind of testDatabaseKinds()) describe(`the LanceDB engine's shards [${kind}]`, () => shardTests(kind));

// Shards of 2 paragraphs and chunks of one page: each page goes to a shard of its own, twelve of them
// (past a listing's default page of ten, had the library one).
function shardTests(kind: Parameters<typeof openPrivateDatabase>[0]): void {
  const word = unique("quelvorn").replace("-", "");
  // Ids in the build's order (by id), so that page i is in shard i and page 0 is not in the last one.
  const base = unique("shard");
  const ids = Array.from({ length: 12 }, (_, i) => `${base}-${String(i).padStart(2, "0")}`);
  const { db, dir } = privateIndex(kind, "kps-lance-shards-", async (seeded) => {
    // Pages 0, 6 and 11 hold the word, page 11 twice; every page has two content paragraphs.
    await seeded
      .insert(pages)
      .values(
        ids.map((id, i) =>
          page(id, `Shard page ${i}`, [
            [0, 6, 11].includes(i) ? `A ${word} in paragraph one of page ${i}.` : `Plain text of page ${i}.`,
            i === 11 ? `Another ${word} ${word} here.` : `More plain text ${i}.`,
          ]),
        ),
      );
    await buildAll(engine, seeded, 1);
  });
  const engine = createLanceEngine({ dir, shardParagraphs: 2 });
  const build = (e: KnowledgeEngine) => buildAll(e, db(), 1);
  const tables = async () => shardNames(await connectDir(dir));
  const rowsIn = async (k: number, id: string) =>
    (await (await connectDir(dir)).openTable(shardName(k))).countRows(`wikipedia_id = '${id}'`);

  it("puts each page in its own shard, counts every shard's paragraphs, and ranks across them all", async () => {
    expect(await tables()).toEqual(["paragraphs", ...Array.from({ length: 11 }, (_, k) => `paragraphs_${k + 1}`)]);
    // Page i's rows are in shard i.
    for (const [i, id] of ids.entries()) expect(await rowsIn(i, id)).toBe(2);
    expect((await engine.figures(db())).paragraphs).toBe(24);
    const hits = await engine.rank(db(), word, 10);
    expect(hits.map((h) => `${ids.indexOf(h.wikipediaId)}:${h.paragraphId}`).sort()).toEqual(["0:1", "11:1", "11:2", "6:1"]);
    expect(hits.map((h) => h.score)).toEqual([...hits.map((h) => h.score)].sort((a, b) => b - a));
    // The limit holds over all shards: the best of them.
    expect(await engine.rank(db(), word, 2)).toEqual(hits.slice(0, 2));
    // Another engine on the directory (another process) sees every shard.
    expect(await createLanceEngine({ dir }).rank(db(), word, 10)).toEqual(hits);
  });

  it("moves a changed page out of its shard into the last one, and a clear drops every shard", async () => {
    await db().execute(sql`update pages set paragraphs = array['Shard page 0\n', 'Rewritten without the word.\n'], updated_at = now()
      where wikipedia_id = ${ids[0]!}`);
    await build(engine);
    expect((await engine.rank(db(), word, 10)).map((h) => ids.indexOf(h.wikipediaId)).sort((a, b) => a - b)).toEqual([6, 11, 11]);
    expect((await engine.rank(db(), "rewritten", 5))[0]).toMatchObject({ wikipediaId: ids[0], paragraphId: 1 });
    expect((await engine.figures(db())).paragraphs).toBe(23);
    // Out of the first shard, into a new last one (the last shard was full).
    expect(await rowsIn(0, ids[0]!)).toBe(0);
    expect(await tables()).toHaveLength(13);
    expect(await rowsIn(12, ids[0]!)).toBe(1);
    await engine.clear(db());
    expect(await tables()).toEqual([]);
    expect(await engine.rank(db(), word, 5)).toEqual([]);
    await build(engine);
    expect((await engine.rank(db(), word, 10)).map((h) => ids.indexOf(h.wikipediaId)).sort((a, b) => a - b)).toEqual([6, 11, 11]);
  });
}

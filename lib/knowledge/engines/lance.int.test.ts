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
import { DEFAULT_FTS_PARTITION_MB, lance } from "./lance-store";

// What only the LanceDB engine has: its index lives in a directory, so a new engine on the same
// directory (another process, a restart) must answer alike, and clear must drop it and allow a rebuild.
// A database of its own per run (openPrivateDatabase): clear marks every page stale, which on the
// database other test files share would take their index away mid-test.

const page = (id: string, title: string, body: string[]) => ({
  wikipediaId: id,
  title,
  paragraphs: [`${title}\n`, ...body.map((b) => `${b}\n`)],
});

async function buildAll(engine: KnowledgeEngine, db: Db): Promise<void> {
  while ((await engine.indexStaleChunk(db, 500)) > 0);
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
  let handle: DatabaseHandle | undefined;
  let drop: (() => Promise<void>) | undefined;
  const db = () => handle!.db;
  const word = unique("vrastel").replace("-", "");
  const a = unique("page");
  const b = unique("page");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kps-lance-test-"));
  const engine = createLanceEngine({ dir });

  beforeAll(async () => {
    ({ handle, drop } = await openPrivateDatabase(kind));
    await db()
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
    await buildAll(engine, db());
  });
  afterAll(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await drop?.();
  });

  it("indexes content paragraphs with KILT's ids, folded, and marks the pages indexed", async () => {
    expect(await staleOf(db(), [a, b])).toBe(0);
    const hits = await engine.rank(db(), `When did whalers settle the ${word} fjord?`, 10);
    expect(hits[0]).toMatchObject({ wikipediaId: a, paragraphId: 3 });
    expect(hits.filter((h) => h.wikipediaId === a).map((h) => h.paragraphId)).not.toContain(2);
    expect((await engine.rank(db(), "aerøskøbing HERONS", 5))[0]).toMatchObject({ wikipediaId: a, paragraphId: 4 });
    expect((await engine.rank(db(), "bullet", 5)).filter((h) => h.wikipediaId === a)).toHaveLength(1);
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
}

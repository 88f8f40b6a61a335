import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf, type DatabaseHandle } from "@/db/client";
import { openPrivateDatabase, testDatabaseKinds } from "@/test/databases";
import { describeKnowledgeEngine } from "../engine-suite";
import { indexAll, insertPages, kiltPage, suitePages } from "../engine-suite-pages";
import { createPostgresEngine } from "./postgres";
import { rumIndexExists } from "./postgres-method";

// The shared engine suite on the PostgreSQL engine: "auto" (RUM where the server offers the
// extension, GIN on PGlite and elsewhere) and GIN forced on a server that has RUM.
describeKnowledgeEngine("postgres (auto)", () => createPostgresEngine());
describeKnowledgeEngine("postgres (gin)", () => createPostgresEngine({ method: "gin" }));

for (const kind of testDatabaseKinds()) {
  describe(`the PostgreSQL engine's method [${kind}]`, () => {
    let handle: DatabaseHandle | undefined;
    let drop: (() => Promise<void>) | undefined;
    beforeAll(async () => {
      ({ handle, drop } = await openPrivateDatabase(kind));
    }, 120_000);
    afterAll(() => drop?.());

    it("is RUM where the server offers the extension, made when a first build ends (two at once make it once), GIN elsewhere or when forced", async () => {
      const db = handle!.db;
      const [offered] = rowsOf<{ ok: boolean }>(
        await db.execute(sql`select exists (select 1 from pg_available_extensions where name = 'rum') as ok`),
      );
      const { rows, tag } = suitePages();
      await insertPages(db, [...rows, kiltPage(`${tag}-extra`, `Extra ${tag}`, ["One more paragraph."])]);
      // Two engines of their own (each prepares once) on the pool's connections: the loser of the
      // `create extension` race must not fail its build.
      const [auto, other] = [createPostgresEngine(), createPostgresEngine()];
      await Promise.all([auto.indexStaleChunk(db, 2), other.indexStaleChunk(db, 2)]);
      expect(await rumIndexExists(db)).toBe(false);
      while ((await auto.indexStaleChunk(db, 2)) > 0) expect(await rumIndexExists(db)).toBe(false);
      // Both builds' last calls at once: the loser of the `create index` race must not fail.
      await Promise.all([auto.indexStaleChunk(db, 2), other.indexStaleChunk(db, 2)]);
      const expected = kind === "postgres" && offered?.ok ? "rum" : "gin";
      expect(await rumIndexExists(db)).toBe(expected === "rum");
      expect((await auto.figures(db)).method).toBe(expected);
      expect((await createPostgresEngine({ method: "gin" }).figures(db)).method).toBe("gin");
      const figures = await auto.figures(db);
      expect(figures.paragraphs).toBe(7);
      expect(figures.bytes).toBeGreaterThan(0);
      const words = `Élodie harbours ${tag}`;
      const ranked = await auto.rank(db, words, 3);
      expect(ranked.length).toBeGreaterThan(0);
      expect(await createPostgresEngine({ method: "gin" }).rank(db, words, 3)).toEqual(ranked);
      // A rebuild: clear drops the RUM index, the build makes it again when it ends, and the ranking is the same.
      await auto.clear(db);
      expect(await rumIndexExists(db)).toBe(false);
      expect(await indexAll(db, auto)).toBe(rows.length + 1);
      expect(await rumIndexExists(db)).toBe(expected === "rum");
      expect((await auto.figures(db)).method).toBe(expected);
      expect(await auto.rank(db, words, 3)).toEqual(ranked);
    });
  });
}

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { system, type Actor } from "@/lib/auth/actor";
import { openPrivateDatabase, testDatabaseKinds } from "@/test/databases";
import type { KnowledgeEngine } from "./engine";
import { suitePages, insertPages } from "./engine-suite-pages";
import { createPostgresEngine } from "./engines/postgres";
import { buildIndex, getIndexStatus, startIndexBuild } from "./index-build";
import { rankParagraphs, rankParagraphsMany } from "./retrieve";
import { searchOptionsSchema } from "./schemas";
import { searchKnowledge } from "./search";

const annotator: Actor = { kind: "user", id: 1, username: "a", role: "annotator", via: "session" };

// Which engine built the index. On a database of its own: switching engines empties the index every
// test file on a shared database reads. The second engine is PostgreSQL's under the other name, so
// what it indexes is real; what is tested is the state index-build.ts keeps per engine.
for (const kind of testDatabaseKinds()) {
  describe(`the text index's engine [${kind}]`, () => {
    let handle: DatabaseHandle | undefined;
    let drop: (() => Promise<void>) | undefined;
    const data = suitePages();
    const postgresEngine = createPostgresEngine();
    const other: KnowledgeEngine = { ...createPostgresEngine({ method: "gin" }), name: "lance" };
    const db = () => handle!.db;
    const textSearch = (engine: KnowledgeEngine) =>
      searchKnowledge(db(), annotator, searchOptionsSchema.parse({ q: `painted harbours near Brest ${data.tag}`, mode: "text" }), engine);
    beforeAll(async () => {
      ({ handle, drop } = await openPrivateDatabase(kind));
      await insertPages(handle.db, data.rows);
    }, 120_000);
    afterAll(() => drop?.());

    it("is ready for the engine that built it, and says so", async () => {
      const status = await buildIndex(db(), system, 60_000, { engine: postgresEngine });
      expect(status).toMatchObject({ state: "ready", engine: "postgres", builtBy: "postgres", stalePages: 0, paragraphs: 6 });
      expect(status.method).toMatch(/^(rum|gin)$/);
      expect((await textSearch(postgresEngine)).results[0]).toMatchObject({ wikipediaId: data.ids.elodie, paragraphId: 2 });
    });

    it("refuses text search with another engine configured, naming both, until a build starts that engine over", async () => {
      expect(await getIndexStatus(db(), system, other)).toMatchObject({
        state: "none",
        engine: "lance",
        builtBy: "postgres",
        stalePages: 4,
      });
      const refused = await textSearch(other).catch((e) => e);
      expect(refused).toMatchObject({ code: "conflict", message: expect.stringMatching(/postgres engine.*KPS_KNOWLEDGE_ENGINE is lance/) });
      await expect(rankParagraphs(db(), "harbours", 4, other)).rejects.toMatchObject({ code: "conflict" });
      await expect(rankParagraphsMany(db(), ["harbours"], 4, other)).rejects.toMatchObject({ code: "conflict" });
      // A build by the other engine, not asked to rebuild, starts over from every page.
      const built = await buildIndex(db(), system, 60_000, { engine: other });
      expect(built).toMatchObject({ state: "ready", engine: "lance", builtBy: "lance", indexedPages: 4, stalePages: 0, paragraphs: 6 });
      expect((await textSearch(other)).results[0]).toMatchObject({ wikipediaId: data.ids.elodie, paragraphId: 2 });
      expect(await getIndexStatus(db(), system, postgresEngine)).toMatchObject({ state: "none", builtBy: "lance" });
    });

    it("rebuilds on request, answering as before; rankParagraphsMany answers as rankParagraphs", async () => {
      await buildIndex(db(), system, 60_000, { engine: postgresEngine });
      const queries = [`Élodie harbours ${data.tag}`, `crème brûlée ${data.tag}`];
      const before = await rankParagraphsMany(db(), queries, 3, postgresEngine);
      expect(before[1]).toEqual(await rankParagraphs(db(), queries[1]!, 3, postgresEngine));
      const rebuilt = await buildIndex(db(), system, 60_000, { engine: postgresEngine, rebuild: true });
      expect(rebuilt).toMatchObject({ state: "ready", builtBy: "postgres", indexedPages: 4, paragraphs: 6 });
      expect(await rankParagraphsMany(db(), queries, 3, postgresEngine)).toEqual(before);
      const started = await startIndexBuild(db(), system, { engine: postgresEngine, rebuild: true });
      expect(started.state).toBe("building");
      await expect(startIndexBuild(db(), system, { engine: postgresEngine, rebuild: true })).rejects.toMatchObject({ code: "conflict" });
      expect(await buildIndex(db(), system, 60_000, { engine: postgresEngine })).toMatchObject({ state: "ready", paragraphs: 6 });
    });
  });
}

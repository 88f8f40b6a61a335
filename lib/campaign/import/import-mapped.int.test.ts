import { eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { rowsOf } from "@/db/client";
import { batches, passages, queries } from "@/db/schema";
import { system } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import { describeEachDatabase, unique } from "@/test/databases";
import { jsonl, source } from "@/test/kilt-lines";
import { createCampaign } from "../campaigns";
import { importBatch } from "./import-batch";
import { importKnowledge } from "../../knowledge/import-knowledge";
import { createCampaignSchema } from "../settings.contract";
import { goldsOf } from "../runs/golds";
import { droppedItemsJsonl } from "./evidence-map.contract";
import { findPages, foldedTitle } from "./evidence-pages";

type Problem = { file: string; line: number; field: string; message: string };

async function problemsOf(promise: Promise<unknown>): Promise<Problem[]> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe("invalid");
  return ((error as AppError).details as { problems: Problem[] }).problems;
}

const LIGHT = "The Velmora lighthouse was first lit in 1871 by the harbour master of the old port town.";
const KEEPER = "Its last keeper, Ilse Marten, left the island in 1952 when the lamp was automated.";
const CAFE = "The Ódrun café serves fish soup to the ferry passengers every winter morning.";
const BRIDGE = "The Tarsk bridge crosses the river at its narrowest point, south of the mill.";

describeEachDatabase("evidence given as text, mapped at import", ({ db }) => {
  async function setUp() {
    const u = unique("m");
    const page = (id: string, title: string, body: string[]) => ({
      wikipedia_id: id,
      wikipedia_title: title,
      text: [`${title}\n`, ...body.map((b) => `${b}\n`)],
    });
    // The cafe's twin: another page whose title, folded for case and accents, is the cafe's.
    const ids = { light: `${u}-1`, cafe: `${u}-2`, bridge: `${u}-3`, twin: `${u}-4` };
    const titles = { light: `Velmora Lighthouse ${u}`, cafe: `Ódrun Café ${u}`, bridge: `Tarsk Bridge ${u}`, twin: `ODRUN CAFE ${u}` };
    await importKnowledge(db(), system, {
      fileName: "k.jsonl",
      source: source(
        jsonl([
          page(ids.light, titles.light, [LIGHT, KEEPER]),
          page(ids.cafe, titles.cafe, [CAFE]),
          page(ids.bridge, titles.bridge, ["Section::::History.", BRIDGE]),
          page(ids.twin, titles.twin, ["A page of another cafe, whose title folds as the first one's."]),
        ]),
      ),
    });
    const campaign = await createCampaign(db(), system, createCampaignSchema.parse({ name: unique("campaign"), judgmentsPerPassage: 3 }));
    return { u, ids, titles, campaign };
  }

  it("locates exact, fuzzy, redirected, folded and id items, drops the rest as the report says, and makes gold of the kept", async () => {
    const { u, ids, titles, campaign } = await setUp();
    const item = (evidence: string, page: Record<string, unknown>) => ({ evidence, ...page });
    const line = (id: string, ...provenance: unknown[]) => ({
      id: `${u}-${id}`,
      input: `question ${id}?`,
      output: [{ answer: "a", provenance }],
    });
    const lines = [
      line("exact", item(KEEPER, { title: titles.light })),
      line("fuzzy", item(LIGHT.replace("harbour master", "harbour keeper"), { title: titles.light })),
      line("low", item("Purple elephants sang about the lighthouse yesterday evening in Paris.", { title: titles.light })),
      line("unknown", item(CAFE, { title: `No Such Page ${u}` })),
      line("redirect", item(BRIDGE, { title: `Old_Tarsk_Crossing_${u}` })),
      line("folded", item(CAFE, { title: `odrun cafe ${u}` })),
      line("byid", item(LIGHT, { wikipedia_id: ids.light })),
      line("set", item(LIGHT, { title: titles.light }), item(BRIDGE, { title: titles.bridge })),
      {
        id: `${u}-located`,
        input: "located?",
        output: [{ provenance: [{ wikipedia_id: ids.cafe, start_paragraph_id: 1, end_paragraph_id: 1 }] }],
      },
    ];
    const result = await importBatch(db(), system, {
      campaignId: campaign.id,
      queries: { fileName: "text-evidence.jsonl", source: source(jsonl(lines)) },
      redirects: { fileName: "redirects.tsv", source: source(`Old_Tarsk_Crossing_${u}\tTarsk_Bridge_${u}\n\nUnused\tOther\n`) },
      mapEvidence: "on",
    });

    const report = result.evidence!;
    expect(report).toMatchObject({ file: "text-evidence.jsonl", minBleu: 0.5, items: 9, exact: 6, fuzzy: 1, dropped: 2, unknownPages: 1 });
    expect(report.pagesBy).toEqual({ id: 1, title: 5, redirect: 1, folded: 1 });
    // The folded item names the cafe and its twin: the page of smallest id is taken, and the report says so.
    expect(report.sharedTitles).toBe(1);
    expect(report.sharedTitleItems).toEqual([
      { line: 6, id: `${u}-folded`, title: `odrun cafe ${u}`, pages: 2, wikipediaId: ids.cafe, pageTitle: titles.cafe },
    ]);
    expect(report.bleuBins.reduce((a, b) => a + b, 0)).toBe(8); // every item whose page was found
    expect(report.bleuBins[9]).toBe(6);
    const [low, unknown] = report.droppedItems;
    expect(low).toMatchObject({ line: 3, id: `${u}-low`, field: "output[0].provenance[0]", reason: "below-threshold" });
    expect(low!.best).toMatchObject({ wikipediaId: ids.light, title: titles.light });
    expect(low!.best!.bleu).toBeLessThan(0.5);
    expect(unknown).toMatchObject({ line: 4, page: `No Such Page ${u}`, reason: "unknown-page", best: null });
    const download = droppedItemsJsonl(report.droppedItems)
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(download.map((d) => [d.line, d.best_wikipedia_id, d.best_paragraph_id])).toEqual([
      [3, ids.light, low!.best!.paragraphId],
      [4, null, null],
    ]);

    // Gold: the paragraph as the passage, the span as mapped, expected sufficient; the two items of one output are one set.
    const rows = await db()
      .select({ kiltId: queries.kiltId, original: queries.originalLine, p: passages })
      .from(passages)
      .innerJoin(queries, eq(queries.id, passages.queryId))
      .where(eq(passages.batchId, result.batch.id));
    const of = (id: string) => rows.filter((r) => r.kiltId === `${u}-${id}`);
    expect(of("exact").map((r) => r.p)).toEqual([
      expect.objectContaining({
        wikipediaId: ids.light,
        startParagraphId: 2,
        endParagraphId: 2,
        isGold: true,
        expectedVerdict: "sufficient",
        expectedStartParagraphId: 2,
        expectedStartCharacter: 0,
        expectedEndParagraphId: 2,
        expectedEndCharacter: Array.from(KEEPER).length,
      }),
    ]);
    const fuzzy = of("fuzzy")[0]!.p;
    expect([fuzzy.wikipediaId, fuzzy.startParagraphId, fuzzy.expectedVerdict]).toEqual([ids.light, 1, "sufficient"]);
    expect(fuzzy.expectedEndCharacter! > fuzzy.expectedStartCharacter!).toBe(true);
    expect(of("low")).toEqual([]);
    expect(of("unknown")).toEqual([]);
    expect(of("redirect").map((r) => [r.p.wikipediaId, r.p.startParagraphId])).toEqual([[ids.bridge, 2]]);
    expect(of("folded").map((r) => [r.p.wikipediaId, r.p.startParagraphId])).toEqual([[ids.cafe, 1]]);
    expect(of("byid").map((r) => [r.p.wikipediaId, r.p.startParagraphId])).toEqual([[ids.light, 1]]);
    const set = of("set");
    expect(set).toHaveLength(1);
    expect(set[0]!.p.setMembers!.map((m) => [m.wikipediaId, m.startParagraphId, m.expectedSpan?.startCharacter])).toEqual([
      [ids.light, 1, 0],
      [ids.bridge, 2, 0],
    ]);
    expect(of("located").map((r) => [r.p.wikipediaId, r.p.startParagraphId, r.p.isGold])).toEqual([[ids.cafe, 1, true]]);
    expect(result).toMatchObject({ queries: 9, goldPassages: 7, sets: 1 });

    // The original gold of the leaderboard reads the rewritten line: the kept items located, with their BLEU.
    const original = (id: string) => goldsOf({ originalLine: of(id)[0]?.original ?? "", status: "none-endorsed", entries: [] }).original!;
    expect(original("fuzzy").outputs[0]!.provenance).toEqual([
      expect.objectContaining({ wikipedia_id: ids.light, start_paragraph_id: "1", end_paragraph_id: "1", title: titles.light }),
    ]);
    const exactLine = JSON.parse(of("exact")[0]!.original) as { output: { provenance: Record<string, unknown>[] }[] };
    expect(exactLine.output[0]!.provenance[0]).toMatchObject({ wikipedia_id: ids.light, bleu_score: 1, meta: { evidence: KEEPER } });
    expect(original("redirect").titles).toEqual([titles.bridge]);
    const [lowQuery] = await db()
      .select()
      .from(queries)
      .where(eq(queries.kiltId, `${u}-low`));
    expect(JSON.parse(lowQuery!.originalLine)).toEqual({
      id: `${u}-low`,
      input: "question low?",
      output: [{ answer: "a", provenance: [] }],
    });
  });

  it("takes a stricter minBleu: the fuzzy item is dropped with its best candidate", async () => {
    const { u, titles, campaign } = await setUp();
    const lines = [
      {
        id: `${u}-q`,
        input: "q?",
        output: [{ provenance: [{ evidence: LIGHT.replace("harbour master", "harbour keeper"), title: titles.light }] }],
      },
    ];
    const result = await importBatch(db(), system, {
      campaignId: campaign.id,
      queries: { fileName: "q.jsonl", source: source(jsonl(lines)) },
      mapEvidence: true,
      minBleu: "0.99",
    });
    expect(result.evidence).toMatchObject({ minBleu: 0.99, items: 1, exact: 0, fuzzy: 0, dropped: 1 });
    expect(result.evidence!.droppedItems[0]).toMatchObject({ reason: "below-threshold", best: { paragraphId: 1 } });
    expect(result.goldPassages).toBe(0);
  });

  it("refuses bad evidence with line-numbered problems and stores nothing", async () => {
    const { u, titles, campaign } = await setUp();
    const q = (n: number, item: unknown) => JSON.stringify({ id: `${u}-${n}`, input: "q?", output: [{ provenance: [item] }] });
    const text = [
      q(1, { evidence: LIGHT }),
      q(2, { evidence: "  ", title: titles.light }),
      q(3, { evidence: "before\u0000after", title: titles.light }),
      q(4, { evidence: LIGHT, title: titles.light, start_paragraph_id: 1 }),
      q(5, { evidence: "word ".repeat(5000), title: titles.light }),
      q(6, { evidence: LIGHT, title: titles.light, training: true }),
      q(7, { evidence: "x".repeat(5 * 1024 * 1024), title: titles.light }),
    ].join("\n");
    const problems = await problemsOf(
      importBatch(db(), system, { campaignId: campaign.id, queries: { fileName: "bad.jsonl", source: source(text) }, mapEvidence: "on" }),
    );
    expect(problems.map((p) => [p.line, p.field])).toEqual([
      [1, "output[0].provenance[0].title"],
      [2, "output[0].provenance[0].evidence"],
      [3, "output[0].provenance[0].evidence"],
      [4, "output[0].provenance[0].start_paragraph_id"],
      [5, "output[0].provenance[0].evidence"],
      [6, "output[0].provenance[0].training"],
      [7, ""],
    ]);
    expect(problems[0]!.message).toMatch(/needs its page \(title or wikipedia_id\)/);
    expect(problems[1]!.message).toBe("must not be empty");
    expect(problems[2]!.message).toMatch(/NUL/);
    expect(problems[4]!.message).toBe("must be at most 20,000 characters");
    expect(problems[5]!.message).toMatch(/only on a located item/);
    expect(problems[6]!.message).toMatch(/longer than the limit/);
    expect(await db().select().from(batches).where(eq(batches.campaignId, campaign.id))).toEqual([]);
  });

  it("names the evidence given as text without mapEvidence, a bad redirects line, and minBleu without mapEvidence", async () => {
    const { u, titles, campaign } = await setUp();
    const lines = jsonl([{ id: `${u}-q`, input: "q?", output: [{ provenance: [{ evidence: LIGHT, title: titles.light }] }] }]);
    const unmapped = await problemsOf(
      importBatch(db(), system, { campaignId: campaign.id, queries: { fileName: "q.jsonl", source: source(lines) } }),
    );
    expect(unmapped).toEqual([
      { file: "q.jsonl", line: 1, field: "output[0].provenance[0]", message: expect.stringMatching(/import with mapEvidence on/) },
    ]);
    const badRedirects = await problemsOf(
      importBatch(db(), system, {
        campaignId: campaign.id,
        queries: { fileName: "q.jsonl", source: source(lines) },
        redirects: { fileName: "redirects.tsv", source: source("A\tB\nonly-one-title\n") },
        mapEvidence: "on",
      }),
    );
    expect(badRedirects).toEqual([{ file: "redirects.tsv", line: 2, field: "(line)", message: expect.stringMatching(/a tab/) }]);
    await expect(
      importBatch(db(), system, { campaignId: campaign.id, queries: { fileName: "q.jsonl", source: source(lines) }, minBleu: 0.3 }),
    ).rejects.toThrow(/minBleu.*mapEvidence on/);
    expect(await db().select().from(batches).where(eq(batches.campaignId, campaign.id))).toEqual([]);
  });

  it("keeps, in a knowledge import filtered by a task file of text evidence, the pages its items name by wikipedia_id or by title", async () => {
    const u = unique("r");
    const page = (id: string, title = `Page ${id}`) => ({ wikipedia_id: id, wikipedia_title: title, text: [`${title}\n`, `${LIGHT}\n`] });
    const refs = jsonl([
      {
        id: `${u}-q`,
        input: "q?",
        output: [
          {
            provenance: [
              { evidence: LIGHT, wikipedia_id: `${u}-a` },
              { evidence: LIGHT, title: `Page ${u}-b` },
              // Named as the title search folds it (case and accents), as the batch import then finds it.
              { evidence: LIGHT, title: `PAGE ${u}-C` },
            ],
          },
        ],
      },
    ]);
    const parts = (async function* () {
      yield { kind: "references" as const, file: { fileName: "refs.jsonl", source: source(refs) } };
      const knowledge = [page(`${u}-a`), page(`${u}-b`), page(`${u}-c`, `Page ${u}-Ç`), page(`${u}-d`)];
      yield { kind: "file" as const, file: { fileName: "k.jsonl", source: source(jsonl(knowledge)) } };
    })();
    expect(await importKnowledge(db(), system, { parts })).toMatchObject({ pages: 3, skipped: 1 });
    const kept = rowsOf<{ wikipedia_id: string }>(
      await db().execute(sql`select wikipedia_id from pages where wikipedia_id like ${`${u}-%`} order by 1`),
    );
    expect(kept.map((r) => r.wikipedia_id)).toEqual([`${u}-a`, `${u}-b`, `${u}-c`]);
  });

  it("counts the pages that share a folded title once, when titles folded alike are read in two chunks of a thousand", async () => {
    const { u, ids, titles } = await setUp();
    const fillers = Array.from({ length: 999 }, (_, i) => ({ title: `No Such Page ${u} ${i}` }));
    const refs = [{ title: `odrun cafe ${u}` }, ...fillers, { title: `Odrun cafe ${u}` }, { title: titles.twin }];
    const found = await findPages(db(), refs, new Map());
    const taken = { wikipediaId: ids.cafe, title: titles.cafe, how: "folded", sharedBy: 2 };
    expect(found[0]).toEqual(taken);
    expect(found[1000]).toEqual(taken);
    // Its exact title names the twin alone.
    expect(found[1001]).toEqual({ wikipediaId: ids.twin, title: titles.twin, how: "title" });
    expect(found.slice(1, 1000).every((f) => f === null)).toBe(true);
  });

  it("folds titles in JavaScript as kps_fold folds them in the database", async () => {
    const names = [
      "Émile Zola",
      "ÀÁÂÃÄÅĀĂĄ àáâãäåāăą",
      "ÇĆĈĊČ çćĉċč ĎĐ ďđ ÈÉÊËĒĔĖĘĚ èéêëēĕėęě",
      "ĜĞĠĢ ĝğġģ ĤĦ ĥħ ÌÍÎÏĨĪĬĮİ ìíîïĩīĭįı Ĵĵ Ķķ ĹĻĽĿŁ ĺļľŀł",
      "ÑŃŅŇ ñńņň ÒÓÔÕÖØŌŎŐ òóôõöøōŏő ŔŖŘ ŕŗř ŚŜŞŠ śŝşš ŢŤŦ ţťŧ",
      "ÙÚÛÜŨŪŬŮŰŲ ùúûüũūŭůűų Ŵŵ ÝŸŶ ýÿŷ ŹŻŽ źżž",
      "Plain ASCII: The Quick Brown Fox (1871) – 'x'",
    ];
    const rows = rowsOf<{ name: string; folded: string }>(
      await db().execute(sql`select x as name, kps_fold(x) as folded from unnest(${sql.param(names)}::text[]) as x`),
    );
    expect(rows.map((r) => foldedTitle(r.name))).toEqual(rows.map((r) => r.folded));
  });
});

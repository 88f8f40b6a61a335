// Evidence sets at import: a gold output whose provenance lists several places is one gold set
// (members in page order, each with its expected span); `sets: "pairs"` pairs the candidates of
// each question's top pages; a candidates file's `set` key groups items into one set; the batch's
// partial evidence is on for HotpotQA-like batches; a training flag on a set is refused.
import { asc, eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { rowsOf } from "@/db/client";
import { batches, passages, queries, type PassageOrigin, type SetMember } from "@/db/schema";
import { system } from "@/lib/auth/actor";
import { describeEachDatabase, unique } from "@/test/databases";
import { HOTPOT_Q7, importHotpotBatch, importHotpotKnowledge } from "@/test/hotpot-fixture";
import { jsonl, source } from "@/test/kilt-lines";
import { refusal } from "@/test/refusal";
import { createCampaign } from "../campaigns";
import { createCampaignSchema } from "../settings.contract";
import { importBatch, type BatchImportOptionsInput } from "./import-batch";

type Problem = { file?: string; line?: number; field: string; message: string };
const problemsOf = async (p: Promise<unknown>) => ((await refusal(p)).details as { problems: Problem[] }).problems;

const item = (wikipedia_id: string, paragraph: number, extra: Record<string, unknown> = {}) => ({
  wikipedia_id,
  start_paragraph_id: paragraph,
  end_paragraph_id: paragraph,
  ...extra,
});

describeEachDatabase("evidence sets at import", ({ db }) => {
  const campaign = async () => (await createCampaign(db(), system, createCampaignSchema.parse({ name: unique("sets") }))).id;

  /** The batch's passages per question (KILT id), in page order, with their members. */
  async function stored(batchId: number) {
    return db()
      .select({
        kiltId: queries.kiltId,
        wikipediaId: passages.wikipediaId,
        start: passages.startParagraphId,
        isGold: passages.isGold,
        expectedVerdict: passages.expectedVerdict,
        setMembers: passages.setMembers,
        setKey: passages.setKey,
        origins: passages.origins,
      })
      .from(passages)
      .innerJoin(queries, eq(queries.id, passages.queryId))
      .where(eq(passages.batchId, batchId))
      .orderBy(asc(queries.lineNumber), asc(passages.wikipediaId), asc(passages.setKey));
  }
  const partialOf = async (batchId: number) =>
    (await db().select({ on: batches.partialEvidence }).from(batches).where(eq(batches.id, batchId)))[0]!.on;

  /** A batch of inline lines over the fixture's pages. */
  async function importLines(lines: unknown[], options: BatchImportOptionsInput = {}, candidates?: unknown[], fileName = "q.jsonl") {
    await importHotpotKnowledge(db());
    return importBatch(db(), system, {
      campaignId: await campaign(),
      ...options,
      queries: { fileName, source: source(jsonl(lines)) },
      candidates: candidates ? { fileName: "dpr.jsonl", source: source(jsonl(candidates)) } : undefined,
    });
  }

  it("keeps a gold output of two pages as ONE gold set, members in page order with their expected spans", async () => {
    await importHotpotKnowledge(db());
    const result = await importHotpotBatch(db(), await campaign(), { withoutCandidates: true });
    expect(result).toMatchObject({ queries: 7, passages: 7, goldPassages: 7, sets: 7, pages: 11, partialEvidence: true });
    const rows = await stored(result.batch.id);
    expect(rows.every((r) => r.isGold && r.expectedVerdict === "sufficient" && r.setMembers?.length === 2)).toBe(true);
    const q1 = rows.find((r) => r.kiltId === "hotpot-q1")!;
    expect(q1).toMatchObject({ wikipediaId: "9300002", start: 1, setKey: "9300003:1-1", origins: [{ kind: "gold" }] });
    expect(q1.setMembers).toEqual([
      {
        wikipediaId: "9300002",
        startParagraphId: 1,
        endParagraphId: 1,
        expectedSpan: { startParagraphId: 1, startCharacter: 77, endParagraphId: 1, endCharacter: 116 },
      },
      {
        wikipediaId: "9300003",
        startParagraphId: 1,
        endParagraphId: 1,
        expectedSpan: { startParagraphId: 1, startCharacter: 49, endParagraphId: 1, endCharacter: 94 },
      },
    ]);
    const q7 = rows.find((r) => r.kiltId === HOTPOT_Q7.kiltId)!;
    expect(q7.setKey).toBe(HOTPOT_Q7.setKey);
    expect(q7.setMembers!.map(({ expectedSpan: _, ...m }) => m)).toEqual(HOTPOT_Q7.members);
    expect(await partialOf(result.batch.id)).toBe(true);
  });

  it("orders a set's places (pages by number, then paragraphs), keeps single and negative items single, and refuses more than 8 places", async () => {
    const fever = {
      id: unique("fever"),
      input: "The Coastal Atlas has forty sheets.",
      output: [
        { answer: "SUPPORTS", provenance: [item("9300011", 3), item("9300001", 2), item("9300001", 1), item("9300001", 1)] },
        { provenance: [item("9300012", 1)] },
        { provenance: [item("9300013", 1, { gold: "insufficient" }), item("9300014", 2)] },
      ],
    };
    const result = await importLines([fever]);
    // A gold output spanning two pages makes the batch HotpotQA-like: partial evidence on by default.
    expect(result).toMatchObject({ passages: 4, goldPassages: 4, sets: 1, partialEvidence: true });
    const rows = await stored(result.batch.id);
    const set = rows.find((r) => r.setMembers)!;
    expect(set.setMembers).toEqual([
      { wikipediaId: "9300001", startParagraphId: 1, endParagraphId: 1, expectedSpan: null },
      { wikipediaId: "9300001", startParagraphId: 2, endParagraphId: 2, expectedSpan: null },
      { wikipediaId: "9300011", startParagraphId: 3, endParagraphId: 3, expectedSpan: null },
    ]);
    expect(set.setKey).toBe("9300001:2-2|9300011:3-3");
    expect(rows.filter((r) => !r.setMembers).map((r) => [r.wikipediaId, r.expectedVerdict, r.setKey])).toEqual([
      ["9300012", "sufficient", ""],
      ["9300013", "insufficient", ""],
      ["9300014", "sufficient", ""],
    ]);
    expect(await partialOf(result.batch.id)).toBe(true);

    const nine = Array.from({ length: 9 }, (_, i) => item(String(9300001 + i), 1));
    const problems = await problemsOf(importLines([{ id: unique("q"), input: "q", output: [{ provenance: nine }] }]));
    expect(problems).toEqual([
      {
        file: "q.jsonl",
        line: 1,
        field: "output[0].provenance",
        message: "this output's provenance lists 9 places: an evidence set holds 2 to 8 passages",
      },
    ]);
  });

  it("refuses a training flag on a gold set, naming the file, line and field", async () => {
    const lines = [
      { id: unique("q"), input: "q", output: [{ provenance: [item("9300001", 1, { training: true })] }] },
      {
        id: unique("q"),
        input: "q",
        output: [{ provenance: [item("9300001", 1), item("9300005", 1, { training: true, explanation: "x" })] }],
      },
    ];
    const problems = await problemsOf(importLines(lines));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ file: "q.jsonl", line: 2, field: "output[0].provenance[1].training" });
    expect(problems[0]!.message).toMatch(/^is not allowed on an evidence set: this output's provenance lists 2 items/);
  });

  it('with sets "pairs", pairs the candidates of each question\'s top pages, merged with a gold set at the same places', async () => {
    await importHotpotKnowledge(db());
    const result = await importHotpotBatch(db(), await campaign(), { sets: "pairs", partialEvidence: "off" });
    // 7 gold sets; per question 4 single candidates and 3 pairs of its top 3 pages, one of them the gold set (merged).
    expect(result).toMatchObject({ passages: 7 + 7 * 4 + 7 * 2, candidatePassages: 7 * 4 + 7 * 2, sets: 7 * 3, partialEvidence: false });
    expect(await partialOf(result.batch.id)).toBe(false);
    const q7 = (await stored(result.batch.id)).filter((r) => r.kiltId === HOTPOT_Q7.kiltId && r.setMembers);
    expect(q7.map((r) => [r.wikipediaId, r.setKey, r.isGold])).toEqual([
      ["9300001", "9300005:1-1", true],
      ["9300001", "9300011:1-1", false],
      ["9300005", "9300011:1-1", false],
    ]);
    expect(q7[0]!.origins).toEqual<PassageOrigin[]>([{ kind: "gold" }, { kind: "pair" }]);
    expect(q7[1]!.origins).toEqual<PassageOrigin[]>([{ kind: "pair" }]);

    // Without Q7's gold, its pair is a plain candidate set.
    const plain = await importHotpotBatch(db(), await campaign(), { sets: "pairs", withoutGold: [HOTPOT_Q7.kiltId] });
    expect(plain).toMatchObject({ sets: 6 * 3 + 3, partialEvidence: true });
    const pairs = (await stored(plain.batch.id)).filter((r) => r.kiltId === HOTPOT_Q7.kiltId && r.setMembers);
    expect(pairs.map((r) => r.isGold)).toEqual([false, false, false]);
    expect([pairs[0]!.setMembers, pairs[0]!.origins]).toEqual([HOTPOT_Q7.members, [{ kind: "pair" }]]);

    // Two pages per question: one pair each, the gold set for Q3, Q4 and Q5 (their two best-ranked pages).
    const two = await importHotpotBatch(db(), await campaign(), { sets: "pairs", setPages: "2" });
    expect(two.sets).toBe(7 + 7 - 3);
  });

  it("keeps a candidate at a gold set's member whatever its answer overlap, so the pairs still hold the bridge page", async () => {
    await importHotpotKnowledge(db());
    const result = await importHotpotBatch(db(), await campaign(), { sets: "pairs", minAnswerOverlap: 0.5 });
    const q7 = (await stored(result.batch.id)).filter((r) => r.kiltId === HOTPOT_Q7.kiltId);
    // 9300001 (Aldric Venn) names no river but is a member of the gold set: kept; 9300012 (Venn family) is dropped.
    expect(q7.filter((r) => !r.setMembers).map((r) => r.wikipediaId)).toEqual(["9300001", "9300005", "9300011"]);
    expect(q7.filter((r) => r.setMembers).map((r) => [r.wikipediaId, r.setKey, r.isGold])).toEqual([
      ["9300001", "9300005:1-1", true],
      ["9300001", "9300011:1-1", false],
      ["9300005", "9300011:1-1", false],
    ]);
  });

  it("refuses bad set options, naming the field", async () => {
    const fieldsOf = async (options: BatchImportOptionsInput) =>
      ((await refusal(importLines([{ id: unique("q"), input: "q" }], options))).details as { problems: Problem[] }).problems;
    expect(await fieldsOf({ setPages: 3 })).toEqual([
      { field: "setPages", message: 'is the number of top pages paired per question: give it with sets "pairs"' },
    ]);
    expect(await fieldsOf({ sets: "pairs", setPages: "7" })).toEqual([
      { field: "setPages", message: "must be at most 6 (at most 15 pairs per question)" },
    ]);
    expect((await fieldsOf({ sets: "pairs", setPages: 1 }))[0]!.message).toBe("must be at least 2 (a pair needs two pages)");
    expect((await fieldsOf({ sets: "triples" as "pairs" }))[0]!.field).toBe("sets");
    expect((await fieldsOf({ partialEvidence: "maybe" as "on" }))[0]).toMatchObject({ field: "partialEvidence" });
  });

  it("groups a candidates file's items sharing a `set` key into one candidate set; refuses a set of 1, of 9, or with a place twice", async () => {
    const id = unique("q");
    const ranking = [
      item("9300001", 1, { set: "a" }),
      item("9300012", 1),
      item("9300005", 1, { set: "a" }),
      item("9300011", 2, { set: 7 }),
      item("9300011", 1, { set: 7 }),
      item("9300013", 1, { set: 7 }),
    ];
    const result = await importLines([{ id, input: "Which river?", output: [{ answer: "Tessel" }] }], { perRetriever: 4 }, [
      { id, output: [{ provenance: ranking }] },
    ]);
    expect(result).toMatchObject({ passages: 3, candidatePassages: 3, sets: 2 });
    expect(result.retrievers).toEqual([{ retriever: "dpr", read: 3, droppedByRank: 0, droppedByOverlap: 0, kept: 3, merged: 0 }]);
    const rows = await stored(result.batch.id);
    expect(rows.map((r) => [r.wikipediaId, r.start, r.setKey, r.origins])).toEqual([
      ["9300001", 1, "9300005:1-1", [{ kind: "retriever", retriever: "dpr", rank: 1 }]],
      ["9300011", 1, "9300011:2-2|9300013:1-1", [{ kind: "retriever", retriever: "dpr", rank: 4 }]],
      ["9300012", 1, "", [{ kind: "retriever", retriever: "dpr", rank: 2 }]],
    ]);
    const members = rowsOf<{ set_members: SetMember[] }>(
      await db().execute(sql`select set_members from passages where batch_id = ${result.batch.id} and set_key = '9300005:1-1'`),
    );
    expect(members[0]!.set_members).toEqual(HOTPOT_Q7.members);

    const bad = [
      [item("9300001", 1, { set: "x" }), item("9300005", 1)],
      Array.from({ length: 9 }, (_, i) => item(String(9300001 + i), 1, { set: 1 })),
      [item("9300001", 1, { set: "d" }), item("9300002", 1), item("9300001", 1, { set: "d" })],
    ];
    const ids = bad.map(() => unique("q"));
    const problems = await problemsOf(
      importLines(
        ids.map((q) => ({ id: q, input: "q" })),
        { perRetriever: 20 },
        ids.map((q, i) => ({ id: q, output: [{ provenance: bad[i] }] })),
      ),
    );
    expect(problems.map((p) => [p.file, p.line, p.field])).toEqual([
      ["dpr.jsonl", 1, "output[0].provenance[0].set"],
      ["dpr.jsonl", 2, "output[0].provenance[0].set"],
      ["dpr.jsonl", 3, "output[0].provenance[0].set"],
    ]);
    expect(problems.map((p) => p.message)).toEqual([
      "'x' names a set of 1 item: a set holds 2 to 8 passages (give the others the same set, or drop the key)",
      "'1' names a set of 9 places: an evidence set holds 2 to 8 passages",
      "'d' lists one passage twice (the same page and paragraphs): a set's members are distinct",
    ]);
  });

  it("turns partial evidence on by default for a HotpotQA-like batch (file name, ids, meta) or with pairs, off otherwise", async () => {
    const line = (extra: Record<string, unknown> = {}, id = unique("q")) => ({
      id,
      input: "q",
      ...extra,
      output: [{ provenance: [item("9300001", 1)] }],
    });
    expect((await importLines([line()])).partialEvidence).toBe(false);
    expect((await importLines([line()], {}, undefined, "hotpotqa-train-kilt.jsonl")).partialEvidence).toBe(true);
    expect((await importLines([line({}, unique("hotpot"))])).partialEvidence).toBe(true);
    expect((await importLines([line({ meta: { dataset: "hotpotqa" } })])).partialEvidence).toBe(true);
    expect((await importLines([line()], { sets: "pairs" })).partialEvidence).toBe(true);
    const on = await importLines([line()], { partialEvidence: "on" });
    expect([on.partialEvidence, await partialOf(on.batch.id)]).toEqual([true, true]);
    expect((await importLines([line()], { partialEvidence: true })).partialEvidence).toBe(true);
  });
});

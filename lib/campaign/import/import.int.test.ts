import { eq, inArray, sql } from "drizzle-orm";
import { rowsOf } from "@/db/client";
import { expect, it } from "vitest";
import { gzipSync } from "node:zlib";
import { batches, judgments, pages, passages, queries } from "@/db/schema";
import { system } from "@/lib/auth/actor";
import { createUser } from "@/lib/auth/users";
import { AppError } from "@/lib/errors";
import { describeEachDatabase, unique } from "@/test/databases";
import { jsonl, provenanceLine, source } from "@/test/kilt-lines";
import { changeBatchStatus, getBatch } from "../batches";
import { createCampaign, getCampaign, updateCampaign } from "../campaigns";
import { importBatch } from "./import-batch";
import { dropStaleStagingTables, importKnowledge } from "../../knowledge/import-knowledge";
import { createCampaignSchema, updateCampaignSchema } from "../settings.contract";

async function expectInvalid(promise: Promise<unknown>): Promise<{ file: string; line: number; field: string; message: string }[]> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe("invalid");
  return ((error as AppError).details as { problems: { file: string; line: number; field: string; message: string }[] }).problems;
}

describeEachDatabase("knowledge and batch import", ({ db }) => {
  /** Tricky paragraphs: non-BMP, combining marks, tabs, backslashes, quotes, braces, CR inside text. */
  function trickyPage(id: string) {
    return {
      _id: id,
      wikipedia_id: id,
      wikipedia_title: `Page "${id}"`,
      text: [
        `Page "${id}"\n`,
        "Velmora (Old Italic: 𐌅𐌄𐌋) was first lit in 1871.\n",
        "Section::::History.\n",
        'Tabs\tand back\\slashes, "quotes", {braces}, commas, a carriage\rreturn and Acade\u0301mie 白凪月橋 שלום.\n',
        'BULLET::::- NULL as a word, \\N as text, and an empty-looking "" pair.\n',
        "\n",
      ],
      anchors: [],
    };
  }

  async function campaign(overrides: Record<string, unknown> = {}) {
    return createCampaign(db(), system, createCampaignSchema.parse({ name: unique("campaign"), ...overrides }));
  }

  it("keeps every imported paragraph identical to the input (plain and gzip), and upserts by wikipedia_id", async () => {
    const ids = [unique("p"), unique("p"), unique("p")];
    const records = ids.map(trickyPage);
    const plain = await importKnowledge(db(), system, { fileName: "k.jsonl", source: source(jsonl(records.slice(0, 2))) });
    expect(plain).toMatchObject({ lines: 2, pages: 2, inserted: 2, updated: 0, skipped: 0 });
    // Again with the second page retitled: one new, one changed, one the same (left as it was).
    records[1] = { ...records[1]!, wikipedia_title: `${records[1]!.wikipedia_title} (retitled)` };
    const gz = await importKnowledge(db(), system, { fileName: "k.jsonl.gz", source: source(gzipSync(jsonl(records))) });
    expect(gz).toMatchObject({ lines: 3, pages: 3, inserted: 1, updated: 1, unchanged: 1 });

    const stored = await db().select().from(pages).where(inArray(pages.wikipediaId, ids));
    expect(stored).toHaveLength(3);
    for (const r of records) {
      const page = stored.find((p) => p.wikipediaId === r.wikipedia_id)!;
      expect(page.title).toBe(r.wikipedia_title);
      expect(page.paragraphs).toEqual(r.text);
    }
  });

  it("keeps only the pages given, when filtering for a batch", async () => {
    const [a, b] = [unique("p"), unique("p")];
    const result = await importKnowledge(db(), system, {
      fileName: "k.jsonl",
      source: source(jsonl([trickyPage(a), trickyPage(b)])),
      onlyPageIds: new Set([b]),
    });
    expect(result).toMatchObject({ lines: 2, pages: 1, skipped: 1 });
    const stored = await db()
      .select({ id: pages.wikipediaId })
      .from(pages)
      .where(inArray(pages.wikipediaId, [a, b]));
    expect(stored.map((s) => s.id)).toEqual([b]);
  });

  it("stores questions with their original lines byte for byte, gold and merged candidates", async () => {
    const [pa, pb] = [unique("p"), unique("p")];
    await importKnowledge(db(), system, { fileName: "k.jsonl", source: source(jsonl([trickyPage(pa), trickyPage(pb)])) });
    const c = await campaign();
    const bigId = `-${String(Date.now()).padEnd(19, "7")}`; // 19 digits and a sign: beyond 2^53
    const q1 =
      `{"id": "${bigId}", "input": "when was velmora first lit", "output": [{"answer": "1871", "provenance": [{"wikipedia_id": "${pa}", ` +
      `"title": "x", "start_paragraph_id": 1, "start_character": 29, "end_paragraph_id": 1, "end_character": 47, "bleu_score": 1.0}]}, ` +
      `{"answer": "in 1871"}], "meta": {"annotation_id": 13805127637452916481, "note": "caf\\u00e9"}}`;
    const q2Id = unique("q");
    const q2 = JSON.stringify({
      id: q2Id,
      input: "second",
      output: [{ answer: "x", provenance: [{ wikipedia_id: pb, start_paragraph_id: 3, end_paragraph_id: 3 }] }],
    });
    const candidates = jsonl([
      {
        id: bigId,
        input: "when was velmora first lit",
        output: [
          {
            provenance: [
              { wikipedia_id: pb, meta: { retriever: "bm25" } }, // page-level: first content paragraph
              { wikipedia_id: pa, start_paragraph_id: 1, end_paragraph_id: 1 }, // the gold passage again
              { wikipedia_id: pa, start_paragraph_id: 3, end_paragraph_id: 4 },
              { wikipedia_id: pb, start_paragraph_id: 4, end_paragraph_id: 4 }, // beyond top-3
            ],
          },
        ],
      },
    ]);
    const result = await importBatch(db(), system, {
      campaignId: c.id,
      topK: 3,
      queries: { fileName: "q.jsonl", source: source(`\uFEFF${q1}\r\n\r\n${q2}\r\n`) },
      candidates: { fileName: "c.jsonl", source: source(candidates) },
    });
    expect(result).toMatchObject({ queries: 2, passages: 4, goldPassages: 2, candidatePassages: 2, pages: 2 });
    expect((await getBatch(db(), system, result.batch.id)).status).toBe("draft");

    const qs = await db().select().from(queries).where(eq(queries.batchId, result.batch.id));
    const first = qs.find((q) => q.kiltId === bigId)!;
    expect(first.originalLine).toBe(q1);
    expect(first.answers).toEqual(["1871", "in 1871"]);
    expect(first.lineNumber).toBe(1);
    expect(qs.find((q) => q.kiltId === q2Id)!.lineNumber).toBe(3);

    const ps = await db().select().from(passages).where(eq(passages.queryId, first.id));
    const gold = ps.find((p) => p.isGold)!;
    expect(gold).toMatchObject({
      wikipediaId: pa,
      startParagraphId: 1,
      endParagraphId: 1,
      expectedVerdict: "sufficient",
      expectedStartCharacter: 29,
      expectedEndCharacter: 47,
    });
    // The items without meta.retriever take the one the file names (bm25), not the file's name.
    expect(gold.origins).toEqual([{ kind: "gold" }, { kind: "retriever", retriever: "bm25", rank: 2 }]);
    expect(result.retrieverDefaults).toEqual([{ file: "c.jsonl", lines: 1, retriever: "bm25" }]);
    const pageLevel = ps.find((p) => p.wikipediaId === pb)!;
    expect(pageLevel).toMatchObject({ startParagraphId: 1, endParagraphId: 1, isGold: false });
    expect(pageLevel.origins).toEqual([{ kind: "retriever", retriever: "bm25", rank: 1 }]);
    expect(ps).toHaveLength(3);
    expect(ps.every((p) => p.openSlots === 3 && p.judgmentCount === 0)).toBe(true);
  });

  it("without candidates, a batch holds the questions' own provenance passages", async () => {
    const p = unique("p");
    await importKnowledge(db(), system, { fileName: "k.jsonl", source: source(jsonl([trickyPage(p)])) });
    const c = await campaign({ judgmentsPerPassage: 5, endorsementThreshold: 3 });
    // Two outputs of one item each: two single gold passages (one output's several items are one evidence set, import-sets.int.test.ts).
    const { output, ...rest } = provenanceLine(
      unique("q"),
      p,
      [
        [1, 1],
        [3, 4],
      ],
      { input: "q" },
    );
    const line = { ...rest, output: output[0]!.provenance.map((item) => ({ provenance: [item] })) };
    const result = await importBatch(db(), system, {
      campaignId: c.id,
      topK: 4,
      queries: { fileName: "q.jsonl", source: source(jsonl([line])) },
    });
    expect(result).toMatchObject({ queries: 1, passages: 2, goldPassages: 2, candidatePassages: 0 });
    const ps = await db().select().from(passages).where(eq(passages.batchId, result.batch.id));
    expect(ps.every((x) => x.openSlots === 5 && x.expectedStartCharacter === null)).toBe(true);
  });

  it("refuses a question already in the campaign, storing nothing", async () => {
    const p = unique("p");
    await importKnowledge(db(), system, { fileName: "k.jsonl", source: source(jsonl([trickyPage(p)])) });
    const c = await campaign();
    const line = {
      id: unique("q"),
      input: "q",
      output: [{ provenance: [{ wikipedia_id: p, start_paragraph_id: 1, end_paragraph_id: 1 }] }],
    };
    const first = await importBatch(db(), system, {
      campaignId: c.id,
      topK: 4,
      queries: { fileName: "a.jsonl", source: source(jsonl([line])) },
    });
    const problems = await expectInvalid(
      importBatch(db(), system, { campaignId: c.id, topK: 4, queries: { fileName: "b.jsonl", source: source(jsonl([line])) } }),
    );
    expect(problems[0]).toMatchObject({ file: "b.jsonl", line: 1, field: "id" });
    expect(problems[0]!.message).toContain(`batch ${first.batch.id}`);
    const all = await db().select().from(batches).where(eq(batches.campaignId, c.id));
    expect(all).toHaveLength(1);
  });

  it("moves a batch through draft → launched ⇄ paused → closed and refuses other moves", async () => {
    const p = unique("p");
    await importKnowledge(db(), system, { fileName: "k.jsonl", source: source(jsonl([trickyPage(p)])) });
    const c = await campaign();
    const line = { id: unique("q"), input: "q", output: [{ provenance: [{ wikipedia_id: p }] }] };
    const { batch } = await importBatch(db(), system, {
      campaignId: c.id,
      topK: 4,
      queries: { fileName: "q.jsonl", source: source(jsonl([line])) },
    });
    const conflict = async (action: "launch" | "pause" | "close") => {
      const e = await changeBatchStatus(db(), system, batch.id, action).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(AppError);
      expect((e as AppError).status).toBe(409);
    };
    await conflict("pause");
    expect((await changeBatchStatus(db(), system, batch.id, "launch")).status).toBe("launched");
    await conflict("launch");
    expect((await changeBatchStatus(db(), system, batch.id, "pause")).status).toBe("paused");
    const relaunched = await changeBatchStatus(db(), system, batch.id, "launch");
    expect(relaunched.status).toBe("launched");
    expect(relaunched.launchedAt).not.toBeNull();
    expect((await changeBatchStatus(db(), system, batch.id, "close")).status).toBe("closed");
    await conflict("launch");
    await conflict("close");
  });

  it("creates campaigns with defaults, checks T ≤ R, and fixes R once annotation started", async () => {
    const c = await campaign();
    expect(c).toMatchObject({
      judgmentsPerPassage: 3,
      endorsementThreshold: 2,
      showAnswers: false,
      goldMinJudgments: 4,
      goldAccuracyThreshold: expect.closeTo(0.3, 5),
      goldSpanSlack: expect.closeTo(0.2, 5),
      decoysPer100: 0,
      leaseMinutes: 10,
      earlyStop: false,
      allAnnotators: true,
    });
    expect(createCampaignSchema.safeParse({ name: "x", judgmentsPerPassage: 2, endorsementThreshold: 3 }).success).toBe(false);
    await expect(updateCampaign(db(), system, c.id, { endorsementThreshold: 4 })).rejects.toBeInstanceOf(AppError);
    expect(
      (await updateCampaign(db(), system, c.id, { judgmentsPerPassage: 5, endorsementThreshold: 3, leaseMinutes: 20 })).leaseMinutes,
    ).toBe(20);
    // The lease in seconds (scripts and tests): it wins over leaseMinutes; under 30 s is refused by name.
    expect(await updateCampaign(db(), system, c.id, { leaseSeconds: 45, leaseMinutes: 20 })).toMatchObject({
      leaseSeconds: 45,
      leaseMinutes: 1,
    });
    expect(updateCampaignSchema.safeParse({ leaseSeconds: 29 }).error?.issues[0]).toMatchObject({
      path: ["leaseSeconds"],
      message: "must be at least 30 seconds",
    });
    expect(createCampaignSchema.parse({ name: "x", leaseSeconds: 30 })).toMatchObject({ leaseSeconds: 30, leaseMinutes: 10 });

    const p = unique("p");
    await importKnowledge(db(), system, { fileName: "k.jsonl", source: source(jsonl([trickyPage(p)])) });
    const line = { id: unique("q"), input: "q", output: [{ provenance: [{ wikipedia_id: p }] }] };
    const { batch } = await importBatch(db(), system, {
      campaignId: c.id,
      topK: 4,
      queries: { fileName: "q.jsonl", source: source(jsonl([line])) },
    });
    const [passage] = await db().select().from(passages).where(eq(passages.batchId, batch.id));
    expect(passage!.openSlots).toBe(5);
    const { user } = await createUser(db(), system, { username: unique("ann"), role: "annotator", password: "password-123" });
    await db()
      .insert(judgments)
      .values({
        passageId: passage!.id,
        userId: user.id,
        campaignId: c.id,
        batchId: batch.id,
        verdict: "insufficient",
        durationMs: 1000,
        idempotencyKey: unique("k"),
        requestHash: "h",
      });
    await db().update(passages).set({ judgmentCount: 1, openSlots: 4 }).where(eq(passages.id, passage!.id));
    const refused = await updateCampaign(db(), system, c.id, { judgmentsPerPassage: 3 }).catch((e: unknown) => e);
    expect((refused as AppError).code).toBe("conflict");
    expect((await getCampaign(db(), system, c.id)).judgmentsPerPassage).toBe(5);
  });
});

describeEachDatabase("staging tables", ({ db }) => {
  it("drops only staging tables older than a day", async () => {
    const old = `kps_stage_pages_${Date.now() - 2 * 24 * 3600 * 1000}_${unique("t").slice(2, 10)}`;
    const fresh = `kps_stage_pages_${Date.now()}_${unique("t").slice(2, 10)}`;
    for (const t of [old, fresh]) await db().execute(sql.raw(`create table "${t}" (x int)`));
    await dropStaleStagingTables(db());
    const left = rowsOf<{ tablename: string }>(
      await db().execute(sql`select tablename from pg_tables where tablename in (${old}, ${fresh})`),
    ).map((r) => r.tablename);
    expect(left).toEqual([fresh]);
    await db().execute(sql.raw(`drop table "${fresh}"`));
  });
});

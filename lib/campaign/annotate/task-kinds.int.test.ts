import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { rowsOf } from "@/db/client";
import { system, type UserActor } from "@/lib/auth/actor";
import { AppError, parseInput } from "@/lib/errors";
import { makeAnnotator } from "@/test/campaign-factory";
import { describeEachDatabase, unique } from "@/test/databases";
import { changeBatchStatus } from "../batches";
import { createCampaign } from "../campaigns";
import { importBatch } from "../import/import-batch";
import { importKnowledge } from "../../knowledge/import-knowledge";
import { createCampaignSchema } from "../settings.contract";
import { nextTask } from "./assignment";
import type { Task } from "./judging.contract";
import { judgmentInputSchema, submitJudgment, type JudgmentInput } from "./judgments";
import { reviseJudgment } from "./revise-judgment";

function source(text: string) {
  return (async function* () {
    yield Buffer.from(text);
  })();
}

const LEAD = "Ada Lovelace was an English mathematician and writer.\n";

/** The first words of the task's first paragraph, as a span (code points). */
function spanOf(t: Task, words = 2) {
  const p = t.passage.paragraphs[0]!;
  const text = p.text.split(" ").slice(0, words).join(" ");
  return { startParagraphId: p.id, startCharacter: 0, endParagraphId: p.id, endCharacter: Array.from(text).length, text };
}

/** The 422 of an AppError, as the fields it names. */
async function fieldsOf(run: () => unknown): Promise<string[]> {
  try {
    await run();
  } catch (error) {
    if (error instanceof AppError && error.code === "invalid") {
      return ((error.details as { problems: { field: string }[] }).problems ?? []).map((p) => p.field);
    }
    throw error;
  }
  return [];
}

describeEachDatabase("judging each KILT task", ({ db }) => {
  /** A launched campaign of one line of the file `fileName` (its name sets the task), on a one-paragraph page; `expectSpan`: gold expects the page's first word. */
  async function campaignOf(fileName: string, line: { input: string; answer: string }, opts: { expectSpan?: boolean } = {}) {
    const pageId = unique("page");
    await importKnowledge(db(), system, {
      fileName: "k.jsonl",
      source: source(JSON.stringify({ wikipedia_id: pageId, wikipedia_title: "Ada Lovelace", text: ["Ada Lovelace\n", LEAD] })),
    });
    const campaign = await createCampaign(db(), system, createCampaignSchema.parse({ name: unique("kinds"), judgmentsPerPassage: 3 }));
    const span = opts.expectSpan ? { start_character: 0, end_character: 3 } : {};
    const kilt = {
      id: unique("q"),
      input: line.input,
      output: [{ answer: line.answer, provenance: [{ wikipedia_id: pageId, start_paragraph_id: 1, end_paragraph_id: 1, ...span }] }],
    };
    const { batch, task } = await importBatch(db(), system, {
      campaignId: campaign.id,
      queries: { fileName, source: source(JSON.stringify(kilt)) },
    });
    await changeBatchStatus(db(), system, batch.id, "launch");
    return { campaignId: campaign.id, kind: task.kind };
  }

  async function claim(campaignId: number): Promise<{ a: UserActor; t: Task }> {
    const a = await makeAnnotator(db());
    return { a, t: (await nextTask(db(), a, { campaignId }))! };
  }

  const body = (verdict: "sufficient" | "insufficient", extra: Partial<JudgmentInput> = {}): JudgmentInput =>
    parseInput(judgmentInputSchema, { verdict, span: null, durationMs: 10, idempotencyKey: unique("key"), ...extra });

  const stored = async (campaignId: number, userId: number) =>
    rowsOf<{ label: string | null; verdict: string; span_text: string | null; page_level?: boolean }>(
      await db().execute(
        sql`select label, verdict::text as verdict, span_text, page_level from judgments where campaign_id = ${campaignId} and user_id = ${userId}`,
      ),
    );

  const gold = async (campaignId: number, userId: number) =>
    rowsOf<{ gold_judged: number; gold_correct: number }>(
      await db().execute(
        sql`select gold_judged::int as gold_judged, gold_correct::int as gold_correct from annotator_standings where campaign_id = ${campaignId} and user_id = ${userId}`,
      ),
    )[0];

  it("fact checking: the task carries its kind; a sufficient verdict needs SUPPORTS or REFUTES, stored, kept through revisions and in the replay's hash", async () => {
    const { campaignId, kind } = await campaignOf("fever-dev-kilt.jsonl", {
      input: "Ada Lovelace was a mathematician.",
      answer: "SUPPORTS",
    });
    expect(kind).toBe("fact-checking");
    const { a, t } = await claim(campaignId);
    expect(t.query.kind).toBe("fact-checking");
    expect(await fieldsOf(() => submitJudgment(db(), a, t.claim.handle, body("sufficient", { span: spanOf(t) })))).toEqual(["label"]);
    expect(await fieldsOf(() => body("insufficient", { label: "REFUTES" }))).toEqual(["label"]);
    // Nothing was stored by the refusals.
    expect(await stored(campaignId, a.id)).toEqual([]);

    const first = body("sufficient", { span: spanOf(t), label: "REFUTES" });
    const done = await submitJudgment(db(), a, t.claim.handle, first);
    expect(done.judgment.label).toBe("REFUTES");
    expect(await stored(campaignId, a.id)).toEqual([
      { label: "REFUTES", verdict: "sufficient", span_text: "Ada Lovelace", page_level: false },
    ]);
    // A replay answers the same; the same key with another label is another body: 409.
    expect((await submitJudgment(db(), a, t.claim.handle, first)).replayed).toBe(true);
    await expect(submitJudgment(db(), a, t.claim.handle, { ...first, label: "SUPPORTS" })).rejects.toMatchObject({ code: "conflict" });

    // Revised to SUPPORTS, then to not sufficient: the label follows, the versions keep the old ones.
    const revised = await reviseJudgment(db(), a, t.claim.handle, {
      ...body("sufficient", { span: spanOf(t), label: "SUPPORTS" }),
      revision: 0,
    });
    expect(revised.judgment.label).toBe("SUPPORTS");
    expect(
      await fieldsOf(() => reviseJudgment(db(), a, t.claim.handle, { ...body("sufficient", { span: spanOf(t) }), revision: 1 })),
    ).toEqual(["label"]);
    await reviseJudgment(db(), a, t.claim.handle, { ...body("insufficient"), revision: 1 });
    expect(await stored(campaignId, a.id)).toEqual([{ label: null, verdict: "insufficient", span_text: null, page_level: false }]);
    const versions = rowsOf<{ revision: number; label: string | null }>(
      await db().execute(sql`select v.revision, v.label from judgment_versions v join judgments j on j.id = v.judgment_id
        where j.campaign_id = ${campaignId} and j.user_id = ${a.id} order by v.revision`),
    );
    expect(versions).toEqual([
      { revision: 0, label: "REFUTES" },
      { revision: 1, label: "SUPPORTS" },
    ]);
  });

  it("hostile labels are a 422 naming `label`", async () => {
    for (const label of ["supports", "Refutes", "NOT ENOUGH INFO", "S".repeat(10_000), "SUPPORTS\u0000", "\u0000", 0, {}, ["SUPPORTS"]]) {
      expect(await fieldsOf(() => body("sufficient", { label: label as never }))).toEqual(["label"]);
    }
  });

  it("other tasks refuse a label; QA still needs a span, entity linking takes a sufficient verdict without one", async () => {
    const qa = await campaignOf("questions.jsonl", { input: "who was Ada Lovelace", answer: "a mathematician" });
    expect(qa.kind).toBe("qa");
    const q = await claim(qa.campaignId);
    expect(q.t.query.kind).toBe("qa");
    expect(await fieldsOf(() => submitJudgment(db(), q.a, q.t.claim.handle, body("sufficient")))).toEqual(["span"]);
    expect(
      await fieldsOf(() => submitJudgment(db(), q.a, q.t.claim.handle, body("sufficient", { span: spanOf(q.t), label: "SUPPORTS" }))),
    ).toEqual(["label"]);

    const el = await campaignOf("aidayago2-dev-kilt.jsonl", {
      input: "He met [START_ENT] Lovelace [END_ENT] in London.",
      answer: "Ada Lovelace",
    });
    expect(el.kind).toBe("entity-linking");
    const e = await claim(el.campaignId);
    expect(e.t.query.kind).toBe("entity-linking");
    expect(await fieldsOf(() => submitJudgment(db(), e.a, e.t.claim.handle, body("sufficient", { label: "SUPPORTS" })))).toEqual(["label"]);
    const elBody = body("sufficient");
    const ok = await submitJudgment(db(), e.a, e.t.claim.handle, elBody);
    // Stored page-level, with no span: the evidence is the page itself.
    expect(ok.judgment).toMatchObject({ verdict: "sufficient", span: null, label: null });
    expect(await stored(el.campaignId, e.a.id)).toEqual([{ label: null, verdict: "sufficient", span_text: null, page_level: true }]);
    // A replay of the key answers the page-level judgment as stored.
    expect(await submitJudgment(db(), e.a, e.t.claim.handle, elBody)).toMatchObject({ replayed: true, judgment: { span: null } });
    // Gold expecting a span: entity linking takes no span check, so no highlight is right.
    expect(await gold(el.campaignId, e.a.id)).toEqual({ gold_judged: 1, gold_correct: 1 });
  });

  it("entity-linking gold with an expected span is right without a highlight; QA gold with one is not", async () => {
    const el = await campaignOf(
      "wned-dev-kilt.jsonl",
      { input: "[START_ENT] Ada [END_ENT] wrote notes.", answer: "Ada Lovelace" },
      { expectSpan: true },
    );
    const e = await claim(el.campaignId);
    await submitJudgment(db(), e.a, e.t.claim.handle, body("sufficient"));
    expect(await gold(el.campaignId, e.a.id)).toEqual({ gold_judged: 1, gold_correct: 1 });

    const qa = await campaignOf("questions.jsonl", { input: "who wrote the notes", answer: "Ada" }, { expectSpan: true });
    const q = await claim(qa.campaignId);
    // A span far from the expected one (the last words): wrong, as before task kinds.
    const p = q.t.passage.paragraphs[0]!;
    const tail = "and writer.";
    const start = Array.from(p.text).length - Array.from(tail).length - 1;
    await submitJudgment(db(), q.a, q.t.claim.handle, {
      ...body("sufficient"),
      span: { startParagraphId: p.id, startCharacter: start, endParagraphId: p.id, endCharacter: start + tail.length, text: tail },
    });
    expect(await gold(qa.campaignId, q.a.id)).toEqual({ gold_judged: 1, gold_correct: 0 });
  });

  it("fact-checking gold: a sufficient verdict with the other label is a wrong gold answer, and a revision to the dataset's label makes it right", async () => {
    const { campaignId } = await campaignOf("fever-dev-kilt.jsonl", { input: "Ada Lovelace was a mathematician.", answer: "SUPPORTS" });
    const wrong = await claim(campaignId);
    await submitJudgment(db(), wrong.a, wrong.t.claim.handle, body("sufficient", { span: spanOf(wrong.t), label: "REFUTES" }));
    expect(await gold(campaignId, wrong.a.id)).toEqual({ gold_judged: 1, gold_correct: 0 });

    const right = await claim(campaignId);
    await submitJudgment(db(), right.a, right.t.claim.handle, body("sufficient", { span: spanOf(right.t), label: "SUPPORTS" }));
    expect(await gold(campaignId, right.a.id)).toEqual({ gold_judged: 1, gold_correct: 1 });

    await reviseJudgment(db(), wrong.a, wrong.t.claim.handle, {
      ...body("sufficient", { span: spanOf(wrong.t), label: "SUPPORTS" }),
      revision: 0,
    });
    expect(await gold(campaignId, wrong.a.id)).toEqual({ gold_judged: 1, gold_correct: 1 });
  });

  it("entity linking's page-level verdict: revise and undo keep it, a highlight is kept as sent, and a client's page_level is ignored", async () => {
    const el = await campaignOf("aidayago2-dev-kilt.jsonl", { input: "[START_ENT] Ada [END_ENT] wrote.", answer: "Ada Lovelace" });
    const e = await claim(el.campaignId);
    const h = e.t.claim.handle;
    // page_level is the server's: a client's is dropped, and a highlight sent with it is stored as a span.
    await submitJudgment(db(), e.a, h, { ...body("sufficient", { span: spanOf(e.t) }), page_level: true } as JudgmentInput);
    expect(await stored(el.campaignId, e.a.id)).toEqual([
      { label: null, verdict: "sufficient", span_text: "Ada Lovelace", page_level: false },
    ]);
    const revised = await reviseJudgment(db(), e.a, h, { ...body("sufficient"), revision: 0 });
    expect(revised.judgment).toMatchObject({ verdict: "sufficient", span: null, revision: 1 });
    expect(await stored(el.campaignId, e.a.id)).toEqual([{ label: null, verdict: "sufficient", span_text: null, page_level: true }]);
    await reviseJudgment(db(), e.a, h, { ...body("insufficient"), revision: 1 });
    expect(await stored(el.campaignId, e.a.id)).toEqual([{ label: null, verdict: "insufficient", span_text: null, page_level: false }]);
    // Undo back to the page-level verdict; the versions keep each one as it was.
    await reviseJudgment(db(), e.a, h, { ...body("sufficient"), revision: 2 });
    expect(await stored(el.campaignId, e.a.id)).toEqual([{ label: null, verdict: "sufficient", span_text: null, page_level: true }]);
    const versions = rowsOf<{ revision: number; page_level: boolean; span_text: string | null }>(
      await db().execute(sql`select v.revision, v.page_level, v.span_text from judgment_versions v join judgments j on j.id = v.judgment_id
        where j.campaign_id = ${el.campaignId} and j.user_id = ${e.a.id} order by v.revision`),
    );
    expect(versions).toEqual([
      { revision: 0, page_level: false, span_text: "Ada Lovelace" },
      { revision: 1, page_level: true, span_text: null },
      { revision: 2, page_level: false, span_text: null },
    ]);

    // QA: a sufficient verdict without a span stays a 422 naming `span`, page_level sent or not; nothing is stored.
    const qa = await campaignOf("questions.jsonl", { input: "who was Ada Lovelace", answer: "a mathematician" });
    const q = await claim(qa.campaignId);
    const hostile = { ...body("sufficient"), page_level: true, pageLevel: true } as JudgmentInput;
    expect(await fieldsOf(() => submitJudgment(db(), q.a, q.t.claim.handle, hostile))).toEqual(["span"]);
    expect(await stored(qa.campaignId, q.a.id)).toEqual([]);
    // The database refuses a page-level QA-shaped row too: page-level needs a sufficient verdict.
    await expect(
      db().execute(sql`update judgments set page_level = true, verdict = 'insufficient', span_text = null, start_paragraph_id = null,
        start_character = null, end_paragraph_id = null, end_character = null where campaign_id = ${el.campaignId} and user_id = ${e.a.id}`),
    ).rejects.toThrow();
  });
});

// Judging evidence sets and partial evidence: a set is one task with every member, its
// sufficient verdict needs a highlight in each member (checked against the stored pages), it takes
// R judgments like any passage, gold sets are right only with each expected member highlighted, and
// "part of the evidence" is stored as insufficient with its highlight where the batch asks for it.
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { rowsOf } from "@/db/client";
import type { SetMember } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { makeAnnotators, makeCampaign, type TestCampaign } from "@/test/campaign-factory";
import { describeEachDatabase, unique } from "@/test/databases";
import type { UserActor } from "@/lib/auth/actor";
import { nextTask } from "./assignment";
import type { Task, TaskPassage } from "./judging.contract";
import { judgmentInputSchema, submitJudgment } from "./judgments";
import { listMyJudgments, myJudgmentsQuerySchema } from "./my-judgments";
import { reviseJudgment } from "./revise-judgment";

/** The first `words` words of a passage's first paragraph, as a span (code points). */
function spanIn(p: TaskPassage, words = 2) {
  const para = p.paragraphs[0]!;
  const text = para.text.split(" ").slice(0, words).join(" ");
  return { startParagraphId: para.id, startCharacter: 0, endParagraphId: para.id, endCharacter: Array.from(text).length, text };
}

function body(over: Record<string, unknown>) {
  return judgmentInputSchema.parse({ span: null, unreadable: false, durationMs: 900, idempotencyKey: unique("key"), ...over });
}

/** The fields a 422 names (the run must fail with one). */
async function fieldsOf(run: () => Promise<unknown>): Promise<string[]> {
  try {
    await run();
  } catch (error) {
    if (error instanceof AppError && error.code === "invalid")
      return (error.details as { problems: { field: string }[] }).problems.map((p) => p.field);
    throw error;
  }
  throw new Error("expected a 422");
}

describeEachDatabase("evidence sets and partial evidence on the judging path", ({ db }) => {
  /** A launched campaign of two questions on two pages, with a set of paragraph 2 of each page added to question 0 (gold when `gold`). */
  async function campaignWithSet(opts: { gold?: boolean; partialEvidence?: boolean } = {}) {
    const c = await makeCampaign(db(), { queries: 2, candidates: 1, settings: { judgmentsPerPassage: 3, goldMinJudgments: 10_000 } });
    const members: SetMember[] = c.pageIds.map((id) => ({
      wikipediaId: id,
      startParagraphId: 2,
      endParagraphId: 2,
      // Paragraph 2 reads "The 𐌅𐌄𐌋 inscription …": gold expects its first two words (code points).
      ...(opts.gold ? { expectedSpan: { startParagraphId: 2, startCharacter: 0, endParagraphId: 2, endCharacter: 7 } } : {}),
    }));
    const [set] = rowsOf<{ id: number }>(
      await db().execute(sql`insert into passages (query_id, campaign_id, batch_id, wikipedia_id, start_paragraph_id, end_paragraph_id,
          origins, is_gold, expected_verdict, set_members, set_key, open_slots)
        select q.id, q.campaign_id, q.batch_id, ${members[0]!.wikipediaId}, 2, 2, '[{"kind":"gold"}]'::jsonb, ${!!opts.gold},
          ${opts.gold ? "sufficient" : null}::verdict, ${JSON.stringify(members)}::jsonb, ${`${members[1]!.wikipediaId}:2-2`}, 3
        from queries q where q.batch_id = ${c.batchId} and q.kilt_id = ${c.queryIds[0]!}
        returning id::float8 as id`),
    );
    if (opts.partialEvidence) await db().execute(sql`update batches set partial_evidence = true where id = ${c.batchId}`);
    return { ...c, setId: set!.id };
  }

  /** The annotator's tasks until the set (others judged insufficient on the way); the set's task. */
  async function setTaskOf(c: TestCampaign, who: UserActor): Promise<Task> {
    for (let i = 0; i < 20; i++) {
      const t = await nextTask(db(), who, { campaignId: c.campaignId });
      if (!t) break;
      if (t.members) return t;
      await submitJudgment(db(), who, t.claim.handle, body({ verdict: "insufficient" }));
    }
    throw new Error("the set was never given");
  }

  const judgmentOf = async (setId: number, who: UserActor) =>
    rowsOf<{ verdict: string; partial: boolean; member_spans: unknown; span_text: string | null }>(
      await db().execute(
        sql`select verdict::text as verdict, partial, member_spans, span_text from judgments where passage_id = ${setId} and user_id = ${who.id}`,
      ),
    )[0];

  it("gives a set as one task with every member, and stores a sufficient verdict with one highlight per member", async () => {
    const c = await campaignWithSet({ partialEvidence: true });
    const [a] = await makeAnnotators(db(), 1);
    const t = await setTaskOf(c, a!);
    expect(t.members!.map((m) => m.wikipediaId)).toEqual(c.pageIds);
    expect(t.members![1]!.title).toBe(`Page ${c.pageIds[1]}`);
    expect(t.members![1]!.paragraphs.map((p) => p.id)).toEqual([2]);
    expect(t.passage).toEqual(t.members![0]);
    // A set is never offered "part of the evidence", even in a batch that asks for it.
    expect(t.partialEvidence).toBeUndefined();

    const spans = t.members!.map((m) => spanIn(m));
    const sent = body({ verdict: "sufficient", spans });
    const { judgment } = await submitJudgment(db(), a!, t.claim.handle, sent);
    expect(judgment.spans).toEqual(spans);
    expect(judgment.span).toBeNull();
    const stored = await judgmentOf(c.setId, a!);
    expect(stored).toMatchObject({ verdict: "sufficient", partial: false, member_spans: spans, span_text: spans[0]!.text });
    // A replay answers the same.
    const again = await submitJudgment(db(), a!, t.claim.handle, sent);
    expect(again.replayed).toBe(true);
    expect(again.judgment.spans).toEqual(spans);

    // The history shows both members and both highlights.
    const mine = await listMyJudgments(db(), a!, c.campaignId, myJudgmentsQuerySchema.parse({}));
    const row = mine.rows.find((r) => r.members)!;
    expect(row.members!.map((m) => m.title)).toEqual(c.pageIds.map((id) => `Page ${id}`));
    expect(row.spans).toEqual(spans);
  });

  it("refuses a set's verdict without a highlight in every member, with `span`, or partial, naming the field", async () => {
    const c = await campaignWithSet({ partialEvidence: true });
    const [a] = await makeAnnotators(db(), 1);
    const t = await setTaskOf(c, a!);
    const [first, second] = t.members!.map((m) => spanIn(m));
    const h = t.claim.handle;
    expect(await fieldsOf(() => submitJudgment(db(), a!, h, body({ verdict: "sufficient" })))).toEqual(["spans"]);
    expect(await fieldsOf(() => submitJudgment(db(), a!, h, body({ verdict: "sufficient", span: first })))).toEqual(["span"]);
    expect(await fieldsOf(() => submitJudgment(db(), a!, h, body({ verdict: "partial", span: first })))).toEqual(["verdict"]);
    expect(() => body({ verdict: "sufficient", spans: [first] })).toThrow(/at least 2/);
    const three = [first!, second!, second!];
    expect(await fieldsOf(() => submitJudgment(db(), a!, h, body({ verdict: "sufficient", spans: three })))).toEqual(["spans"]);
    // The second member's highlight must read the second member's page at its offsets.
    const wrong = { ...second!, text: "Not there" };
    expect(await fieldsOf(() => submitJudgment(db(), a!, h, body({ verdict: "sufficient", spans: [first, wrong] })))).toEqual([
      "spans.1.text",
    ]);
    const outside = { ...second!, startParagraphId: 1, endParagraphId: 1 };
    expect(await fieldsOf(() => submitJudgment(db(), a!, h, body({ verdict: "sufficient", spans: [first, outside] })))).toEqual([
      "spans.1",
    ]);
    expect(await judgmentOf(c.setId, a!)).toBeUndefined();
    // Insufficient together needs no highlight.
    await submitJudgment(db(), a!, h, body({ verdict: "insufficient" }));
    expect(await judgmentOf(c.setId, a!)).toMatchObject({ verdict: "insufficient", member_spans: null, span_text: null });
  });

  it("takes exactly R judgments on a set, and endorses it with T sufficient ones", async () => {
    const c = await campaignWithSet();
    const team = await makeAnnotators(db(), 4);
    for (const who of team.slice(0, 3)) {
      const t = await setTaskOf(c, who);
      await submitJudgment(db(), who, t.claim.handle, body({ verdict: "sufficient", spans: t.members!.map((m) => spanIn(m)) }));
    }
    const [p] = rowsOf<{ judgment_count: number; sufficient_count: number; open_slots: number }>(
      await db().execute(sql`select judgment_count, sufficient_count, open_slots from passages where id = ${c.setId}`),
    );
    expect(p).toEqual({ judgment_count: 3, sufficient_count: 3, open_slots: 0 });
    await expect(setTaskOf(c, team[3]!)).rejects.toThrow(/never given/);
  });

  it("counts a gold set right only with each expected member highlighted", async () => {
    const c = await campaignWithSet({ gold: true });
    const [right, wrong] = await makeAnnotators(db(), 2);
    const goldOf = async (who: UserActor) =>
      rowsOf<{ gold_judged: number; gold_correct: number }>(
        await db().execute(
          sql`select gold_judged, gold_correct from annotator_standings where campaign_id = ${c.campaignId} and user_id = ${who.id}`,
        ),
      )[0];
    const t1 = await setTaskOf(c, right!);
    const before1 = (await goldOf(right!)) ?? { gold_judged: 0, gold_correct: 0 };
    await submitJudgment(db(), right!, t1.claim.handle, body({ verdict: "sufficient", spans: t1.members!.map((m) => spanIn(m, 2)) }));
    expect(await goldOf(right!)).toEqual({ gold_judged: before1.gold_judged + 1, gold_correct: before1.gold_correct + 1 });

    // The whole first member and a word of the second that misses the expected words: not right.
    const t2 = await setTaskOf(c, wrong!);
    const before2 = (await goldOf(wrong!)) ?? { gold_judged: 0, gold_correct: 0 };
    const para = t2.members![1]!.paragraphs[0]!;
    const words = para.text.split(" ");
    const at = Array.from(words.slice(0, 5).join(" ")).length + 1;
    const miss = {
      startParagraphId: para.id,
      startCharacter: at,
      endParagraphId: para.id,
      endCharacter: at + Array.from(words[5]!).length,
      text: words[5]!,
    };
    const bad = body({ verdict: "sufficient", spans: [spanIn(t2.members![0]!, 2), miss] });
    await submitJudgment(db(), wrong!, t2.claim.handle, bad);
    expect(await goldOf(wrong!)).toEqual({ gold_judged: before2.gold_judged + 1, gold_correct: before2.gold_correct });
    // Revised to the right highlights, it counts right; the old version keeps its member spans.
    const fixed = { ...body({ verdict: "sufficient", spans: t2.members!.map((m) => spanIn(m, 2)) }), revision: 0 };
    const { judgment } = await reviseJudgment(db(), wrong!, t2.claim.handle, fixed);
    expect(judgment.spans).toEqual(fixed.spans);
    expect(await goldOf(wrong!)).toEqual({ gold_judged: before2.gold_judged + 1, gold_correct: before2.gold_correct + 1 });
    const [version] = rowsOf<{ member_spans: unknown }>(
      await db().execute(sql`select v.member_spans from judgment_versions v join judgments j on j.id = v.judgment_id
        where j.passage_id = ${c.setId} and j.user_id = ${wrong!.id}`),
    );
    expect(version!.member_spans).toEqual(bad.spans);
  });

  it("stores 'part of the evidence' as insufficient with its highlight, only where the batch asks for it", async () => {
    const off = await campaignWithSet();
    const on = await campaignWithSet({ partialEvidence: true });
    const [a] = await makeAnnotators(db(), 1);
    const single = async (c: TestCampaign) => {
      for (let i = 0; i < 20; i++) {
        const t = await nextTask(db(), a!, { campaignId: c.campaignId });
        if (t && !t.members) return t;
        if (t) await submitJudgment(db(), a!, t.claim.handle, body({ verdict: "insufficient" }));
      }
      throw new Error("no single passage");
    };
    const tOff = await single(off);
    expect(tOff.partialEvidence).toBeUndefined();
    expect(
      await fieldsOf(() => submitJudgment(db(), a!, tOff.claim.handle, body({ verdict: "partial", span: spanIn(tOff.passage) }))),
    ).toEqual(["verdict"]);
    const tOn = await single(on);
    expect(tOn.partialEvidence).toBe(true);
    expect(() => body({ verdict: "partial" })).toThrow(/span/);
    expect(() => body({ verdict: "partial", span: spanIn(tOn.passage), unreadable: true })).toThrow(/unreadable/);
    expect(
      await fieldsOf(() =>
        submitJudgment(db(), a!, tOn.claim.handle, body({ verdict: "sufficient", spans: [spanIn(tOn.passage), spanIn(tOn.passage)] })),
      ),
    ).toEqual(["spans"]);
    const span = spanIn(tOn.passage, 3);
    const { judgment } = await submitJudgment(db(), a!, tOn.claim.handle, body({ verdict: "partial", span }));
    expect(judgment).toMatchObject({ verdict: "partial", span });
    const [row] = rowsOf<{ verdict: string; partial: boolean; span_text: string; sufficient_count: number }>(
      await db().execute(sql`select j.verdict::text as verdict, j.partial, j.span_text, p.sufficient_count from judgments j
        join passages p on p.id = j.passage_id join claims c on c.id = j.claim_id where c.handle = ${tOn.claim.handle}`),
    );
    expect(row).toEqual({ verdict: "insufficient", partial: true, span_text: span.text, sufficient_count: 0 });
    const partials = await listMyJudgments(db(), a!, on.campaignId, myJudgmentsQuerySchema.parse({ verdict: "partial" }));
    expect(partials.rows.map((r) => [r.claim, r.verdict])).toEqual([[tOn.claim.handle, "partial"]]);
    const insufficient = await listMyJudgments(db(), a!, on.campaignId, myJudgmentsQuerySchema.parse({ verdict: "insufficient" }));
    expect(insufficient.rows.some((r) => r.claim === tOn.claim.handle)).toBe(false);
    // The database refuses a partial verdict that is sufficient or without its highlight.
    await expect(
      db().execute(sql`update judgments set partial = true, verdict = 'sufficient' where claim_id in
      (select id from claims where handle = ${tOn.claim.handle})`),
    ).rejects.toThrow();
    await expect(
      db().execute(sql`update judgments set span_text = null, start_paragraph_id = null where claim_id in
      (select id from claims where handle = ${tOn.claim.handle})`),
    ).rejects.toThrow();
  });
});

import { eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { campaignMembers, claims, judgments, passages, queries } from "@/db/schema";
import { system } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import { sliceCodePoints } from "@/lib/kilt/codepoints";
import { makeAnnotator, makeCampaign } from "@/test/campaign-factory";
import { idsOfTask } from "@/test/claims";
import { describeEachDatabase, unique } from "@/test/databases";
import { nextTask, renewClaim } from "./assignment";
import type { Task } from "./judging.contract";
import { changeBatchStatus } from "../batches";
import { updateCampaign } from "../campaigns";
import { pauseAnnotator } from "../quality/standings";
import { submitJudgment, type JudgmentInput } from "./judgments";

async function code(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "ok";
  } catch (error) {
    if (error instanceof AppError) return `${error.status} ${error.code}`;
    throw error;
  }
}

const insufficient = (): JudgmentInput => ({
  verdict: "insufficient",
  span: null,
  unreadable: false,
  durationMs: 1500,
  idempotencyKey: unique("key"),
});

/** A sufficient judgment highlighting `word` in the task's first paragraph, offsets in code points. */
function sufficient(task: Task, word: string): JudgmentInput {
  const p = task.passage.paragraphs[0]!;
  const utf16 = p.text.indexOf(word);
  const start = Array.from(p.text.slice(0, utf16)).length;
  const end = start + Array.from(word).length;
  return {
    verdict: "sufficient",
    span: { startParagraphId: p.id, startCharacter: start, endParagraphId: p.id, endCharacter: end, text: word },
    unreadable: false,
    durationMs: 2500,
    idempotencyKey: unique("key"),
  };
}

describeEachDatabase("assignment and judgments", ({ db }) => {
  it("resumes the live claim, prefetches a second one, and finishes a question before the next", async () => {
    const c = await makeCampaign(db(), { queries: 3, candidates: 2 });
    const a = await makeAnnotator(db());
    const first = (await nextTask(db(), a, { campaignId: c.campaignId }))!;
    expect((await nextTask(db(), a, { campaignId: c.campaignId }))!.claim.handle).toBe(first.claim.handle);
    const prefetched = (await nextTask(db(), a, { campaignId: c.campaignId, after: first.claim.handle }))!;
    expect(prefetched.claim.handle).not.toBe(first.claim.handle);
    expect(prefetched.query.id).toBe(first.query.id); // same question: its passages come in a row
    expect((await nextTask(db(), a, { campaignId: c.campaignId, after: first.claim.handle }))!.claim.handle).toBe(prefetched.claim.handle);

    const seen: Task[] = [first, prefetched];
    await submitJudgment(db(), a, first.claim.handle, insufficient());
    await submitJudgment(db(), a, prefetched.claim.handle, insufficient());
    for (let t = await nextTask(db(), a, { campaignId: c.campaignId }); t; t = await nextTask(db(), a, { campaignId: c.campaignId })) {
      seen.push(t);
      await submitJudgment(db(), a, t.claim.handle, insufficient());
    }
    expect(seen).toHaveLength(9); // 3 questions × (1 gold + 2 candidates)
    const order = seen.map((t) => t.query.id);
    // Each question's three passages are consecutive.
    for (let i = 0; i < 9; i += 3) expect(new Set(order.slice(i, i + 3)).size).toBe(1);
    expect(new Set(order).size).toBe(3);
    expect(seen[2]!.progress.judgedToday).toBe(2);
  });

  it("gives a passage to R distinct annotators, never more", async () => {
    const c = await makeCampaign(db(), { queries: 1, candidates: 0 });
    const annotators = await Promise.all([1, 2, 3, 4].map(() => makeAnnotator(db())));
    const tasks: (Task | null)[] = [];
    for (const a of annotators) tasks.push(await nextTask(db(), a, { campaignId: c.campaignId }));
    const passageIds = await Promise.all(tasks.slice(0, 3).map(async (t) => (await idsOfTask(db(), t!)).passageId));
    expect(new Set(passageIds).size).toBe(1);
    expect(tasks[3]).toBeNull();
    const [p] = await db().select().from(passages).where(eq(passages.id, passageIds[0]!));
    expect(p).toMatchObject({ claimCount: 3, openSlots: 0, judgmentCount: 0 });
  });

  it("reopens expired claims; a late judgment counts while the slot is free and is refused (410) once taken", async () => {
    const c = await makeCampaign(db(), { queries: 1, candidates: 0, settings: { judgmentsPerPassage: 1, endorsementThreshold: 1 } });
    const [a, b] = [await makeAnnotator(db()), await makeAnnotator(db())];
    const late = (await nextTask(db(), a, { campaignId: c.campaignId }))!;
    expect(await nextTask(db(), b, { campaignId: c.campaignId })).toBeNull();

    await db()
      .update(claims)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(claims.handle, late.claim.handle));
    expect(await code(renewClaim(db(), a, late.claim.handle))).toBe("410 gone");
    const taken = (await nextTask(db(), b, { campaignId: c.campaignId }))!;
    expect((await idsOfTask(db(), taken)).passageId).toBe((await idsOfTask(db(), late)).passageId);
    expect(await code(submitJudgment(db(), a, late.claim.handle, insufficient()))).toBe("410 gone");
    await submitJudgment(db(), b, taken.claim.handle, insufficient());

    // A late judgment whose slot is still free is kept.
    const c2 = await makeCampaign(db(), { queries: 1, candidates: 0, settings: { judgmentsPerPassage: 1, endorsementThreshold: 1 } });
    const slow = (await nextTask(db(), a, { campaignId: c2.campaignId }))!;
    await db()
      .update(claims)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(claims.handle, slow.claim.handle));
    expect(await code(submitJudgment(db(), a, slow.claim.handle, insufficient()))).toBe("ok");
    const [p] = await db()
      .select()
      .from(passages)
      .where(eq(passages.id, (await idsOfTask(db(), slow)).passageId));
    expect(p).toMatchObject({ judgmentCount: 1, claimCount: 0, openSlots: 0 });
  });

  it("renews a live claim by the lease", async () => {
    const c = await makeCampaign(db(), { queries: 1, candidates: 0, settings: { leaseMinutes: 5 } });
    const a = await makeAnnotator(db());
    const t = (await nextTask(db(), a, { campaignId: c.campaignId }))!;
    await db()
      .update(claims)
      .set({ expiresAt: sql`now() + interval '10 seconds'` })
      .where(eq(claims.handle, t.claim.handle));
    const renewed = await renewClaim(db(), a, t.claim.handle);
    expect(renewed.expiresAt.getTime() - Date.now()).toBeGreaterThan(4 * 60_000);
    const other = await makeAnnotator(db());
    expect(await code(renewClaim(db(), other, t.claim.handle))).toBe("403 forbidden");
  });

  it("assigns only from launched batches of campaigns the annotator is on, and nothing to a paused annotator", async () => {
    const draft = await makeCampaign(db(), { queries: 1, candidates: 1, launch: false });
    const a = await makeAnnotator(db());
    expect(await nextTask(db(), a, { campaignId: draft.campaignId })).toBeNull();
    await changeBatchStatus(db(), system, draft.batchId, "launch");
    await changeBatchStatus(db(), system, draft.batchId, "pause");
    expect(await nextTask(db(), a, { campaignId: draft.campaignId })).toBeNull();
    await changeBatchStatus(db(), system, draft.batchId, "launch");
    expect(await nextTask(db(), a, { campaignId: draft.campaignId })).not.toBeNull();

    const closed = await makeCampaign(db(), { queries: 1, candidates: 1, settings: { allAnnotators: false } });
    expect(await code(nextTask(db(), a, { campaignId: closed.campaignId }))).toBe("404 not_found");
    await db().insert(campaignMembers).values({ campaignId: closed.campaignId, userId: a.id });
    expect(await nextTask(db(), a, { campaignId: closed.campaignId })).not.toBeNull();

    // Through the domain (not a row insert): the pause forgets this process's cached access at once.
    await pauseAnnotator(db(), system, closed.campaignId, a.id);
    expect(await code(nextTask(db(), a, { campaignId: closed.campaignId }))).toBe("403 forbidden");
    expect(await code(nextTask(db(), system, { campaignId: closed.campaignId }))).toBe("401 unauthorized");
  });

  it("stores a judgment once: replays answer the same, another body with the key is a conflict", async () => {
    const c = await makeCampaign(db(), { queries: 1, candidates: 2 });
    const a = await makeAnnotator(db());
    const t = (await nextTask(db(), a, { campaignId: c.campaignId }))!;
    const input = insufficient();
    const first = await submitJudgment(db(), a, t.claim.handle, input);
    const again = await submitJudgment(db(), a, t.claim.handle, input);
    expect(first.replayed).toBe(false);
    expect(again.replayed).toBe(true);
    expect(again.judgment).toEqual(first.judgment);
    expect(await code(submitJudgment(db(), a, t.claim.handle, { ...input, durationMs: 9 }))).toBe("409 conflict");
    expect(await code(submitJudgment(db(), a, t.claim.handle, insufficient()))).toBe("409 conflict");
    const stored = await db()
      .select()
      .from(judgments)
      .where(eq(judgments.passageId, (await idsOfTask(db(), t)).passageId));
    expect(stored).toHaveLength(1);

    const concurrent = (await nextTask(db(), a, { campaignId: c.campaignId }))!;
    const same = insufficient();
    const results = await Promise.all([1, 2, 3].map(() => submitJudgment(db(), a, concurrent.claim.handle, same)));
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    expect(
      await db()
        .select()
        .from(judgments)
        .where(eq(judgments.passageId, (await idsOfTask(db(), concurrent)).passageId)),
    ).toHaveLength(1);

    // Three different bodies at once on one claim: one is stored, the others are conflicts, the counters move once.
    const racing = (await nextTask(db(), a, { campaignId: c.campaignId }))!;
    const settled = await Promise.allSettled([1, 2, 3].map(() => submitJudgment(db(), a, racing.claim.handle, insufficient())));
    expect(settled.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await Promise.all(settled.filter((r) => r.status === "rejected").map((r) => code(Promise.reject(r.reason))))).toEqual([
      "409 conflict",
      "409 conflict",
    ]);
    const racedPassage = (await idsOfTask(db(), racing)).passageId;
    expect(await db().select().from(judgments).where(eq(judgments.passageId, racedPassage))).toHaveLength(1);
    const [counters] = await db().select().from(passages).where(eq(passages.id, racedPassage));
    expect(counters).toMatchObject({ judgmentCount: 1, claimCount: 0 });
  });

  it("refuses another annotator's claim (403) and spans that do not match the page (422)", async () => {
    const c = await makeCampaign(db(), { queries: 1, candidates: 2 });
    const [a, b] = [await makeAnnotator(db()), await makeAnnotator(db())];
    let t = (await nextTask(db(), a, { campaignId: c.campaignId }))!;
    while (t.passage.paragraphs[0]!.id !== 2) {
      await submitJudgment(db(), a, t.claim.handle, insufficient());
      t = (await nextTask(db(), a, { campaignId: c.campaignId }))!;
    }
    expect(await code(submitJudgment(db(), b, t.claim.handle, insufficient()))).toBe("403 forbidden");

    const good = sufficient(t, "1871");
    const span = good.span!;
    // Paragraph 2 holds 𐌅𐌄𐌋 before 1871: UTF-16 offsets read something else.
    const utf16Start = t.passage.paragraphs[0]!.text.indexOf("1871");
    expect(utf16Start).toBe(span.startCharacter + 3);
    expect(
      await code(
        submitJudgment(db(), a, t.claim.handle, { ...good, span: { ...span, startCharacter: utf16Start, endCharacter: utf16Start + 4 } }),
      ),
    ).toBe("422 invalid");
    expect(await code(submitJudgment(db(), a, t.claim.handle, { ...good, span: { ...span, text: "1872" } }))).toBe("422 invalid");
    expect(
      await code(submitJudgment(db(), a, t.claim.handle, { ...good, span: { ...span, startParagraphId: 1, endParagraphId: 1 } })),
    ).toBe("422 invalid");
    expect(await code(submitJudgment(db(), a, t.claim.handle, { ...good, span: { ...span, endCharacter: 9999 } }))).toBe("422 invalid");

    const ok = await submitJudgment(db(), a, t.claim.handle, good);
    expect(ok.judgment.span).toMatchObject({ startCharacter: span.startCharacter, text: "1871" });
    expect(sliceCodePoints(t.passage.paragraphs[0]!.text, span.startCharacter, span.endCharacter)).toBe("1871");
  });

  it("sends annotators no gold flag, no counts and nobody else's work", async () => {
    const c = await makeCampaign(db(), { queries: 2, candidates: 2, settings: { showAnswers: false } });
    const [a, b] = [await makeAnnotator(db()), await makeAnnotator(db())];
    const payloads: string[] = [];
    for (const who of [a, b]) {
      for (
        let t = await nextTask(db(), who, { campaignId: c.campaignId });
        t;
        t = await nextTask(db(), who, { campaignId: c.campaignId })
      ) {
        payloads.push(JSON.stringify(t));
        const r = await submitJudgment(db(), who, t.claim.handle, sufficient(t, t.passage.paragraphs[0]!.text.split(" ")[0]!));
        payloads.push(JSON.stringify(r));
      }
    }
    expect(payloads.length).toBe(24);
    for (const p of payloads) {
      expect(p).not.toMatch(/gold|isGold|expected|origin|judgmentCount|sufficientCount|claimCount|openSlots|retriever|"answers"/i);
      expect(p).not.toContain(b.username);
      expect(p).not.toContain(a.username);
    }
    await updateCampaign(db(), system, c.campaignId, { showAnswers: true });
    const c2 = await makeCampaign(db(), { queries: 1, candidates: 0, settings: { showAnswers: true } });
    expect((await nextTask(db(), a, { campaignId: c2.campaignId }))!.query.answers).toEqual(["1871"]);
  });

  it("stops early once two agree (R 3, T 2) when the campaign asks", async () => {
    const c = await makeCampaign(db(), { queries: 1, candidates: 0, settings: { earlyStop: true } });
    const [a, b, d] = [await makeAnnotator(db()), await makeAnnotator(db()), await makeAnnotator(db())];
    const ta = (await nextTask(db(), a, { campaignId: c.campaignId }))!;
    const tb = (await nextTask(db(), b, { campaignId: c.campaignId }))!;
    await submitJudgment(db(), a, ta.claim.handle, insufficient());
    await submitJudgment(db(), b, tb.claim.handle, insufficient());
    expect(await nextTask(db(), d, { campaignId: c.campaignId })).toBeNull();
    const [p] = await db()
      .select()
      .from(passages)
      .where(eq(passages.id, (await idsOfTask(db(), ta)).passageId));
    expect(p).toMatchObject({ isDecided: true, openSlots: 0, judgmentCount: 2 });
    const [q] = await db().select().from(queries).where(eq(queries.batchId, c.batchId));
    expect(q).toBeDefined();
  });
});

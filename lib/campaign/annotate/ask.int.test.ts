import { and, eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { rowsOf, type Db } from "@/db/client";
import { claims, explanations, passages, proposals, users } from "@/db/schema";
import { system, type UserActor } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import { judgmentOf, makeAnnotator, makeCampaign } from "@/test/campaign-factory";
import { createUser } from "@/lib/auth/users";
import { failure, judgeAll, proposalOf } from "@/test/ask";
import { makeCrowdEntry, makeCrowdWorker, startCrowdSession } from "@/test/crowd";
import { describeEachDatabase, unique } from "@/test/databases";
import { changeBatchStatus } from "../batches";
import { updateCampaign } from "../campaigns";
import { pauseAnnotator, resumeAnnotator } from "../quality/standings";
import { nextTask } from "./assignment";
import { getAsk } from "./ask";
import { explainQuestion } from "./explanations";
import { proposalInputSchema, proposePassage } from "./proposals";
import { submitJudgment } from "./judgments";

/** One question, a gold passage (paragraph 1) and one candidate (paragraph 2); paragraph 3 is free to propose. The gold rule out of reach. */
const oneQuestion = (db: Db, settings: Record<string, unknown> = {}) =>
  makeCampaign(db, { queries: 1, candidates: 1, settings: { goldMinJudgments: 10_000, ...settings } });

describeEachDatabase("propose or explain: the ask", ({ db }) => {
  it("asks once every passage of a question was judged not sufficient, most recent question first", async () => {
    const c = await makeCampaign(db(), { queries: 2, candidates: 1, settings: { goldMinJudgments: 10_000 } });
    const a = await makeAnnotator(db());
    const first = (await nextTask(db(), a, { campaignId: c.campaignId }))!;
    await submitJudgment(db(), a, first.claim.handle, judgmentOf(first, "insufficient"));
    // One passage of the question left for them: nothing asked yet.
    expect(await getAsk(db(), a, c.campaignId)).toBeNull();
    await judgeAll(db(), a, c.campaignId);
    const ask = await getAsk(db(), a, c.campaignId);
    const last = c.queryIds.find((q) => q !== first.query.id)!;
    // Where its passages lie (gold at paragraph 1, the candidate at 2): the Ask screen marks them as not to propose.
    const page = c.pageIds[c.queryIds.indexOf(last)]!;
    expect(ask).toEqual({
      queryId: last,
      input: expect.any(String),
      kind: "qa",
      judged: 2,
      given: [1, 2].map((n) => ({ wikipediaId: page, startParagraphId: n, endParagraphId: n })),
    });
    expect(ask).not.toHaveProperty("answers");
  });

  it("asks nothing when one passage was sufficient, when the setting is off, and never a crowd worker or a coordinator", async () => {
    const c = await oneQuestion(db());
    const [a, b] = [await makeAnnotator(db()), await makeAnnotator(db())];
    let first = true;
    for (
      let t = await nextTask(db(), a, { campaignId: c.campaignId });
      t;
      t = await nextTask(db(), a, { campaignId: c.campaignId }), first = false
    ) {
      await submitJudgment(db(), a, t.claim.handle, judgmentOf(t, first ? "sufficient" : "insufficient"));
    }
    expect(await getAsk(db(), a, c.campaignId)).toBeNull();
    await judgeAll(db(), b, c.campaignId);
    expect(await getAsk(db(), b, c.campaignId)).toMatchObject({ queryId: c.queryIds[0] });
    await updateCampaign(db(), system, c.campaignId, { askWhenNoneSufficient: false, showAnswers: true });
    expect(await getAsk(db(), b, c.campaignId)).toBeNull();
    expect(await failure(explainQuestion(db(), b, c.campaignId, { queryId: c.queryIds[0]!, reason: "ambiguous", text: "" }))).toBe("409");
    await updateCampaign(db(), system, c.campaignId, { askWhenNoneSufficient: true });
    expect(await getAsk(db(), b, c.campaignId)).toMatchObject({ answers: ["1871"] });
    const { user } = await createUser(db(), system, {
      username: `coord-${c.campaignId}-${b.id}`,
      role: "coordinator",
      password: "password-123",
    });
    const coordinator: UserActor = { kind: "user", id: user.id, username: user.username, role: "coordinator", via: "session" };
    expect(await failure(getAsk(db(), coordinator, c.campaignId))).toBe("403");
  });

  it("asks nothing while a passage of the question is claimed by another and not finished; once it finishes without them, asks", async () => {
    const c = await oneQuestion(db(), { judgmentsPerPassage: 1, endorsementThreshold: 1 });
    const [a, b] = [await makeAnnotator(db()), await makeAnnotator(db())];
    const mine = (await nextTask(db(), a, { campaignId: c.campaignId }))!;
    const theirs = (await nextTask(db(), b, { campaignId: c.campaignId }))!;
    expect(theirs.query.id).toBe(mine.query.id);
    await submitJudgment(db(), a, mine.claim.handle, judgmentOf(mine, "insufficient"));
    // The other passage has no open slot (b holds it), but it was never given to a and is not
    // finished: it may yet be sufficient, so a is not asked for another passage.
    expect(await nextTask(db(), a, { campaignId: c.campaignId })).toBeNull();
    expect(await getAsk(db(), a, c.campaignId)).toBeNull();
    await submitJudgment(db(), b, theirs.claim.handle, judgmentOf(theirs, "sufficient"));
    // Finished without a, and none sufficient in a's judgments: now a is asked.
    expect(await getAsk(db(), a, c.campaignId)).toMatchObject({ queryId: mine.query.id, judged: 1 });
  });

  it("asks nothing while the batch is paused", async () => {
    const c = await oneQuestion(db());
    const a = await makeAnnotator(db());
    await judgeAll(db(), a, c.campaignId);
    await changeBatchStatus(db(), system, c.batchId, "pause");
    expect(await getAsk(db(), a, c.campaignId)).toBeNull();
    await changeBatchStatus(db(), system, c.batchId, "launch");
    expect(await getAsk(db(), a, c.campaignId)).not.toBeNull();
  });

  it("a proposal makes a new passage of the question, judged sufficient by its proposer and by R − 1 others, never by its proposer again; then nothing is asked", async () => {
    const c = await oneQuestion(db(), { judgmentsPerPassage: 2, endorsementThreshold: 2 });
    const a = await makeAnnotator(db());
    await judgeAll(db(), a, c.campaignId);
    expect(await proposePassage(db(), a, c.campaignId, proposalOf(c, 0))).toEqual({ merged: false });
    expect(await getAsk(db(), a, c.campaignId)).toBeNull();
    expect(await failure(proposePassage(db(), a, c.campaignId, { ...proposalOf(c, 0), startParagraphId: 1 }))).toBe("409");
    expect(await failure(explainQuestion(db(), a, c.campaignId, { queryId: c.queryIds[0]!, reason: "ambiguous", text: "" }))).toBe("409");
    expect(await nextTask(db(), a, { campaignId: c.campaignId })).toBeNull();

    const [p] = await db()
      .select()
      .from(passages)
      .where(and(eq(passages.queryId, sql`(select query_id from proposals where user_id = ${a.id})`), eq(passages.startParagraphId, 3)));
    const [me] = await db().select({ pseudonym: users.pseudonym }).from(users).where(eq(users.id, a.id));
    expect(p).toMatchObject({
      origins: [{ kind: "annotator", annotator: me!.pseudonym }],
      openSlots: 1,
      isGold: false,
      judgmentCount: 1,
      sufficientCount: 1,
    });
    const [proposal] = await db().select().from(proposals).where(eq(proposals.passageId, p!.id));
    expect(proposal).toMatchObject({ userId: a.id, startCharacter: 0, endCharacter: 9, spanText: "Paragraph" });
    const batch = rowsOf<{ n: number }>(await db().execute(sql`select passage_count as n from batches where id = ${c.batchId}`));
    expect(batch[0]!.n).toBe(3);

    const others = [await makeAnnotator(db()), await makeAnnotator(db()), await makeAnnotator(db())];
    for (const o of others) await judgeAll(db(), o, c.campaignId, () => "sufficient");
    const judged = rowsOf<{ user_id: number }>(
      await db().execute(sql`select user_id::float8 as user_id from judgments where passage_id = ${p!.id} order by id`),
    );
    expect(judged.map((j) => j.user_id)).toEqual([a.id, others[0]!.id]);
    const [after] = await db().select().from(passages).where(eq(passages.id, p!.id));
    expect(after).toMatchObject({ judgmentCount: 2, sufficientCount: 2, openSlots: 0, claimCount: 0 });
  });

  it("a proposal of passages from two pages is one evidence set: members in page order, a highlight in each, judged together by others", async () => {
    const c = await makeCampaign(db(), {
      queries: 2,
      candidates: 1,
      settings: { judgmentsPerPassage: 2, endorsementThreshold: 2, goldMinJudgments: 10_000 },
    });
    const a = await makeAnnotator(db());
    await judgeAll(db(), a, c.campaignId);
    const [ask] = [await getAsk(db(), a, c.campaignId)];
    const asked = c.queryIds.indexOf(ask!.queryId);
    const other = 1 - asked;
    // Paragraph 3 of the asked question's page, and paragraph 3 of the other question's page.
    const mine = proposalOf(c, asked);
    const { queryId: _otherQuestion, ...also } = proposalOf(c, other);
    const body = proposalInputSchema.parse({ ...mine, also });

    // Hostile or careless seconds: each refused naming its field, nothing stored.
    const { queryId: _sameQuestion, ...same } = mine;
    expect(() => proposalInputSchema.parse({ ...mine, also: same })).toThrow(/must not overlap/);
    expect(() => proposalInputSchema.parse({ ...body, also: { ...body.also, extra: 1 } })).toThrow();
    const wrongText = { ...body, also: { ...body.also!, span: { ...body.also!.span, text: "Not there" } } };
    expect(await failure(proposePassage(db(), a, c.campaignId, wrongText))).toBe("422 also.span.text");
    const noPage = { ...body, also: { ...body.also!, wikipediaId: unique("nowhere") } };
    expect(await failure(proposePassage(db(), a, c.campaignId, noPage))).toBe("422 also.wikipediaId");
    const past = {
      ...body,
      also: {
        ...body.also!,
        startParagraphId: 40,
        endParagraphId: 40,
        span: { ...body.also!.span, startParagraphId: 40, endParagraphId: 40 },
      },
    };
    expect(await failure(proposePassage(db(), a, c.campaignId, past))).toBe("422 also.endParagraphId");

    expect(await proposePassage(db(), a, c.campaignId, body)).toEqual({ merged: false });
    const inOrder = [c.pageIds[asked]!, c.pageIds[other]!].sort();
    const [set] = rowsOf<{ id: number; set_members: unknown; set_key: string; wikipedia_id: string; judgment_count: number }>(
      await db().execute(sql`select id::float8 as id, set_members, set_key, wikipedia_id, judgment_count from passages
        where batch_id = ${c.batchId} and set_members is not null`),
    );
    expect(set).toMatchObject({
      set_members: inOrder.map((w) => ({ wikipediaId: w, startParagraphId: 3, endParagraphId: 3 })),
      set_key: `${inOrder[1]}:3-3`,
      wikipedia_id: inOrder[0],
      judgment_count: 1,
    });
    const span = mine.span;
    const [judgment] = rowsOf<{ verdict: string; member_spans: unknown; span_text: string }>(
      await db().execute(sql`select verdict::text as verdict, member_spans, span_text from judgments where passage_id = ${set!.id}`),
    );
    expect(judgment).toEqual({ verdict: "sufficient", member_spans: [span, span], span_text: span.text });
    const [proposal] = await db().select().from(proposals).where(eq(proposals.passageId, set!.id));
    expect(proposal!.memberSpans).toEqual([span, span]);

    // Another annotator gets the set as one task with both members, and endorses it with a highlight in each.
    const b = await makeAnnotator(db());
    let members: string[] = [];
    for (let t = await nextTask(db(), b, { campaignId: c.campaignId }); t; t = await nextTask(db(), b, { campaignId: c.campaignId })) {
      if (t.members) members = t.members.map((m) => m.wikipediaId);
      await submitJudgment(db(), b, t.claim.handle, judgmentOf(t, t.members ? "sufficient" : "insufficient"));
    }
    expect(members).toEqual(inOrder);
    const [after] = await db().select().from(passages).where(eq(passages.id, set!.id));
    expect(after).toMatchObject({ judgmentCount: 2, sufficientCount: 2, openSlots: 0 });
  });

  it("merges a proposal of a location the question already has, and refuses one the proposer judged", async () => {
    const c = await oneQuestion(db(), { judgmentsPerPassage: 1, endorsementThreshold: 1 });
    const [a, b] = [await makeAnnotator(db()), await makeAnnotator(db())];
    await judgeAll(db(), a, c.campaignId);
    // The candidate (paragraph 2) is the one a judged: proposing it again is refused.
    const candidate = proposalInputSchema.parse({
      ...proposalOf(c, 0, 2),
      span: { startParagraphId: 2, startCharacter: 0, endParagraphId: 2, endCharacter: 3, text: "The" },
    });
    expect(await failure(proposePassage(db(), a, c.campaignId, candidate))).toBe("409");
    expect(await proposePassage(db(), a, c.campaignId, proposalOf(c, 0))).toEqual({ merged: false });
    // b is given only the proposed passage (R = 1: the others are full) and judges it insufficient.
    await judgeAll(db(), b, c.campaignId);
    expect(await getAsk(db(), b, c.campaignId)).toMatchObject({ judged: 1 });
    expect(await failure(proposePassage(db(), b, c.campaignId, proposalOf(c, 0)))).toBe("409");
    expect(await proposePassage(db(), b, c.campaignId, candidate)).toEqual({ merged: true });
    const [p] = await db()
      .select()
      .from(passages)
      .where(and(eq(passages.campaignId, c.campaignId), eq(passages.startParagraphId, 2)));
    expect(p!.origins.map((o) => o.kind)).toEqual(["retriever", "annotator"]);
    const batch = rowsOf<{ n: number }>(await db().execute(sql`select passage_count as n from batches where id = ${c.batchId}`));
    expect(batch[0]!.n).toBe(3);
    const mine = await db()
      .select()
      .from(claims)
      .where(and(eq(claims.passageId, p!.id), eq(claims.userId, b.id)));
    expect(mine).toHaveLength(1);
  });

  it("an explanation is stored with the question; then nothing is asked", async () => {
    const c = await oneQuestion(db());
    const a = await makeAnnotator(db());
    await judgeAll(db(), a, c.campaignId);
    expect(
      await explainQuestion(db(), a, c.campaignId, {
        queryId: c.queryIds[0]!,
        reason: "not_in_wikipedia",
        text: "  The snapshot predates it. ",
      }),
    ).toEqual({
      reason: "not_in_wikipedia",
    });
    expect(await getAsk(db(), a, c.campaignId)).toBeNull();
    const rows = await db().select().from(explanations).where(eq(explanations.userId, a.id));
    expect(rows).toMatchObject([{ reason: "not_in_wikipedia", text: "The snapshot predates it.", campaignId: c.campaignId }]);
    expect(await failure(explainQuestion(db(), a, c.campaignId, { queryId: c.queryIds[0]!, reason: "ambiguous", text: "" }))).toBe("409");
    expect(await failure(proposePassage(db(), a, c.campaignId, proposalOf(c, 0)))).toBe("409");
  });

  it("refuses a paused annotator (403, as for judging) until resumed", async () => {
    const c = await oneQuestion(db());
    const a = await makeAnnotator(db());
    await judgeAll(db(), a, c.campaignId);
    await pauseAnnotator(db(), system, c.campaignId, a.id);
    expect(await failure(getAsk(db(), a, c.campaignId))).toBe("403");
    expect(await failure(proposePassage(db(), a, c.campaignId, proposalOf(c, 0)))).toBe("403");
    expect(await failure(explainQuestion(db(), a, c.campaignId, { queryId: c.queryIds[0]!, reason: "ambiguous", text: "" }))).toBe("403");
    await resumeAnnotator(db(), system, c.campaignId, a.id);
    expect(await getAsk(db(), a, c.campaignId)).toMatchObject({ queryId: c.queryIds[0] });
  });

  it("never asks a crowd worker, and refuses their proposals and explanations", async () => {
    const c = await oneQuestion(db());
    await makeCrowdEntry(db(), c.campaignId, "generic");
    const worker = await makeCrowdWorker(db(), c.campaignId, "generic", unique("w"));
    await startCrowdSession(db(), worker, c.campaignId);
    // A crowd session ends (409) once nothing is left for the worker.
    await judgeAll(db(), worker.actor, c.campaignId).catch((error: unknown) => {
      if (!(error instanceof AppError && error.code === "conflict")) throw error;
    });
    const judged = rowsOf<{ n: number }>(
      await db().execute(sql`select count(*)::int as n from judgments where user_id = ${worker.actor.id}`),
    );
    expect(judged[0]!.n).toBe(2);
    expect(await getAsk(db(), worker.actor, c.campaignId)).toBeNull();
    expect(await failure(proposePassage(db(), worker.actor, c.campaignId, proposalOf(c, 0)))).toBe("403");
    expect(
      await failure(explainQuestion(db(), worker.actor, c.campaignId, { queryId: c.queryIds[0]!, reason: "ambiguous", text: "" })),
    ).toBe("403");
  });
});

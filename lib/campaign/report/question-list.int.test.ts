import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { passages, queries } from "@/db/schema";
import { system, type UserActor } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import { judgmentOf, makeAnnotator, makeCampaign } from "@/test/campaign-factory";
import { idsOfTask } from "@/test/claims";
import { describeEachDatabase } from "@/test/databases";
import { makeKindBatch } from "@/test/kind-views-factory";
import { nextTask } from "../annotate/assignment";
import { submitJudgment } from "../annotate/judgments";
import { listQuestions } from "./question-list";
import { questionListQuerySchema, type QuestionListQuery } from "./question-list-options";

const noneWaiting = { waiting: 0, "waiting-split": 0, "waiting-explained": 0, "waiting-decoy": 0, "waiting-gold": 0 };

describeEachDatabase("question list", ({ db }) => {
  it("filters questions by outcome, searches them, pages through them and counts each filter", async () => {
    // 3 questions × (gold + 1 candidate), R = 3, T = 2.
    const c = await makeCampaign(db(), { queries: 3, candidates: 1, settings: { goldMinJudgments: 10_000 } });
    const qs = await db().select().from(queries).where(eq(queries.campaignId, c.campaignId)).orderBy(queries.id);
    const ps = await db().select().from(passages).where(eq(passages.campaignId, c.campaignId));
    const list = (options: Partial<QuestionListQuery> = {}) =>
      listQuestions(db(), system, c.campaignId, questionListQuerySchema.parse(options));
    const ids = (l: Awaited<ReturnType<typeof list>>) => l.questions.map((q) => q.kiltId);

    const before = await list();
    expect(before.counts).toEqual({ all: 3, disputed: 0, unanswerable: 0, answered: 0, open: 3, ...noneWaiting });
    expect(ids(await list({ show: "open" }))).toEqual(qs.map((q) => q.kiltId));

    // q0: all sufficient. q1: gold all insufficient (missed), candidate 2 of 3 sufficient (endorsed, split).
    // q2: gold 1 of 3 sufficient (missed, split), candidate all insufficient.
    const [a, b, d] = [await makeAnnotator(db()), await makeAnnotator(db()), await makeAnnotator(db())];
    const verdict = (who: UserActor, passageId: number): "sufficient" | "insufficient" => {
      const p = ps.find((x) => x.id === passageId)!;
      const q = qs.findIndex((x) => x.id === p.queryId);
      if (q === 0) return "sufficient";
      if (q === 1) return p.isGold || who === d ? "insufficient" : "sufficient";
      return p.isGold && who === a ? "sufficient" : "insufficient";
    };
    for (const who of [a, b, d]) {
      for (
        let t = await nextTask(db(), who, { campaignId: c.campaignId });
        t;
        t = await nextTask(db(), who, { campaignId: c.campaignId })
      ) {
        await submitJudgment(db(), who, t.claim.handle, judgmentOf(t, verdict(who, (await idsOfTask(db(), t)).passageId)));
      }
    }

    const after = await list();
    // q1 and q2 wait for the coordinator: each has a finished split passage and gold the vote missed.
    expect(after.counts).toEqual({
      all: 3,
      disputed: 2,
      unanswerable: 2,
      answered: 2,
      open: 0,
      ...noneWaiting,
      waiting: 2,
      "waiting-split": 2,
      "waiting-gold": 2,
    });
    expect(ids(await list({ show: "waiting" }))).toEqual([qs[1]!.kiltId, qs[2]!.kiltId]);
    expect(ids(await list({ show: "answered" }))).toEqual([qs[0]!.kiltId, qs[1]!.kiltId]);
    expect(ids(await list({ show: "unanswerable" }))).toEqual([qs[1]!.kiltId, qs[2]!.kiltId]);
    expect(ids(await list({ show: "disputed" }))).toEqual([qs[1]!.kiltId, qs[2]!.kiltId]);
    expect(await list({ show: "open" })).toMatchObject({ questions: [], next: null });
    expect(after.questions[1]).toMatchObject({
      input: "question 1",
      passages: 2,
      finished: 2,
      endorsed: 1,
      disputed: 1,
      unanswerable: true,
      lineNumber: 2,
    });

    // Search: words (any case), an exact KILT id, and LIKE's wildcards taken literally.
    expect(ids(await list({ q: "QUESTION 1" }))).toEqual([qs[1]!.kiltId]);
    expect(ids(await list({ q: qs[2]!.kiltId }))).toEqual([qs[2]!.kiltId]);
    expect(ids(await list({ q: "question %" }))).toEqual([]);
    expect(ids(await list({ q: "question _" }))).toEqual([]);

    // Pages of one: three pages, then none.
    const seen: string[] = [];
    let after_: number | undefined;
    for (let page = 0; page < 5; page++) {
      const l = await list({ limit: 1, after: after_ });
      seen.push(...ids(l));
      if (l.next === null) break;
      after_ = l.next;
    }
    expect(seen).toEqual(qs.map((q) => q.kiltId));

    await expect(listQuestions(db(), a, c.campaignId, questionListQuerySchema.parse({}))).rejects.toBeInstanceOf(AppError);
  });

  it("refuses bad options with the parameter named", () => {
    const r = questionListQuerySchema.safeParse({ show: "everything", limit: "500", after: "x" });
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => i.path.join(".")).sort()).toEqual(["after", "limit", "show"]);
  });

  it("says each question's task kind: a campaign of claims and slots lists both kinds, each row with its batch's", async () => {
    const claims = await makeKindBatch(db(), {
      fileName: "fever-dev-kilt.jsonl",
      lines: [{ input: "Velmora lighthouse was first lit in 1871.", answers: ["SUPPORTS"] }],
    });
    await makeKindBatch(db(), {
      fileName: "trex-dev-kilt.jsonl",
      campaignId: claims.campaignId,
      lines: [{ input: "Bastiaan Koster [SEP] country of citizenship", answers: ["Netherlands"] }],
    });
    const list = await listQuestions(db(), system, claims.campaignId, questionListQuerySchema.parse({}));
    expect(list.questions.map((q) => [q.taskKind, q.input])).toEqual([
      ["fact-checking", "Velmora lighthouse was first lit in 1871."],
      ["slot-filling", "Bastiaan Koster [SEP] country of citizenship"],
    ]);
  });
});

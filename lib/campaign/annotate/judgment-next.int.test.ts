import { and, eq, isNull } from "drizzle-orm";
import { expect, it } from "vitest";
import { claims } from "@/db/schema";
import { AppError, parseInput } from "@/lib/errors";
import { judgmentOf, makeAnnotator, makeCampaign } from "@/test/campaign-factory";
import { describeEachDatabase } from "@/test/databases";
import { nextTask } from "./assignment";
import { judgmentQuerySchema, submitJudgmentAndNext } from "./judgments";

describeEachDatabase("a judgment that answers with the next task (?next=1)", ({ db }) => {
  it("claims the task after the prefetched one, once: a replay answers the same task", async () => {
    const c = await makeCampaign(db(), { queries: 2, candidates: 1 });
    const a = await makeAnnotator(db());
    const shown = (await nextTask(db(), a, { campaignId: c.campaignId }))!;
    const prefetched = (await nextTask(db(), a, { campaignId: c.campaignId, after: shown.claim.handle }))!;
    const input = judgmentOf(shown, "insufficient");
    const first = await submitJudgmentAndNext(db(), a, shown.claim.handle, input, { next: "1", after: prefetched.claim.handle });
    expect(first.replayed).toBe(false);
    const next = first.next!;
    expect(next).not.toBeNull();
    expect(new Set([shown.claim.handle, prefetched.claim.handle, next.claim.handle]).size).toBe(3);

    const again = await submitJudgmentAndNext(db(), a, shown.claim.handle, input, { next: "1", after: prefetched.claim.handle });
    expect(again.replayed).toBe(true);
    expect(again.next?.claim.handle).toBe(next.claim.handle);
    const live = await db()
      .select({ handle: claims.handle })
      .from(claims)
      .where(and(eq(claims.userId, a.id), isNull(claims.endedAt)));
    expect(live.map((l) => l.handle).sort()).toEqual([prefetched.claim.handle, next.claim.handle].sort());

    // Without next=1 the answer has no `next`; with it and nothing left, `next` is null.
    const plain = await submitJudgmentAndNext(db(), a, prefetched.claim.handle, judgmentOf(prefetched, "insufficient"), {});
    expect("next" in plain).toBe(false);
    const last = await submitJudgmentAndNext(db(), a, next.claim.handle, judgmentOf(next, "insufficient"), { next: "1" });
    expect(last.next).not.toBeUndefined();
    let t = last.next ?? null;
    while (t) t = (await submitJudgmentAndNext(db(), a, t.claim.handle, judgmentOf(t, "insufficient"), { next: "1" })).next ?? null;
    expect(await nextTask(db(), a, { campaignId: c.campaignId })).toBeNull();
  });

  it("leaves `next` out when no task can be given (the gold rule paused the annotator with this judgment)", async () => {
    const c = await makeCampaign(db(), { queries: 3, candidates: 0, settings: { goldMinJudgments: 1, goldAccuracyThreshold: 0.5 } });
    const a = await makeAnnotator(db());
    const t = (await nextTask(db(), a, { campaignId: c.campaignId }))!;
    const answer = await submitJudgmentAndNext(db(), a, t.claim.handle, judgmentOf(t, "insufficient"), { next: "1" });
    expect(answer.replayed).toBe(false);
    expect("next" in answer).toBe(false);
    await expect(nextTask(db(), a, { campaignId: c.campaignId })).rejects.toMatchObject({ status: 403 });
  });
});

it("refuses hostile query parameters with 422 naming the parameter", () => {
  const problem = (query: Record<string, string>) => {
    try {
      parseInput(judgmentQuerySchema, query, "query string");
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).status).toBe(422);
      return ((error as AppError).details as { problems: { field: string }[] }).problems.map((p) => p.field);
    }
    return [];
  };
  expect(problem({ next: "yes" })).toEqual(["next"]);
  expect(problem({ next: "1'; DROP TABLE judgments; --" })).toEqual(["next"]);
  expect(problem({ next: "1", after: "<script>" })).toEqual(["after"]);
  expect(problem({ after: "a".repeat(22) })).toEqual(["after"]);
  expect(problem({ next: "1", after: "a".repeat(22) })).toEqual([]);
  expect(problem({})).toEqual([]);
});

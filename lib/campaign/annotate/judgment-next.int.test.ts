import { and, eq, isNull } from "drizzle-orm";
import { afterEach, expect, it } from "vitest";
import { cacheNow, CACHE_TTL_MS, setCacheClock } from "@/db/cache/hot-cache";
import { rawClientOf } from "@/db/client";
import { claims } from "@/db/schema";
import { AppError, parseInput } from "@/lib/errors";
import { judgmentOf, makeAnnotator, makeCampaign } from "@/test/campaign-factory";
import { describeEachDatabase } from "@/test/databases";
import { countPgliteStatements } from "@/test/pglite-statements";
import { nextTask } from "./assignment";
import { judgmentQuerySchema, submitJudgmentAndNext } from "./judgments";

describeEachDatabase("a judgment that answers with the next task (?next=1)", ({ db }) => {
  afterEach(() => setCacheClock(null));

  it("reads the annotator's access once: the claim read's, not again for the next task (three statements)", async () => {
    const c = await makeCampaign(db(), { queries: 4, candidates: 2 });
    const [a, b] = [await makeAnnotator(db()), await makeAnnotator(db())];
    const [ta, tb] = [(await nextTask(db(), a, { campaignId: c.campaignId }))!, (await nextTask(db(), b, { campaignId: c.campaignId }))!];
    // Over a second later, as an annotator judges: every access entry cached per annotator is gone.
    const later = cacheNow() + CACHE_TTL_MS + 1;
    setCacheClock(() => later);
    await submitJudgmentAndNext(db(), a, ta.claim.handle, judgmentOf(ta, "insufficient"), { next: "1" }); // the campaign's row, once
    const sent: string[] = [];
    const raw = rawClientOf(db());
    let restore: () => void;
    if (raw.kind === "postgres") {
      raw.client.options.debug = (_connection: number, query: string) => void sent.push(query);
      restore = () => void (raw.client.options.debug = false);
    } else {
      restore = countPgliteStatements(raw.client, (statement) => void sent.push(statement));
    }
    let answer;
    try {
      answer = await submitJudgmentAndNext(db(), b, tb.claim.handle, judgmentOf(tb, "sufficient"), { next: "1" });
    } finally {
      restore();
    }
    expect(answer.next).toBeTruthy();
    // The claim read, the write, the claim of the next task: no look-up of b's membership and standing.
    expect(sent, sent.map((q) => q.replace(/\s+/g, " ").slice(0, 80)).join("\n")).toHaveLength(3);
  });

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

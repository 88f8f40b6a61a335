import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { system } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import { judgmentOf, makeAnnotator, makeCampaign } from "@/test/campaign-factory";
import { describeEachDatabase } from "@/test/databases";
import { changeBatchStatus } from "../batches";
import { updateCampaign } from "../campaigns";
import { pauseAnnotator } from "../quality/standings";
import { nextTask } from "./assignment";
import { submitJudgment } from "./judgments";
import { getMyProgress, LEFT_CAP, listMyQueueFigures } from "./my-progress";

describeEachDatabase("an annotator's own progress", ({ db }) => {
  it("counts what is left for them, what they did and the campaign's filled share, never others' work", async () => {
    // 2 questions × (1 gold + 2 candidates) = 6 passages, R = 3: 18 slots.
    const c = await makeCampaign(db(), { queries: 2, candidates: 2 });
    await updateCampaign(db(), system, c.campaignId, { sessionGoal: 4 });
    const [me, other] = [await makeAnnotator(db()), await makeAnnotator(db())];
    const start = await getMyProgress(db(), me, c.campaignId);
    expect(start).toEqual({
      percentFilled: 0,
      judgedToday: 0,
      judgedTotal: 0,
      left: { count: 6, capped: false },
      session: { judged: 0, goal: 4 },
    });

    for (let i = 0; i < 2; i++) {
      const t = (await nextTask(db(), me, { campaignId: c.campaignId }))!;
      await submitJudgment(db(), me, t.claim.handle, judgmentOf(t, "insufficient"));
    }
    // The other annotator's three judgments fill slots but are not "mine".
    for (let i = 0; i < 3; i++) {
      const t = (await nextTask(db(), other, { campaignId: c.campaignId }))!;
      await submitJudgment(db(), other, t.claim.handle, judgmentOf(t, "sufficient"));
    }
    await nextTask(db(), me, { campaignId: c.campaignId }); // a live claim is still work left for me
    const now = await getMyProgress(db(), me, c.campaignId);
    expect(now.judgedToday).toBe(2);
    expect(now.judgedTotal).toBe(2);
    expect(now.left).toEqual({ count: 4, capped: false });
    expect(now.session).toEqual({ judged: 2, goal: 4 });
    // 5 judged of 18 slots (a claim is not filled yet): floor(100 × 5 / 18).
    expect(now.percentFilled).toBe(27);
    expect(JSON.stringify(now)).not.toMatch(/gold/i);

    const queue = await listMyQueueFigures(db(), me, [c.campaignId]);
    expect(queue.get(c.campaignId)).toEqual({ paused: false, judgedToday: 2, judgedTotal: 2, left: { count: 4, capped: false } });
  });

  it("starts a new session after 30 minutes without a judgment", async () => {
    const c = await makeCampaign(db(), { queries: 1, candidates: 2 });
    const me = await makeAnnotator(db());
    for (let i = 0; i < 3; i++) {
      const t = (await nextTask(db(), me, { campaignId: c.campaignId }))!;
      await submitJudgment(db(), me, t.claim.handle, judgmentOf(t, "insufficient"));
    }
    // The first judgment was made 40 minutes before the others.
    await db().execute(sql`update judgments set created_at = created_at - interval '40 minutes'
      where id = (select min(id) from judgments where user_id = ${me.id} and campaign_id = ${c.campaignId})`);
    expect((await getMyProgress(db(), me, c.campaignId)).session.judged).toBe(2);
    // An hour later, the session is over: the next judgment starts a new one.
    expect((await getMyProgress(db(), me, c.campaignId, new Date(Date.now() + 3_600_000))).session.judged).toBe(0);
  });

  it("says paused in the queue and refuses the header's figures; leaves out campaigns not theirs", async () => {
    const c = await makeCampaign(db(), { queries: 1, candidates: 1 });
    const closed = await makeCampaign(db(), { queries: 1, candidates: 1, settings: { allAnnotators: false } });
    const me = await makeAnnotator(db());
    await pauseAnnotator(db(), system, c.campaignId, me.id);
    const queue = await listMyQueueFigures(db(), me, [c.campaignId, closed.campaignId]);
    expect(queue.get(c.campaignId)).toEqual({ paused: true, judgedToday: 0, judgedTotal: 0, left: null });
    expect(queue.has(closed.campaignId)).toBe(false);
    await expect(getMyProgress(db(), me, c.campaignId)).rejects.toMatchObject({ code: "forbidden" } satisfies Partial<AppError>);
    await expect(getMyProgress(db(), me, closed.campaignId)).rejects.toMatchObject({ code: "not_found" });
  });

  it(`caps "left for you" at ${LEFT_CAP}, and counts only launched batches`, async () => {
    const c = await makeCampaign(db(), { queries: 501, candidates: 1 });
    const me = await makeAnnotator(db());
    expect((await getMyProgress(db(), me, c.campaignId)).left).toEqual({ count: LEFT_CAP, capped: true });
    // Paused: its 1,002 open passages are walked but none is left for anyone.
    await changeBatchStatus(db(), system, c.batchId, "pause");
    expect((await listMyQueueFigures(db(), me, [c.campaignId])).get(c.campaignId)!.left).toEqual({ count: 0, capped: false });
  });
});

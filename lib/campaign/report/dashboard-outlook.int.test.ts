import { expect, it } from "vitest";
import { system } from "@/lib/auth/actor";
import { campaignListQuerySchema } from "@/lib/list-options.contract";
import { judgmentOf, makeAnnotator, makeCampaign } from "@/test/campaign-factory";
import { describeEachDatabase } from "@/test/databases";
import { nextTask } from "../annotate/assignment";
import { submitJudgment } from "../annotate/judgments";
import { createCampaign, listCampaigns } from "../campaigns";
import { createCampaignSchema } from "../settings.contract";
import { getDashboard } from "./dashboard";

describeEachDatabase("the dashboard's finish and the campaign list's status", ({ db }) => {
  const listed = async (name: string) => (await listCampaigns(db(), system, campaignListQuerySchema.parse({ q: name }))).rows[0]!;

  it("an empty campaign is never done; a few recent judgments project nothing; every slot filled is done and complete", async () => {
    const empty = await createCampaign(db(), system, createCampaignSchema.parse({ name: `empty ${Date.now()}-${Math.random()}` }));
    expect((await getDashboard(db(), system, empty.id)).projection.outlook).toEqual({ kind: "empty" });
    expect((await listed(empty.name)).status).toBe("empty");

    // R = 1: 2 questions × (gold + 1 candidate) = 4 slots.
    const c = await makeCampaign(db(), { queries: 2, candidates: 1, settings: { judgmentsPerPassage: 1, endorsementThreshold: 1 } });
    const me = await makeAnnotator(db());
    const t = (await nextTask(db(), me, { campaignId: c.campaignId }))!;
    await submitJudgment(db(), me, t.claim.handle, judgmentOf(t, "insufficient"));
    const name = (await getDashboard(db(), system, c.campaignId)).campaign.name;
    expect((await getDashboard(db(), system, c.campaignId)).projection.outlook).toEqual({
      kind: "too_few",
      judgmentsInWindow: 1,
      needed: 20,
    });
    expect((await listed(name)).status).toBe("running");

    for (
      let task = await nextTask(db(), me, { campaignId: c.campaignId });
      task;
      task = await nextTask(db(), me, { campaignId: c.campaignId })
    ) {
      await submitJudgment(db(), me, task.claim.handle, judgmentOf(task, "insufficient"));
    }
    expect((await getDashboard(db(), system, c.campaignId)).projection.outlook).toEqual({ kind: "done" });
    expect(await listed(name)).toMatchObject({ status: "complete", filled: 4, slots: 4 });
  });
});

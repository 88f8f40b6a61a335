import { expect, it } from "vitest";
import type { UserActor } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import { judgmentOf, makeAnnotator, makeCampaign } from "@/test/campaign-factory";
import { describeEachDatabase } from "@/test/databases";
import { nextTask } from "./assignment";
import { submitJudgment } from "./judgments";
import { getPassageContext } from "./passage-context";

describeEachDatabase("the paragraphs around a passage", ({ db }) => {
  it("gives two paragraphs a side, cut at the page's edges and never the title, to the claim's annotator and coordinators only", async () => {
    // One question on a page of 10 content paragraphs: gold at 1, candidates at 2…9.
    const c = await makeCampaign(db(), { queries: 1, candidates: 8 });
    const [me, other] = [await makeAnnotator(db()), await makeAnnotator(db())];
    const coordinator: UserActor = { kind: "user", id: -1, username: "coordinator", role: "coordinator", via: "token" };
    const ids = (list: { id: number }[]) => list.map((p) => p.id);
    const seen: number[] = [];
    for (let t = await nextTask(db(), me, { campaignId: c.campaignId }); t; t = await nextTask(db(), me, { campaignId: c.campaignId })) {
      const first = t.passage.paragraphs[0]!.id;
      seen.push(first);
      const context = await getPassageContext(db(), me, t.claim.handle);
      expect(ids(context.before), `before ${first}`).toEqual([first - 2, first - 1].filter((id) => id >= 1));
      expect(ids(context.after), `after ${first}`).toEqual([first + 1, first + 2].filter((id) => id <= 10));
      expect(context.before.every((p) => p.text.includes(`Paragraph ${p.id} of`) || p.id === 2)).toBe(true);
      // Judged, still theirs; a coordinator reads it as well; another annotator is told there is none.
      await submitJudgment(db(), me, t.claim.handle, judgmentOf(t, "insufficient"));
      expect(await getPassageContext(db(), me, t.claim.handle)).toEqual(context);
      expect(await getPassageContext(db(), coordinator, t.claim.handle)).toEqual(context);
      await expect(getPassageContext(db(), other, t.claim.handle)).rejects.toMatchObject({ code: "not_found" });
    }
    expect(seen.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    await expect(getPassageContext(db(), other, "A".repeat(22))).rejects.toBeInstanceOf(AppError);
  });
});

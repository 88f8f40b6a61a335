import { expect, it } from "vitest";
import { system, type UserActor } from "@/lib/auth/actor";
import { judgmentOf, makeAnnotators, makeCampaign } from "@/test/campaign-factory";
import { describeEachDatabase } from "@/test/databases";
import { letTimePass } from "@/test/elapse";
import { nextTask } from "../annotate/assignment";
import { submitJudgment } from "../annotate/judgments";
import { updateCampaign } from "../campaigns";
import { getAnnotatorDetail, listAnnotatorJudgments, listAnnotatorWarnings } from "./annotator-detail";

describeEachDatabase("a coordinator's view of one annotator", ({ db }) => {
  /** Judges every passage open to `who` with one verdict, taking `durationMs` on each by the server's clock (the client always claims 5 s: a hint no figure reads). */
  async function judgeAll(campaignId: number, who: UserActor, verdict: "sufficient" | "insufficient", durationMs: number) {
    for (let t = await nextTask(db(), who, { campaignId }); t; t = await nextTask(db(), who, { campaignId })) {
      await letTimePass(db(), who.id, durationMs);
      await submitJudgment(db(), who, t.claim.handle, judgmentOf(t, verdict, 5_000));
    }
  }

  it("shows the fast, disagreeing annotator's figures, warnings, judgments and gold results", async () => {
    // 4 questions × (1 gold expected sufficient + 2 candidates) = 12 passages.
    const c = await makeCampaign(db(), { queries: 4, candidates: 2 });
    // The gold rule off (the hasty annotator fails 4 gold, which pauses at the defaults): this is about the view.
    await updateCampaign(db(), system, c.campaignId, {
      warnMinJudgments: 5,
      warnFastShare: 0.5,
      warnMinAgreement: 0.6,
      goldMinJudgments: 1000,
    });
    const [hasty, careful, other] = await makeAnnotators(db(), 3);
    await judgeAll(c.campaignId, hasty!, "insufficient", 100);
    await judgeAll(c.campaignId, careful!, "sufficient", 6_000);
    await judgeAll(c.campaignId, other!, "sufficient", 12_500);

    const warnings = await listAnnotatorWarnings(db(), system, c.campaignId);
    expect(warnings.total).toBe(1);
    expect(warnings.flagged).toEqual([
      {
        userId: hasty!.id,
        username: hasty!.username,
        judgments: 12,
        warnings: [
          { kind: "fast", shareUnder2s: 1 },
          { kind: "agreement", agreement: 0 },
        ],
      },
    ]);

    const detail = await getAnnotatorDetail(db(), system, c.campaignId, hasty!.id);
    expect(detail.annotator).toMatchObject({ judgments: 12, compared: 12, agreement: 0, goldJudged: 4, goldCorrect: 0 });
    expect(detail.warnings.map((w) => w.kind)).toEqual(["fast", "agreement"]);
    expect(detail.speed[0]).toEqual({ fromSeconds: 0, toSeconds: 1, judgments: 12 });
    expect(detail.speed.reduce((s, b) => s + b.judgments, 0)).toBe(12);
    expect(detail.agreementByDay).toEqual([{ day: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), judgments: 12, compared: 12, agreed: 0 }]);
    const careDetail = await getAnnotatorDetail(db(), system, c.campaignId, other!.id);
    expect(careDetail.warnings).toEqual([]);
    expect(careDetail.speed.find((b) => b.fromSeconds === 10)!.judgments).toBe(12);

    // Paged newest first; every judgment with its passage text.
    const first = await listAnnotatorJudgments(db(), system, c.campaignId, hasty!.id, { limit: 5 });
    expect(first.rows).toHaveLength(5);
    expect(first.next).toBe(first.rows[4]!.id);
    const ids = first.rows.map((r) => r.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    const rest = await listAnnotatorJudgments(db(), system, c.campaignId, hasty!.id, { limit: 20, after: first.next! });
    expect(rest.rows).toHaveLength(7);
    expect(rest.next).toBeNull();
    expect(first.rows[0]!.passage.paragraphs[0]!.text).toMatch(/Page|𐌅/);

    // Gold only: the expected verdict and span beside theirs.
    const gold = await listAnnotatorJudgments(db(), system, c.campaignId, hasty!.id, { gold: "1", limit: 20 });
    expect(gold.rows).toHaveLength(4);
    expect(gold.rows.every((r) => r.gold?.expectedVerdict === "sufficient" && !r.gold.correct && r.verdict === "insufficient")).toBe(true);
    const goldOk = await listAnnotatorJudgments(db(), system, c.campaignId, careful!.id, { gold: "1", limit: 20 });
    expect(goldOk.rows.every((r) => r.gold?.correct && r.span !== null)).toBe(true);
  });

  it("is for coordinators only, and only for annotators", async () => {
    const c = await makeCampaign(db(), { queries: 1, candidates: 1 });
    const [a] = await makeAnnotators(db(), 1);
    await expect(getAnnotatorDetail(db(), a!, c.campaignId, a!.id)).rejects.toMatchObject({ code: "forbidden" });
    await expect(listAnnotatorJudgments(db(), a!, c.campaignId, a!.id, { limit: 20 })).rejects.toMatchObject({ code: "forbidden" });
    await expect(listAnnotatorWarnings(db(), a!, c.campaignId)).rejects.toMatchObject({ code: "forbidden" });
    await expect(getAnnotatorDetail(db(), system, c.campaignId, 9_000_000_000)).rejects.toMatchObject({ code: "not_found" });
    await expect(getAnnotatorDetail(db(), system, 9_000_000_000, a!.id)).rejects.toMatchObject({ code: "not_found" });
    // Nothing judged yet: empty figures, no warning.
    const empty = await getAnnotatorDetail(db(), system, c.campaignId, a!.id);
    expect(empty).toMatchObject({ warnings: [], agreementByDay: [] });
    expect(empty.annotator.judgments).toBe(0);
  });
});

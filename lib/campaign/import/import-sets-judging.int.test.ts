// Imported evidence sets on the judging path: a gold set from a two-page gold output is given as one
// task with both members, and the gold check reads each member's expected span from the import; a
// pair made by `sets: "pairs"` is a set task too, while single passages of the HotpotQA-like batch
// ask for partial evidence.
import { and, eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { annotatorStandings } from "@/db/schema";
import type { UserActor } from "@/lib/auth/actor";
import { makeAnnotators } from "@/test/campaign-factory";
import { describeEachDatabase, unique } from "@/test/databases";
import { HOTPOT_Q7, hotpotPassages, makeHotpotCampaign } from "@/test/hotpot-fixture";
import { nextTask } from "../annotate/assignment";
import type { Task, TaskPassage } from "../annotate/judging.contract";
import { judgmentInputSchema, submitJudgment } from "../annotate/judgments";

/** A highlight of code points start..end of a member's first paragraph. */
function span(p: TaskPassage, start: number, end: number) {
  const para = p.paragraphs[0]!;
  const text = Array.from(para.text).slice(start, end).join("");
  return { startParagraphId: para.id, startCharacter: start, endParagraphId: para.id, endCharacter: end, text };
}

const sufficient = (spans: ReturnType<typeof span>[]) =>
  judgmentInputSchema.parse({ verdict: "sufficient", span: null, spans, unreadable: false, durationMs: 900, idempotencyKey: unique("k") });

describeEachDatabase("imported evidence sets on the judging path", ({ db }) => {
  /** Judges every task the annotator gets with `judge`; returns the tasks seen. */
  async function judgeAll(campaignId: number, who: UserActor, judge: (t: Task) => ReturnType<typeof sufficient>): Promise<Task[]> {
    const seen: Task[] = [];
    for (let t = await nextTask(db(), who, { campaignId }); t; t = await nextTask(db(), who, { campaignId })) {
      seen.push(t);
      await submitJudgment(db(), who, t.claim.handle, judge(t));
    }
    return seen;
  }

  const goldOf = async (campaignId: number, who: UserActor) =>
    (
      await db()
        .select({ judged: annotatorStandings.goldJudged, correct: annotatorStandings.goldCorrect })
        .from(annotatorStandings)
        .where(and(eq(annotatorStandings.campaignId, campaignId), eq(annotatorStandings.userId, who.id)))
    )[0];

  it("gives each gold set as one task, and checks each member's imported expected span", async () => {
    const settings = { judgmentsPerPassage: 2, endorsementThreshold: 1, goldMinJudgments: 10_000 };
    const { campaignId } = await makeHotpotCampaign(db(), { withoutCandidates: true, settings });
    const [right, loose] = await makeAnnotators(db(), 2);
    // hotpot-q1's gold items give offsets: 77–116 in 9300002 and 49–94 in 9300003; the others give none.
    const seen = await judgeAll(campaignId, right!, (t) =>
      sufficient(
        t.query.id === "hotpot-q1" ? [span(t.members![0]!, 77, 116), span(t.members![1]!, 49, 94)] : t.members!.map((m) => span(m, 0, 4)),
      ),
    );
    expect(seen).toHaveLength(7);
    expect(seen.every((t) => t.members?.length === 2 && t.partialEvidence === undefined)).toBe(true);
    const q7 = seen.find((t) => t.query.id === HOTPOT_Q7.kiltId)!;
    expect(q7.members!.map((m) => [m.wikipediaId, m.title, m.paragraphs.map((p) => p.id)])).toEqual([
      ["9300001", "Aldric Venn", [1]],
      ["9300005", "Marlowe Ferry", [1]],
    ]);
    expect(await goldOf(campaignId, right!)).toEqual({ judged: 7, correct: 7 });
    // The first four code points of each member miss hotpot-q1's expected spans: that gold answer is wrong.
    await judgeAll(campaignId, loose!, (t) => sufficient(t.members!.map((m) => span(m, 0, 4))));
    expect(await goldOf(campaignId, loose!)).toEqual({ judged: 7, correct: 6 });
  });

  it("gives hotpot-q7's pair as a set task, and its single candidates with partial evidence", async () => {
    const { campaignId, batchId } = await makeHotpotCampaign(db(), {
      sets: "pairs",
      withoutGold: [HOTPOT_Q7.kiltId],
      settings: { goldMinJudgments: 10_000 }, // every gold set is judged insufficient here: no gold rule
    });
    const [a] = await makeAnnotators(db(), 1);
    const q7: Task[] = [];
    for (let t = await nextTask(db(), a!, { campaignId }); t; t = await nextTask(db(), a!, { campaignId })) {
      if (t.query.id === HOTPOT_Q7.kiltId) q7.push(t);
      const body = { verdict: "insufficient", span: null, unreadable: false, durationMs: 900, idempotencyKey: unique("k") };
      await submitJudgment(db(), a!, t.claim.handle, judgmentInputSchema.parse(body));
    }
    // Four single candidates and three pairs of its top three pages.
    expect(q7).toHaveLength(7);
    const singles = q7.filter((t) => !t.members);
    expect(singles.map((t) => t.partialEvidence)).toEqual([true, true, true, true]);
    const pairs = q7.filter((t) => t.members).map((t) => t.members!.map((m) => m.wikipediaId).join("+"));
    expect(pairs.sort()).toEqual(["9300001+9300005", "9300001+9300011", "9300005+9300011"]);
    const stored = (await hotpotPassages(db(), batchId)).filter((p) => p.kiltId === HOTPOT_Q7.kiltId);
    expect(stored.map((p) => [p.wikipediaId, p.startParagraphId, p.setKey, p.isGold])).toEqual([
      ["9300001", 1, "", false],
      ["9300001", 1, HOTPOT_Q7.setKey, false],
      ["9300001", 1, "9300011:1-1", false],
      ["9300005", 1, "", false],
      ["9300005", 1, "9300011:1-1", false],
      ["9300011", 1, "", false],
      ["9300012", 1, "", false],
    ]);
  });
});

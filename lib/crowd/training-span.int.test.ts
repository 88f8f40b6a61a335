import { expect, it } from "vitest";
import { trainingWorker } from "@/test/crowd-entry";
import { describeEachDatabase } from "@/test/databases";
import { expectedSpan, makeGoldCampaign } from "@/test/quality-gold";
import { answerTraining, getTrainingItem } from "./training";
import type { TrainingItemView } from "./session.contract";

/** A sufficient answer to a training item: `span` in code points of its first paragraph, or the whole of it. */
function answer(item: TrainingItemView, span?: { start: number; end: number }) {
  const p = item.passage.paragraphs[0]!;
  const cps = Array.from(p.text);
  const s = span ?? { start: 0, end: cps.length - 1 };
  return {
    position: item.position,
    verdict: "sufficient" as const,
    unreadable: false,
    span: {
      startParagraphId: p.id,
      startCharacter: s.start,
      endParagraphId: p.id,
      endCharacter: s.end,
      text: cps.slice(s.start, s.end).join(""),
    },
    durationMs: 3000,
  };
}

describeEachDatabase("crowd training answers and the span check (issue 26)", ({ db }) => {
  it("scores a training answer as gold is: the whole passage highlighted is wrong, the evidence sentence right", async () => {
    // Sufficient gold with the answer "1871" as expected span; two of them are training items.
    const c = await makeGoldCampaign(db(), { questions: 3, span: "answer", settings: { goldMinJudgments: 100 } });
    const worker = await trainingWorker(db(), c.campaignId);

    const first = (await getTrainingItem(db(), worker)).item!;
    expect(first.passage.paragraphs[0]!.id).toBe(1);
    const whole = await answerTraining(db(), worker, answer(first));
    expect(whole.correct).toBe(false);
    expect(whole.expected.span?.text).toBe("1871");

    const second = (await getTrainingItem(db(), worker)).item!;
    const careful = await answerTraining(db(), worker, answer(second, expectedSpan("sentence")));
    expect(careful.correct).toBe(true);
    expect(careful.session).toMatchObject({ stage: "working" });
  });
});

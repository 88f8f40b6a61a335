import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { rowsOf } from "@/db/client";
import { trainingWorker } from "@/test/crowd-entry";
import { describeEachDatabase } from "@/test/databases";
import { expectedSpan, makeGoldCampaign } from "@/test/quality-gold";
import { answerTraining, getTrainingItem } from "./training";
import type { TrainingItemView } from "./session.contract";

/** A sufficient answer to a training item with the expected span (the evidence sentence) and `label`. */
function answer(item: TrainingItemView, label: "SUPPORTS" | "REFUTES") {
  const p = item.passage.paragraphs[0]!;
  const s = expectedSpan("sentence");
  const text = Array.from(p.text).slice(s.start, s.end).join("");
  return {
    position: item.position,
    verdict: "sufficient" as const,
    unreadable: false,
    span: { startParagraphId: p.id, startCharacter: s.start, endParagraphId: p.id, endCharacter: s.end, text },
    label,
    durationMs: 3000,
  };
}

describeEachDatabase("a crowd worker's fact-checking training answer keeps its label", ({ db }) => {
  it("stores SUPPORTS or REFUTES as given, right or wrong, and the database takes no other label", async () => {
    const c = await makeGoldCampaign(db(), { questions: 3, span: "answer", settings: { goldMinJudgments: 100 } });
    // Fact checking: the batch's kind, and each line's dataset label as its first answer.
    await db().execute(sql`update batches set task_kind = 'fact-checking' where campaign_id = ${c.campaignId}`);
    await db().execute(sql`update queries set answers = array['SUPPORTS'] where campaign_id = ${c.campaignId}`);
    const worker = await trainingWorker(db(), c.campaignId);

    const wrong = await answerTraining(db(), worker, answer((await getTrainingItem(db(), worker)).item!, "REFUTES"));
    expect(wrong).toMatchObject({ correct: false, given: { label: "REFUTES" }, expected: { label: "SUPPORTS" } });
    const right = await answerTraining(db(), worker, answer((await getTrainingItem(db(), worker)).item!, "SUPPORTS"));
    expect(right.correct).toBe(true);

    const stored = rowsOf<{ position: number; label: string | null; correct: boolean }>(
      await db().execute(sql`select position::int as position, label, correct from training_answers
        where session_id in (select id from crowd_sessions where campaign_id = ${c.campaignId}) order by position`),
    );
    expect(stored).toEqual([
      { position: 0, label: "REFUTES", correct: false },
      { position: 1, label: "SUPPORTS", correct: true },
    ]);
    await expect(db().execute(sql`update training_answers set label = 'supports' where position = 0`)).rejects.toThrow();
  });
});

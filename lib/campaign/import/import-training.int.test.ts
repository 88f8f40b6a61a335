import { asc, eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { passages, queries } from "@/db/schema";
import { system } from "@/lib/auth/actor";
import { describeEachDatabase, unique } from "@/test/databases";
import { jsonl, provenanceLine, source } from "@/test/kilt-lines";
import { createCampaign } from "../campaigns";
import { createCampaignSchema } from "../settings.contract";
import { importBatch } from "./import-batch";
import { importKnowledge } from "../../knowledge/import-knowledge";

// Training items for crowd workers: a gold provenance item of the task file with "training": true
// and an optional "explanation" lands in passages.is_training / passages.explanation.

describeEachDatabase("import of training items", ({ db }) => {
  it("stores the training flag and explanation of gold items, merged with a candidate at the same place; other passages stay plain", async () => {
    const page = unique("train-page");
    await importKnowledge(db(), system, {
      fileName: "knowledge.jsonl",
      source: source(
        jsonl([
          {
            wikipedia_id: page,
            wikipedia_title: "Training Light",
            text: ["Training Light\n", "It was lit in 1871.\n", "Ana Test designed it.\n", "It closed in 1990.\n"],
          },
        ]),
      ),
    });
    const campaign = await createCampaign(db(), system, createCampaignSchema.parse({ name: unique("training") }));
    // 2,000 code points outside the BMP: 4,000 UTF-16 units, still within the limit (counted in code points).
    const longExplanation = "𐌅".repeat(2000);
    const [q1, q2] = [unique("q"), unique("q")];
    const task = jsonl([
      {
        id: q1,
        input: "when was the training light lit",
        output: [
          {
            answer: "1871",
            provenance: [
              {
                wikipedia_id: page,
                start_paragraph_id: 1,
                start_character: 14,
                end_paragraph_id: 1,
                end_character: 18,
                training: true,
                explanation: "The year is in paragraph 1: <b>1871</b>.",
              },
            ],
          },
          // One item per output: several items of one output would be one evidence set, which takes no training flag.
          {
            provenance: [{ wikipedia_id: page, start_paragraph_id: 2, end_paragraph_id: 2, training: true, explanation: longExplanation }],
          },
          { provenance: [{ wikipedia_id: page, start_paragraph_id: 3, end_paragraph_id: 3, training: false }] },
        ],
      },
      {
        id: q2,
        input: "who designed it",
        output: [{ answer: "Ana Test", provenance: [{ wikipedia_id: page, start_paragraph_id: 2, end_paragraph_id: 2, training: true }] }],
      },
    ]);
    const candidates = jsonl([
      provenanceLine(q1, page, [
        [1, 1],
        [3, 3],
      ]),
    ]);
    const result = await importBatch(db(), system, {
      campaignId: campaign.id,
      topK: 4,
      queries: { fileName: "queries.jsonl", source: source(task) },
      candidates: { fileName: "candidates.jsonl", source: source(candidates) },
    });
    expect(result).toMatchObject({ queries: 2, passages: 4, goldPassages: 4, trainingPassages: 3 });

    const rows = await db()
      .select({
        kiltId: queries.kiltId,
        start: passages.startParagraphId,
        isGold: passages.isGold,
        isTraining: passages.isTraining,
        explanation: passages.explanation,
        origins: passages.origins,
      })
      .from(passages)
      .innerJoin(queries, eq(queries.id, passages.queryId))
      .where(eq(passages.campaignId, campaign.id))
      .orderBy(asc(queries.lineNumber), asc(passages.startParagraphId));
    expect(rows.map(({ origins: _, ...r }) => r)).toEqual([
      { kiltId: q1, start: 1, isGold: true, isTraining: true, explanation: "The year is in paragraph 1: <b>1871</b>." },
      { kiltId: q1, start: 2, isGold: true, isTraining: true, explanation: longExplanation },
      { kiltId: q1, start: 3, isGold: true, isTraining: false, explanation: null },
      { kiltId: q2, start: 2, isGold: true, isTraining: true, explanation: null },
    ]);
    // The candidate at paragraph 1 merged into the training passage: one row, both origins.
    expect(rows[0]!.origins).toEqual([{ kind: "gold" }, { kind: "retriever", retriever: "candidates", rank: 1 }]);
  });
});

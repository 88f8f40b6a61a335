import { describe, expect, it } from "vitest";
import { taskLineSchema } from "@/lib/kilt/schemas";
import { answersOf, candidatePassagesOf, goldPassagesOf, mergePassages } from "./passage-drafts";

const line = taskLineSchema.parse({
  id: "-3290814144789249484",
  input: "when was velmora lighthouse first lit",
  output: [
    {
      answer: "1871",
      provenance: [{ wikipedia_id: "61237001", start_paragraph_id: 1, start_character: 176, end_paragraph_id: 1, end_character: 180 }],
    },
    { answer: "in 1871" },
    { answer: "1871" },
    { provenance: [{ wikipedia_id: "61240518", start_paragraph_id: 6, start_character: -1, end_paragraph_id: 6, end_character: -1 }] },
  ],
});

describe("batch rows", () => {
  it("keeps answers in order without repeats", () => {
    expect(answersOf(line)).toEqual(["1871", "in 1871"]);
  });

  it("turns provenance into gold passages, with a span only when offsets are given", () => {
    const gold = goldPassagesOf(line);
    expect(gold).toHaveLength(2);
    expect(gold[0]!.expectedSpan).toEqual({ startParagraphId: 1, startCharacter: 176, endParagraphId: 1, endCharacter: 180 });
    expect(gold[1]!.expectedSpan).toBeNull();
    expect(gold.every((g) => g.isGold)).toBe(true);
  });

  it("takes top-k candidates; a page-level item gets the first content paragraph", () => {
    const ranking = [
      { wikipedia_id: "1", meta: { retriever: "bm25" } },
      { wikipedia_id: "2", start_paragraph_id: 4, end_paragraph_id: 5 },
      { wikipedia_id: "3", start_paragraph_id: 2, end_paragraph_id: 2 },
    ];
    const c = candidatePassagesOf(ranking, 2, "dpr");
    expect(c.map((p) => [p.wikipediaId, p.startParagraphId, p.endParagraphId])).toEqual([
      ["1", 1, 1],
      ["2", 4, 5],
    ]);
    expect(c[0]!.origins).toEqual([{ kind: "retriever", retriever: "bm25", rank: 1 }]);
    expect(c[1]!.origins).toEqual([{ kind: "retriever", retriever: "dpr", rank: 2 }]);
  });

  it("stores a passage proposed twice once, with all its origins and gold kept", () => {
    const merged = mergePassages([
      ...candidatePassagesOf([{ wikipedia_id: "61237001", start_paragraph_id: 1, end_paragraph_id: 1 }], 4, "dpr"),
      ...goldPassagesOf(line),
    ]);
    expect(merged).toHaveLength(2);
    const first = merged[0]!;
    expect(first.isGold).toBe(true);
    expect(first.origins).toEqual([{ kind: "retriever", retriever: "dpr", rank: 1 }, { kind: "gold" }]);
    expect(first.expectedSpan?.startCharacter).toBe(176);
  });
});

describe("training items", () => {
  const training = taskLineSchema.parse({
    id: "t1",
    input: "q",
    output: [
      {
        provenance: [
          { wikipedia_id: "7", start_paragraph_id: 2, end_paragraph_id: 2, training: true, explanation: "See paragraph 2." },
          { wikipedia_id: "7", start_paragraph_id: 3, end_paragraph_id: 3 },
        ],
      },
    ],
  });

  it("marks the gold items flagged as training, with their explanation; candidates never", () => {
    expect(goldPassagesOf(training).map((g) => [g.isTraining, g.explanation])).toEqual([
      [true, "See paragraph 2."],
      [false, null],
    ]);
    expect(candidatePassagesOf([{ wikipedia_id: "7" }], 1).map((c) => [c.isTraining, c.explanation])).toEqual([[false, null]]);
  });

  it("keeps the flag when a candidate at the same place comes first", () => {
    const [merged] = mergePassages([
      ...candidatePassagesOf([{ wikipedia_id: "7", start_paragraph_id: 2, end_paragraph_id: 2 }], 1),
      ...goldPassagesOf(training),
    ]);
    expect(merged).toMatchObject({ isGold: true, isTraining: true, explanation: "See paragraph 2." });
  });

  it("refuses an explanation without the flag, a flag that is not a boolean, and a long explanation", () => {
    const issues = (item: Record<string, unknown>) =>
      taskLineSchema
        .safeParse({ id: "t", input: "q", output: [{ provenance: [{ wikipedia_id: "7", ...item }] }] })
        .error?.issues.map((i) => [i.path.join("."), i.message]);
    expect(issues({ explanation: "why" })).toEqual([
      ["output.0.provenance.0.explanation", 'is allowed only on a training item: add "training": true'],
    ]);
    expect(issues({ training: 1 })).toEqual([["output.0.provenance.0.training", "must be true or false"]]);
    expect(issues({ training: true, explanation: "é".repeat(2001) })?.[0]?.[1]).toBe("must be at most 2,000 characters");
    expect(issues({ training: true, explanation: "𐌅".repeat(2000) })).toBeUndefined();
  });
});

describe("KILT ids", () => {
  it("keeps string ids byte for byte and refuses numbers past 2^53", () => {
    expect(taskLineSchema.parse({ id: "-5004457603684974952", input: "q" }).id).toBe("-5004457603684974952");
    expect(taskLineSchema.parse({ id: 4417, input: "q" }).id).toBe("4417");
    // eslint-disable-next-line no-loss-of-precision -- the point: a JSON id past 2^53 arrives rounded
    const result = taskLineSchema.safeParse({ id: 13805127637452916481, input: "q" });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toMatch(/2\^53/);
  });
});

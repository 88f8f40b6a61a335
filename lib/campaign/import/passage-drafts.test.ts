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

describe("KILT ids", () => {
  it("keeps string ids byte for byte and refuses numbers past 2^53", () => {
    expect(taskLineSchema.parse({ id: "-5004457603684974952", input: "q" }).id).toBe("-5004457603684974952");
    expect(taskLineSchema.parse({ id: 4417, input: "q" }).id).toBe("4417");
    const result = taskLineSchema.safeParse({ id: 13805127637452916481, input: "q" });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toMatch(/2\^53/);
  });
});

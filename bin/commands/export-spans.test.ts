import { describe, expect, it } from "vitest";
import { spansWithoutAnswerLines } from "./export";

describe("kps export: the spans that hold no answer", () => {
  it("prints a count, then the question and where its span is, at most 50", () => {
    const span = { queryId: "q1", wikipediaId: "123", startParagraphId: 2, startCharacter: 4, endParagraphId: 2, endCharacter: 17 };
    expect(spansWithoutAnswerLines([])).toEqual([]);
    expect(spansWithoutAnswerLines([span, { ...span, queryId: "q2", startCharacter: -1, endParagraphId: 3, endCharacter: -1 }])).toEqual([
      "Exported spans holding none of their question's answers (2):",
      "  q1: page 123, 2:4–2:17",
      "  q2: page 123, paragraphs 2–3",
    ]);
    const many = spansWithoutAnswerLines(Array.from({ length: 51 }, (_, i) => ({ ...span, queryId: `q${i}` })));
    expect(many[0]).toBe("Exported spans holding none of their question's answers (51):");
    expect(many).toHaveLength(52);
    expect(many.at(-1)).toBe("  …");
  });
});

import { describe, expect, it } from "vitest";
import type { Location } from "@/lib/kilt/codepoints";
import { checkGoldSpan, type SpanCheckPassage } from "./span-check";
import { isGoldCorrect } from "./standings";

// A passage of two paragraphs (ids 4 and 5), four sentences; a character outside the BMP ("𝔙")
// before the answer, so that UTF-16 offsets would be wrong by one.
const P4 = "The 𝔙elmora lighthouse stands on the north cape. It was first lit in 1871 by the harbour board. The tower is 31 metres tall.\n";
const P5 = "A keeper lived there until 1950. Today the light is automated.\n";
const passage: SpanCheckPassage = { startParagraphId: 4, paragraphs: [P4, P5] };

/** Code-point offset of `needle` in paragraph text `text` (its first occurrence). */
function cp(text: string, needle: string): number {
  const at = text.indexOf(needle);
  if (at < 0) throw new Error(`no ${needle}`);
  return Array.from(text.slice(0, at)).length;
}
const len = (s: string) => Array.from(s).length;

/** The location of `from` … `to` (inclusive of `to`), each in its paragraph. */
function span(fromPara: number, from: string, toPara: number, to: string): Location {
  const texts: Record<number, string> = { 4: P4, 5: P5 };
  return {
    startParagraphId: fromPara,
    startCharacter: cp(texts[fromPara]!, from),
    endParagraphId: toPara,
    endCharacter: cp(texts[toPara]!, to) + len(to),
  };
}
const within = (para: number, text: string) => span(para, text, para, text);

const SENTENCE = "It was first lit in 1871 by the harbour board.";
const answerGold = within(4, "1871");
const sentenceGold = within(4, SENTENCE);
const wholePassage: Location = { startParagraphId: 4, startCharacter: 0, endParagraphId: 5, endCharacter: len(P5) - 1 };
const right = (expected: Location, s: Location, slack = 0.2) => checkGoldSpan(passage, expected, s, slack).right;

describe("checkGoldSpan with a short-answer gold span", () => {
  it("counts a careful highlight of the evidence sentence right", () => {
    const c = checkGoldSpan(passage, answerGold, within(4, SENTENCE), 0.2);
    expect(c).toMatchObject({ right: true, covered: 4, expectedLength: 4, length: len(SENTENCE), sentencesLength: len(SENTENCE) });
    expect(c.limit).toBeCloseTo(len(SENTENCE) * 1.2);
  });

  it("counts a highlight of the answer alone (or with a word around it) right", () => {
    expect(right(answerGold, within(4, "1871"))).toBe(true);
    expect(right(answerGold, within(4, "in 1871"))).toBe(true);
    expect(right(answerGold, within(4, "187"))).toBe(true);
  });

  it("counts a whole-passage highlight wrong, and a whole paragraph of three sentences", () => {
    const c = checkGoldSpan(passage, answerGold, wholePassage, 0.2);
    expect(c.covered).toBe(4);
    expect(c.right).toBe(false);
    expect(c.length).toBeGreaterThan(c.limit);
    expect(right(answerGold, { startParagraphId: 4, startCharacter: 0, endParagraphId: 4, endCharacter: len(P4) - 1 })).toBe(false);
    // The evidence sentence and the next one: twice as long as the sentence.
    expect(right(answerGold, span(4, SENTENCE, 4, "31 metres tall."))).toBe(false);
  });

  it("counts a highlight that misses half of the answer wrong", () => {
    expect(right(answerGold, within(4, "1"))).toBe(false);
    expect(right(answerGold, within(4, "first lit in"))).toBe(false);
    expect(right(answerGold, within(4, "18"))).toBe(true); // exactly half
  });

  it("allows the slack past the sentence, and not without it", () => {
    const longer = span(4, SENTENCE, 4, "board. The"); // 4 code points past the sentence: 47 + 4 ≤ 47 × 1.2
    expect(right(answerGold, longer, 0.2)).toBe(true);
    expect(right(answerGold, longer, 0)).toBe(false);
  });

  it("allows 3× the expected span where the sentence is shorter than that", () => {
    const short: SpanCheckPassage = { startParagraphId: 0, paragraphs: ["Lit 1871.\n", "It still stands on the cape today.\n"] };
    const gold = { startParagraphId: 0, startCharacter: 4, endParagraphId: 0, endCharacter: 8 };
    // "Lit 1871." is 9 code points, 1.2 × 9 < 12 = 3 × 4: "Lit 1871." and the newline fit.
    expect(checkGoldSpan(short, gold, { startParagraphId: 0, startCharacter: 0, endParagraphId: 0, endCharacter: 10 }, 0.2).right).toBe(
      true,
    );
    expect(checkGoldSpan(short, gold, { startParagraphId: 0, startCharacter: 0, endParagraphId: 1, endCharacter: 5 }, 0.2).right).toBe(
      false,
    );
  });
});

describe("checkGoldSpan with a whole-sentence gold span", () => {
  it("counts a careful highlight of the sentence right, and of most of it", () => {
    expect(right(sentenceGold, within(4, SENTENCE))).toBe(true);
    expect(right(sentenceGold, within(4, "It was first lit in 1871"))).toBe(true);
  });

  it("counts a highlight of the answer alone wrong: it covers less than half of the expected span", () => {
    const c = checkGoldSpan(passage, sentenceGold, within(4, "1871"), 0.2);
    expect(c).toMatchObject({ right: false, covered: 4, expectedLength: len(SENTENCE) });
  });

  it("counts a whole-passage highlight wrong", () => {
    expect(right(sentenceGold, wholePassage)).toBe(false);
    expect(right(sentenceGold, { startParagraphId: 4, startCharacter: 0, endParagraphId: 4, endCharacter: len(P4) - 1 })).toBe(false);
  });

  it("counts a whole-passage highlight wrong on a passage of just two sentences, where 3× the sentence would fit it", () => {
    const two: SpanCheckPassage = { startParagraphId: 7, paragraphs: ["It was first lit in 1871 by the harbour board. It stands.\n"] };
    const gold = { startParagraphId: 7, startCharacter: 0, endParagraphId: 7, endCharacter: len(SENTENCE) };
    const whole = { startParagraphId: 7, startCharacter: 0, endParagraphId: 7, endCharacter: len(two.paragraphs[0]!) - 1 };
    const c = checkGoldSpan(two, gold, whole, 0.2);
    expect(c.length).toBeLessThanOrEqual(c.limit);
    expect(c.holdsOtherSentence).toBe(true);
    expect(c.right).toBe(false);
    expect(checkGoldSpan(two, gold, gold, 0.2).right).toBe(true);
  });

  it("measures sentences across paragraphs: gold over two sentences in two paragraphs", () => {
    const gold = span(4, "The tower is", 5, "until 1950.");
    const careful = span(4, "The tower is", 5, "until 1950.");
    expect(right(gold, careful)).toBe(true);
    // The two sentences and the one after: too long (one whole sentence more than the expected span's).
    expect(right(gold, span(4, "The tower is", 5, "automated."))).toBe(false);
    expect(right(gold, wholePassage)).toBe(false);
  });
});

describe("isGoldCorrect", () => {
  const gold = {
    startParagraphId: 4,
    paragraphs: [P4, P5],
    expectedVerdict: "sufficient" as const,
    expectedStartParagraphId: answerGold.startParagraphId,
    expectedStartCharacter: answerGold.startCharacter,
    expectedEndParagraphId: answerGold.endParagraphId,
    expectedEndCharacter: answerGold.endCharacter,
  };

  it("wants the verdict, then the span check on sufficient gold with an expected span", () => {
    expect(isGoldCorrect(gold, { verdict: "sufficient", span: within(4, SENTENCE) }, 0.2)).toBe(true);
    expect(isGoldCorrect(gold, { verdict: "sufficient", span: wholePassage }, 0.2)).toBe(false);
    expect(isGoldCorrect(gold, { verdict: "insufficient", span: null }, 0.2)).toBe(false);
  });

  it("judges gold without an expected span, and negative gold, by the verdict alone", () => {
    const noSpan = {
      ...gold,
      expectedStartParagraphId: null,
      expectedStartCharacter: null,
      expectedEndParagraphId: null,
      expectedEndCharacter: null,
      paragraphs: null,
    };
    expect(isGoldCorrect(noSpan, { verdict: "sufficient", span: wholePassage }, 0.2)).toBe(true);
    const negative = { ...noSpan, expectedVerdict: "insufficient" as const };
    expect(isGoldCorrect(negative, { verdict: "insufficient", span: null }, 0.2)).toBe(true);
    expect(isGoldCorrect(negative, { verdict: "sufficient", span: within(4, SENTENCE) }, 0.2)).toBe(false);
  });
});

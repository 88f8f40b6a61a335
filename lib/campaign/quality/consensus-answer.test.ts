import { describe, expect, it } from "vitest";
import { codePointLength, sliceLocation, type Location } from "@/lib/kilt/codepoints";
import { consensusSpan, type PassageShape } from "./consensus";
import { answerKeepingConsensus, consensusKeepingAnswer, locationHoldsAnswer } from "./consensus-answer";

// A page: index 0 is the title; the passage is paragraphs 1–2.
const page = [
  "Velmora Lighthouse\n",
  "Velmora Lighthouse stands on the northern breakwater. The lighthouse was first lit in 1871. It was relit in 2005.\n",
  "Its keeper, the 𐌅𐌄𐌋 scholar Ana Kessler, lit the lamp on 1 May 1871.\n",
];
const passage = page.slice(1);
const shape: PassageShape = { startParagraphId: 1, paragraphLengths: passage.map(codePointLength) };

/** The location of the `nth` occurrence of `text` in a paragraph, in code points. */
function at(paragraphId: number, text: string, nth = 0): Location {
  const p = page[paragraphId]!;
  let i = -1;
  for (let k = 0; k <= nth; k++) i = p.indexOf(text, i + 1);
  if (i < 0) throw new Error(`"${text}" is not in paragraph ${paragraphId}`);
  const start = codePointLength(p.slice(0, i));
  return { startParagraphId: paragraphId, startCharacter: start, endParagraphId: paragraphId, endCharacter: start + codePointLength(text) };
}
const textOf = (l: Location | undefined) => (l ? sliceLocation(page, l) : undefined);
const widen = (highlights: Location[], t: number, answers: string[]) =>
  textOf(answerKeepingConsensus(shape, passage, highlights, t, answers));

describe("a consensus span that keeps the answer", () => {
  const sentence = at(1, "The lighthouse was first lit in 1871.");
  const shrunk = at(1, "was first lit");

  it("the issue's case: one shrunk highlight loses 1871; the span is widened to cover it", () => {
    // One endorser highlights the sentence, two a shrunk "was first lit": T = 2 agree on "was first lit" only.
    expect(textOf(consensusSpan(shape, [sentence, shrunk, shrunk], 2))).toBe("was first lit");
    expect(widen([sentence, shrunk, shrunk], 2, ["1871"])).toBe("was first lit in 1871");
    // The highlights as given (the sentence twice, "was first lit" once), with all three required.
    expect(textOf(consensusSpan(shape, [sentence, sentence, shrunk], 3))).toBe("was first lit");
    expect(widen([sentence, sentence, shrunk], 3, ["1871"])).toBe("was first lit in 1871");
    // With T = 2 those already agree on the sentence, which holds the answer: untouched.
    expect(widen([sentence, sentence, shrunk], 2, ["1871"])).toBe("The lighthouse was first lit in 1871.");
  });

  it("leaves questions without an answer, and consensus spans that hold one, untouched", () => {
    expect(widen([sentence, shrunk, shrunk], 2, [])).toBe("was first lit");
    expect(widen([sentence, shrunk, shrunk], 2, ["The", "  "])).toBe("was first lit"); // no word once normalised
    const withAnswer = at(1, "lit in 1871");
    expect(widen([sentence, withAnswer, withAnswer], 2, ["1871"])).toBe("lit in 1871");
    expect(widen([], 2, ["1871"])).toBeUndefined();
  });

  it("does not widen when no endorser's highlight holds an answer", () => {
    const lead = at(1, "Velmora Lighthouse stands");
    expect(widen([lead, shrunk, shrunk], 2, ["1871"])).toBe("was first lit");
    // An answer beyond every highlight (here in paragraph 2) is not reached for.
    expect(widen([at(1, "The lighthouse was first lit"), shrunk, shrunk], 2, ["1871"])).toBe("was first lit");
  });

  it("chooses the occurrence that gives the smallest span", () => {
    // The union runs from "The lighthouse" to the end of paragraph 2: 1871 occurs three times in it
    // ("lit in 1871", "relit in 2005" has none, "1 May 1871"), the nearest one wins.
    const wide = { ...at(1, "The lighthouse"), endParagraphId: 2, endCharacter: shape.paragraphLengths[1]! };
    expect(widen([wide, shrunk, shrunk], 2, ["1871"])).toBe("was first lit in 1871");
    // Of two answers, the one closer to the consensus: "Ana Kessler" after "scholar" beats 1871 at the end.
    const scholar = at(2, "scholar");
    const keeperLine = at(2, "Its keeper, the 𐌅𐌄𐌋 scholar Ana Kessler, lit the lamp on 1 May 1871.");
    expect(widen([keeperLine, scholar, scholar], 2, ["1871", "ana kessler"])).toBe("scholar Ana Kessler");
    // A span before the answer is widened forwards, one after it backwards.
    const lamp = at(2, "lit the lamp");
    expect(widen([keeperLine, lamp, lamp], 2, ["Ana Kessler"])).toBe("Ana Kessler, lit the lamp");
  });

  it("maps normalised words back through accents, astral characters, punctuation and articles", () => {
    // The consensus "𐌅𐌄𐌋" (astral code points); the answers "the scholar" (an article, normalised
    // away) and "(1871)" (punctuation) occur in the keeper's line.
    const runes = at(2, "𐌅𐌄𐌋");
    const keeperLine = at(2, "Its keeper, the 𐌅𐌄𐌋 scholar Ana Kessler, lit the lamp on 1 May 1871.");
    expect(widen([keeperLine, runes, runes], 2, ["The Scholar"])).toBe("𐌅𐌄𐌋 scholar");
    expect(widen([keeperLine, runes, runes], 2, ["keeper"])).toBe("keeper, the 𐌅𐌄𐌋");
    expect(widen([keeperLine, runes, runes], 2, ["(1871)."])).toBe("𐌅𐌄𐌋 scholar Ana Kessler, lit the lamp on 1 May 1871");
    expect(widen([keeperLine, runes, runes], 2, ["ANA KESSLER"])).toBe("𐌅𐌄𐌋 scholar Ana Kessler");
  });

  it("crosses paragraphs when the answer is in the next one", () => {
    const end = at(1, "It was relit in 2005.");
    const across = { ...end, endParagraphId: 2, endCharacter: at(2, "Its keeper, the 𐌅𐌄𐌋 scholar Ana Kessler").endCharacter };
    const span = answerKeepingConsensus(shape, passage, [across, end, end], 2, ["Ana Kessler"])!;
    expect(span).toMatchObject({ startParagraphId: 1, endParagraphId: 2 });
    expect(textOf(span)).toBe("It was relit in 2005.\nIts keeper, the 𐌅𐌄𐌋 scholar Ana Kessler");
  });

  it("takes whole words: a highlight that holds 1871 only as part of 18711 does not count", () => {
    const p = ["Lit in 18711 and in 1871.\n"];
    const s: PassageShape = { startParagraphId: 1, paragraphLengths: [codePointLength(p[0]!)] };
    const l = (a: number, b: number): Location => ({ startParagraphId: 1, startCharacter: a, endParagraphId: 1, endCharacter: b });
    const lit = l(0, 3);
    // The union "Lit in 18711 and in 1871" holds 1871 once, as a word: the widened span reaches it, past "18711".
    expect(sliceLocation(["", ...p], answerKeepingConsensus(s, p, [l(0, 24), lit, lit], 2, ["1871"])!)).toBe("Lit in 18711 and in 1871");
    // Highlighted only as far as "18711": no endorser holds the answer, nothing to widen to.
    expect(sliceLocation(["", ...p], answerKeepingConsensus(s, p, [l(0, 12), lit, lit], 2, ["1871"])!)).toBe("Lit");
  });
});

describe("whether an exported location holds an answer", () => {
  it("reads spans, and whole paragraphs for -1 characters; null without answers", () => {
    expect(locationHoldsAnswer(shape, passage, at(1, "was first lit"), ["1871"])).toBe(false);
    expect(locationHoldsAnswer(shape, passage, at(1, "lit in 1871"), ["1871"])).toBe(true);
    expect(locationHoldsAnswer(shape, passage, at(2, "Ana Kessler"), ["ana  kessler!"])).toBe(true);
    const whole = { startParagraphId: 1, startCharacter: -1, endParagraphId: 2, endCharacter: -1 };
    expect(locationHoldsAnswer(shape, passage, whole, ["1 May 1871"])).toBe(true);
    expect(locationHoldsAnswer(shape, passage, { ...whole, endParagraphId: 1 }, ["1 May 1871"])).toBe(false);
    expect(locationHoldsAnswer(shape, passage, at(1, "was first lit"), [])).toBeNull();
  });
});

const sentence = () => at(1, "The lighthouse was first lit in 1871.");
const shrunk = () => at(1, "was first lit");

describe("the consensus with whether it holds an answer", () => {
  it("gives the span answerKeepingConsensus gives, and locationHoldsAnswer's verdict on it, with and without astral characters", () => {
    // Paragraph 1 alone has no astral character (the plain slice); with paragraph 2 the text has some.
    const plain = passage.slice(0, 1);
    const plainShape: PassageShape = { startParagraphId: 1, paragraphLengths: plain.map(codePointLength) };
    const lead = at(1, "Velmora Lighthouse stands");
    const cases: [PassageShape, string[], Location[], number, string[]][] = [
      [plainShape, plain, [sentence(), shrunk(), shrunk()], 2, ["1871"]],
      [plainShape, plain, [sentence(), sentence(), shrunk()], 2, ["1871"]],
      [plainShape, plain, [lead, shrunk(), shrunk()], 2, ["1871"]],
      [plainShape, plain, [sentence(), shrunk(), shrunk()], 2, []],
      [plainShape, plain, [], 2, ["1871"]],
      [shape, passage, [sentence(), shrunk(), shrunk()], 2, ["1871"]],
      [shape, passage, [at(2, "the 𐌅𐌄𐌋 scholar Ana"), at(2, "scholar Ana Kessler"), at(2, "scholar Ana Kessler")], 2, ["𐌅𐌄𐌋"]],
      [shape, passage, [at(2, "Ana Kessler"), at(2, "Ana Kessler")], 2, ["the scholar"]],
    ];
    // The plain slice finds what the code points do: the case, widened to the same text.
    expect(textOf(answerKeepingConsensus(plainShape, plain, [sentence(), shrunk(), shrunk()], 2, ["1871"]))).toBe("was first lit in 1871");
    expect(consensusKeepingAnswer(plainShape, plain, [at(1, "lit in 1871"), at(1, "lit in 1871")], 2, ["1871"]).holds).toBe(true);
    expect(consensusKeepingAnswer(plainShape, plain, [at(1, "in 187"), at(1, "in 187")], 2, ["1871"]).holds).toBe(false);
    let held = 0;
    for (const [s, p, highlights, t, answers] of cases) {
      const got = consensusKeepingAnswer(s, p, highlights, t, answers);
      expect(got.location).toEqual(answerKeepingConsensus(s, p, highlights, t, answers));
      if (!got.location) expect(got.holds).toBeNull();
      else expect(got.holds).toBe(locationHoldsAnswer(s, p, got.location, answers));
      if (got.holds) held++;
    }
    expect(held).toBeGreaterThanOrEqual(3);
  });
});

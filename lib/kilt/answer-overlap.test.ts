import { describe, expect, it } from "vitest";
import { answerOverlap, answerTokens, normalizeAnswer, passesAnswerOverlap } from "./answer-overlap";

describe("normalizeAnswer (KILT's normalize_answer)", () => {
  // Each expected value is what Python 3's kilt.eval_downstream.normalize_answer returned for the input.
  it.each([
    ["The Eiffel Tower", "eiffel tower"],
    ["  in   1871. ", "in 1871"],
    ["A, an; THE!", ""],
    ["Theatre and an apple", "theatre and apple"], // articles only as whole words
    ["the-end", "theend"], // punctuation goes first, so "the-end" is one word
    ["U.S.A.", "usa"],
    ["rock'n'roll", "rocknroll"],
    ["a\tb\nthe\u00a0c", "b c"],
    ["éthe thé the", "éthe thé"], // Python's \b is Unicode-aware: "éthe" keeps its "the"
    ["théâtre «the» — a", "théâtre « » —"], // only ASCII punctuation is removed
    ["x\u001fy\u0085z", "x y z"], // Python's split() splits on U+001F and U+0085
    ["x\ufeffy", "x\ufeffy"], // but not on U+FEFF
    ["ΟΔΟΣ", "οδος"],
    ["𐌅𐌄𐌋 a 𐌅", "𐌅𐌄𐌋 𐌅"],
    ["_the_", ""], // "_" is in string.punctuation: "the" is left, a whole word
    ["x\u0301the the\u0301", "x\u0301 \u0301"], // a combining mark is no word character to Python either
    ["İstanbul the", "i\u0307stanbul"],
    ["ǅ a", "ǆ"],
  ])("%j → %j", (input, expected) => {
    expect(normalizeAnswer(input)).toBe(expected);
  });
});

describe("answer overlap", () => {
  it("takes sets of normalised tokens", () => {
    expect([...answerTokens("The tower, the TOWER and a light.")]).toEqual(["tower", "and", "light"]);
    expect(answerTokens("a the an").size).toBe(0);
  });

  it("is the share of the answer's tokens the passage holds", () => {
    const passage = answerTokens("Velmora Lighthouse was first lit in 1871 by Ana Test.");
    expect(answerOverlap(answerTokens("1871"), passage)).toBe(1);
    expect(answerOverlap(answerTokens("in 1871"), passage)).toBe(1);
    expect(answerOverlap(answerTokens("Ana Maria Test Lopez"), passage)).toBe(0.5);
    expect(answerOverlap(answerTokens("1904"), passage)).toBe(0);
    expect(answerOverlap(answerTokens("the"), passage)).toBeNull();
  });

  it("passes a passage when one answer reaches the threshold; no answers keep everything", () => {
    const answers = [answerTokens("Ana Maria Test Lopez"), answerTokens("1904")];
    expect(passesAnswerOverlap(answers, "Ana Test designed it.", 0.5)).toBe(true);
    expect(passesAnswerOverlap(answers, "Ana Test designed it.", 0.51)).toBe(false);
    expect(passesAnswerOverlap(answers, "She died in 1904.", 1)).toBe(true);
    expect(passesAnswerOverlap(answers, "Nothing here.", 0.1)).toBe(false);
    expect(passesAnswerOverlap(answers, "Nothing here.", 0)).toBe(true);
    // A one-word answer in a long paragraph passes: the answer's share, not the paragraph's.
    expect(passesAnswerOverlap([answerTokens("1871")], `${"word ".repeat(200)}1871`, 0.1)).toBe(true);
    expect(passesAnswerOverlap([], "anything", 1)).toBe(true);
    expect(passesAnswerOverlap([answerTokens("The")], "anything", 1)).toBe(true);
  });
});

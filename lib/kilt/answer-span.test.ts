import { describe, expect, it } from "vitest";
import { normalizeAnswer } from "./answer-overlap";
import { answerOccurrences, answerSequences, holdsAnswer, normalizedTokens } from "./answer-span";
import { sliceCodePoints } from "./codepoints";

/** Each token with the original text it was mapped back to. */
const mapped = (text: string) => normalizedTokens(text).map((t) => [t.token, sliceCodePoints(text, t.start, t.end)]);

describe("normalizedTokens: normalize_answer's words, mapped back to code points", () => {
  it("keeps accents, drops punctuation inside and around words, blanks articles", () => {
    expect(mapped("Le Café-Théâtre de l'Opéra, the 1871 building.")).toEqual([
      ["le", "Le"],
      ["caféthéâtre", "Café-Théâtre"],
      ["de", "de"],
      ["lopéra", "l'Opéra"],
      ["1871", "1871"],
      ["building", "building"],
    ]);
    expect(mapped("(1871).")).toEqual([["1871", "1871"]]); // the marks around it are not its text
    expect(mapped("A lighthouse, an island and THE sea")).toEqual([
      ["lighthouse", "lighthouse"],
      ["island", "island"],
      ["and", "and"],
      ["sea", "sea"],
    ]);
    expect(mapped("the-end theatre")).toEqual([
      ["theend", "the-end"], // punctuation goes first: no article left
      ["theatre", "theatre"],
    ]);
  });

  it("counts code points, not UTF-16 units, and maps expanding lower case back to one code point", () => {
    const text = "𐌅𐌄𐌋 İstanbul e\u0301te\u0301 1871";
    const tokens = normalizedTokens(text);
    expect(tokens.map((t) => t.token)).toEqual(["𐌅𐌄𐌋", "i\u0307stanbul", "e\u0301te\u0301", "1871"]);
    expect(tokens.map((t) => [t.start, t.end])).toEqual([
      [0, 3],
      [4, 12],
      [13, 18],
      [19, 23],
    ]);
    expect(mapped(text).map(([, original]) => original)).toEqual(["𐌅𐌄𐌋", "İstanbul", "e\u0301te\u0301", "1871"]);
  });

  it("agrees with normalizeAnswer on every case of its own tests", () => {
    const cases = [
      "The Eiffel Tower",
      "  in   1871. ",
      "A, an; THE!",
      "Theatre and an apple",
      "U.S.A.",
      "rock'n'roll",
      "a\tb\nthe\u00a0c",
      "éthe thé the",
      "théâtre «the» — a",
      "x\u001fy\u0085z",
      "x\ufeffy",
      "ΟΔΟΣ ΟΔΟΣ.Α",
      "𐌅𐌄𐌋 a 𐌅",
      "_the_",
      "x\u0301the the\u0301",
      "İstanbul the",
      "ǅ a",
    ];
    for (const text of cases)
      expect(
        normalizedTokens(text)
          .map((t) => t.token)
          .join(" "),
        JSON.stringify(text),
      ).toBe(normalizeAnswer(text));
  });

  it("agrees with normalizeAnswer on random texts, and each token's original text normalises to the token", () => {
    const pieces = [
      "the",
      "The",
      "a",
      "an",
      " ",
      "  ",
      "\n",
      "\u00a0",
      ".",
      ",",
      "-",
      "'",
      "_",
      "«",
      "é",
      "e\u0301",
      "İ",
      "Σ",
      "ΟΔΟΣ",
      "𐌅",
      "1871",
      "x",
      "lit",
      "\ufeff",
      "\u0085",
    ];
    let seed = 26;
    const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed / 2 ** 31);
    for (let n = 0; n < 2000; n++) {
      const text = Array.from({ length: 1 + Math.floor(next() * 12) }, () => pieces[Math.floor(next() * pieces.length)]).join("");
      const tokens = normalizedTokens(text);
      expect(tokens.map((t) => t.token).join(" "), JSON.stringify(text)).toBe(normalizeAnswer(text));
      for (const t of tokens) {
        expect(t.start).toBeLessThan(t.end);
        expect(normalizeAnswer(sliceCodePoints(text, t.start, t.end)), JSON.stringify([text, t])).toBe(t.token);
      }
    }
  });
});

describe("answers in a text", () => {
  const answers = answerSequences(["1871", "Ana Kessler", "The"]);

  it("leaves out answers with no word once normalised", () => {
    expect(answers).toEqual([["1871"], ["ana", "kessler"]]);
  });

  it("holds an answer as whole normalised words in a row", () => {
    expect(holdsAnswer("first lit in 1871.", answers)).toBe(true);
    expect(holdsAnswer("by the engineer ANA Kessler,", answers)).toBe(true);
    expect(holdsAnswer("first lit in 18711", answers)).toBe(false);
    expect(holdsAnswer("Ana, and Kessler", answers)).toBe(false);
    expect(holdsAnswer("was first lit", answers)).toBe(false);
  });

  it("agrees with its definition on random texts: an answer's normalised words in a row in the text's", () => {
    const pieces = ["the", "A", " ", "\u00a0", ".", "'", "-", "o", "neil", "O'Neil", "ana", "Kessler", "1871", "18", "71", "é", "İ"];
    const sequences = answerSequences(["O'Neil", "Ana Kessler", "1871", "a 18"]);
    let seed = 33;
    const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed / 2 ** 31);
    let held = 0;
    for (let n = 0; n < 3000; n++) {
      const text = Array.from({ length: 1 + Math.floor(next() * 10) }, () => pieces[Math.floor(next() * pieces.length)]).join("");
      const normalized = ` ${normalizeAnswer(text)} `;
      const expected = sequences.some((words) => normalized.includes(` ${words.join(" ")} `));
      expect(holdsAnswer(text, sequences), JSON.stringify(text)).toBe(expected);
      if (expected) held++;
    }
    expect(held).toBeGreaterThan(100); // the texts hold answers often enough for the check to bite both ways
    // A sequence without words (answerSequences leaves them out) as the definition reads it: held by a text with no word.
    for (const text of ["", "The.", "x"]) expect(holdsAnswer(text, [[]])).toBe(` ${normalizeAnswer(text)} `.includes("  "));
  });

  it("finds every occurrence, in code points of the text", () => {
    const text = "𐌅𐌄𐌋: Ana Kessler lit it in 1871; (1871) again, not 18711.";
    const found = answerOccurrences(text, answers).map((o) => sliceCodePoints(text, o.start, o.end));
    expect(found).toEqual(["Ana Kessler", "1871", "1871"]);
    expect(answerOccurrences(text, answers)[0]).toEqual({ start: 5, end: 16 });
  });
});

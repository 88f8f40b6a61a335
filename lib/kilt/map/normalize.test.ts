import { describe, expect, it } from "vitest";
import { answerTokensOf, dropWideCharacters, normalizeAnswer, paragraphTokenOf, splitTokens } from "./normalize";

describe("KILT's normalisation (normalize_answer, str.split, the 3-byte character filter)", () => {
  it("lower-cases and removes ASCII punctuation only (no article removal, spaces kept)", () => {
    expect(normalizeAnswer("The Moon-Bridge, (1871)!")).toBe("the moonbridge 1871");
    expect(normalizeAnswer("  A  b ")).toBe("  a  b ");
    expect(normalizeAnswer("“Quoted” – ÉTÉ")).toBe("“quoted” – été");
  });
  it("drops characters of 3 or more UTF-8 bytes: curly quotes, dashes, CJK, emoji; keeps 2-byte ones", () => {
    expect(dropWideCharacters("“é—中😀ß”")).toBe("éß");
    expect(dropWideCharacters("\u07ff\u0800")).toBe("\u07ff");
  });
  it("splits like Python's str.split(): Unicode whitespace, not U+200B or U+FEFF; code-point offsets", () => {
    expect(splitTokens(" a\u00a0b\u3000c\u200bd\ufeffe\u001cf ").map((t) => t.text)).toEqual(["a", "b", "c\u200bd\ufeffe", "f"]);
    expect(splitTokens("𐌅𐌄 ab  c")).toEqual([
      { text: "𐌅𐌄", start: 0, end: 2 },
      { text: "ab", start: 3, end: 5 },
      { text: "c", start: 7, end: 8 },
    ]);
  });
  it("answer tokens: normalised first, then split, then wide characters dropped (a token may become blank)", () => {
    expect(answerTokensOf("The “Moon” — Bridge.")).toEqual(["the", "moon", "", "bridge"]);
  });
  it("paragraph tokens: wide characters dropped, then normalised", () => {
    expect(paragraphTokenOf("“Velmora’s”")).toBe("velmoras");
    expect(paragraphTokenOf("—")).toBe("");
  });
});

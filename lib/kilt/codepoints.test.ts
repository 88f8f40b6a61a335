import { describe, expect, it } from "vitest";
import { codePointLength, sectionOf, sliceCodePoints, sliceLocation } from "./codepoints";

const velmora =
  "Velmora Lighthouse (Old Italic: 𐌅𐌄𐌋) is a decommissioned lighthouse on the northern breakwater of Velmora harbour. It was designed by the engineer Ana Kessler and first lit in 1871.\n";

describe("code-point offsets", () => {
  it("counts characters outside the BMP once", () => {
    expect(codePointLength("𐌅𐌄𐌋")).toBe(3);
    expect("𐌅𐌄𐌋".length).toBe(6);
  });

  it("reads the KILT doc's anchor: 1871 at code points 176–180, not UTF-16 units", () => {
    expect(sliceCodePoints(velmora, 176, 180)).toBe("1871");
    expect(velmora.slice(176, 180)).not.toBe("1871");
    expect(velmora.indexOf("1871")).toBe(179);
  });

  it("keeps combining marks, CJK and right-to-left text as separate code points", () => {
    const text = "Acade\u0301mie 白凪月橋 שלום";
    expect(sliceCodePoints(text, 0, 8)).toBe("Acade\u0301mi");
    expect(sliceCodePoints(text, 10, 14)).toBe("白凪月橋");
    expect(sliceCodePoints(text, 15)).toBe("שלום");
  });
});

describe("sliceLocation", () => {
  const page = ["Title\n", "First 𐌅 para.\n", "Section::::History.\n", "Second para here.\n", "Third.\n"];

  it("slices within a paragraph", () => {
    expect(sliceLocation(page, { startParagraphId: 1, startCharacter: 6, endParagraphId: 1, endCharacter: 13 })).toBe("𐌅 para.");
  });

  it("joins across paragraphs: the tail of the first, whole middles, the head of the last", () => {
    expect(sliceLocation(page, { startParagraphId: 1, startCharacter: 8, endParagraphId: 3, endCharacter: 6 })).toBe(
      "para.\nSection::::History.\nSecond",
    );
  });

  it("returns undefined out of range", () => {
    expect(sliceLocation(page, { startParagraphId: 1, startCharacter: 0, endParagraphId: 9, endCharacter: 1 })).toBeUndefined();
    expect(sliceLocation(page, { startParagraphId: 1, startCharacter: 0, endParagraphId: 1, endCharacter: 99 })).toBeUndefined();
    expect(sliceLocation(page, { startParagraphId: 1, startCharacter: 5, endParagraphId: 1, endCharacter: 2 })).toBeUndefined();
  });
});

describe("sectionOf", () => {
  const page = ["T\n", "Lead.\n", "Section::::History.\n", "Old.\n", "Section::::History.:Restoration.\n", "New.\n"];
  it("names the lead Section::::Abstract.", () => expect(sectionOf(page, 1)).toBe("Section::::Abstract."));
  it("finds the nearest header above, without the newline", () => {
    expect(sectionOf(page, 3)).toBe("Section::::History.");
    expect(sectionOf(page, 5)).toBe("Section::::History.:Restoration.");
  });
});

describe("codePointLength", () => {
  it("agrees with Array.from on pairs, lone surrogates and plain text", () => {
    for (const s of ["", "abc", "𐌅𐌄𐌋", "a\ud800b", "\udc00\ud800", "e\u0301 白 🏛️ שלום", "\ud83c\udfdb\ufe0f"]) {
      expect(codePointLength(s)).toBe(Array.from(s).length);
    }
  });
});

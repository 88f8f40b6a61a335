import { describe, expect, it } from "vitest";
import { markedSegments, plainText, prefixSegments, snippetOf } from "./segments";

describe("segments", () => {
  it("lays the marks of the folded text onto the original, code point by code point", () => {
    expect(markedSegments("\u0001elodie\u0002 paints \u0001harbours\u0002", "Élodie paints harbours")).toEqual([
      { text: "Élodie", match: true },
      { text: " paints ", match: false },
      { text: "harbours", match: true },
    ]);
    expect(markedSegments("\u0001ab\u0002c", "abcd")).toEqual([{ text: "abcd", match: false }]);
  });

  it("marks a title's prefix in code points", () => {
    expect(prefixSegments("😀bc", 1)).toEqual([
      { text: "😀", match: true },
      { text: "bc", match: false },
    ]);
  });

  it("cuts a long snippet around the first match at spaces, with ellipses", () => {
    const words = Array.from({ length: 100 }, (_, i) => `w${i}`);
    const segs = [
      { text: words.slice(0, 60).join(" ") + " ", match: false },
      { text: "hit", match: true },
      { text: " " + words.slice(60).join(" "), match: false },
    ];
    const snippet = snippetOf(segs, 80);
    const text = plainText(snippet);
    expect(text.startsWith("…")).toBe(true);
    expect(text.endsWith("…")).toBe(true);
    expect(snippet.filter((s) => s.match)).toEqual([{ text: "hit", match: true }]);
    expect(Array.from(text).length).toBeLessThanOrEqual(82);
  });
});

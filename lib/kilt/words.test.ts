import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { velmora, velmoraPassage } from "@/test/velmora";
import { sliceLocation } from "./codepoints";
import {
  codePointToUtf16,
  moveHighlight,
  paragraphKind,
  passageWords,
  sectionTitle,
  selectableWordsOf,
  snapToWords,
  spanOfWords,
  spanText,
  utf16ToCodePoint,
  wordAt,
  wordRangeOfSpan,
  wordsOf,
} from "./words";

const texts = (text: string) => wordsOf(text).map((w) => w.text);

describe("wordsOf", () => {
  it("finds 1871 at code point 176 of the KILT example paragraph (UTF-16 unit 179)", () => {
    const words = wordsOf(velmora);
    const year = words.find((w) => w.text === "1871");
    expect(year).toEqual({ start: 176, end: 180, text: "1871" });
    expect(velmora.indexOf("1871")).toBe(179);
    expect(Array.from(velmora).slice(176, 180).join("")).toBe("1871");
    // The astral letters are one word of three code points, not six.
    expect(words.find((w) => w.text === "𐌅𐌄𐌋")).toEqual({ start: 32, end: 35, text: "𐌅𐌄𐌋" });
    // Punctuation and the final newline are not words.
    expect(words.map((w) => w.text)).not.toContain("(");
    expect(words.map((w) => w.text)).not.toContain(".");
    expect(words.at(-1)!.text).toBe("1871");
  });

  it("every word reads back by code-point slicing", () => {
    for (const text of [velmora, "Acade\u0301mie Maritime", "白凪月橋は美しい", "שלום עולם", "I 👍 the 👩‍👩‍👧 ok"]) {
      for (const w of wordsOf(text)) expect(Array.from(text).slice(w.start, w.end).join("")).toBe(w.text);
    }
  });

  it("keeps a letter and its combining mark inside one word", () => {
    const words = wordsOf("the Acade\u0301mie Maritime");
    expect(words.map((w) => w.text)).toEqual(["the", "Acade\u0301mie", "Maritime"]);
    // e + U+0301 are two code points: the word is 9 long and Maritime starts after it.
    expect(words[1]).toEqual({ start: 4, end: 13, text: "Acade\u0301mie" });
    expect(words[2]!.start).toBe(14);
  });

  it("splits Japanese without spaces into words", () => {
    const words = wordsOf("白凪月橋は美しい");
    expect(words.length).toBeGreaterThan(1);
    expect(words.map((w) => w.text).join("")).toBe("白凪月橋は美しい");
    expect(words[0]!.start).toBe(0);
    expect(words.at(-1)!.end).toBe(8);
    // Contiguous: no character is lost between CJK words.
    for (let i = 1; i < words.length; i++) expect(words[i]!.start).toBe(words[i - 1]!.end);
  });

  it("reads right-to-left text in logical order", () => {
    expect(wordsOf("שלום עולם")).toEqual([
      { start: 0, end: 4, text: "שלום" },
      { start: 5, end: 9, text: "עולם" },
    ]);
  });

  it("counts emoji as tokens of their own, with code-point offsets", () => {
    const text = "I 👍 the 👩‍👩‍👧 ok!";
    expect(texts(text)).toEqual(["I", "👍", "the", "👩‍👩‍👧", "ok"]);
    const family = wordsOf(text)[3]!;
    // 👍 is one code point (two UTF-16 units); the family is 5 code points (3 people, 2 joiners).
    expect(family.start).toBe(8);
    expect(family.end).toBe(13);
    expect(wordsOf(text)[4]).toEqual({ start: 14, end: 16, text: "ok" });
  });

  it("keeps hyphen-joined numbers apart and drops the dash", () => {
    expect(texts("Ana Kessler (1831–1904) was")).toEqual(["Ana", "Kessler", "1831", "1904", "was"]);
  });

  it("gives nothing for whitespace and punctuation only", () => {
    expect(wordsOf("")).toEqual([]);
    expect(wordsOf(" \n")).toEqual([]);
    expect(wordsOf("(…) — !\n")).toEqual([]);
  });
});

describe("UTF-16 and code-point offsets", () => {
  it("maps a DOM offset (UTF-16 units) to code points", () => {
    expect(utf16ToCodePoint(velmora, 179)).toBe(176);
    expect(utf16ToCodePoint(velmora, 32)).toBe(32);
    expect(utf16ToCodePoint(velmora, 38)).toBe(35); // after 𐌅𐌄𐌋 (6 units)
    expect(utf16ToCodePoint("a👍b", 3)).toBe(2);
    // Between the halves of a surrogate pair: the character counts as before the offset.
    expect(utf16ToCodePoint("a👍b", 2)).toBe(2);
    expect(utf16ToCodePoint("abc", 99)).toBe(3);
    expect(utf16ToCodePoint("abc", -1)).toBe(0);
  });

  it("maps code points back to UTF-16 units", () => {
    expect(codePointToUtf16(velmora, 176)).toBe(179);
    expect(codePointToUtf16("a👍b", 2)).toBe(3);
    expect(codePointToUtf16("Acade\u0301mie", 6)).toBe(6);
    for (let u = 0; u <= velmora.length; u++) {
      const cp = utf16ToCodePoint(velmora, u);
      expect(codePointToUtf16(velmora, cp)).toBeLessThanOrEqual(u + 1);
    }
  });
});

describe("KILT paragraph kinds", () => {
  it("recognises section headers and bullets", () => {
    expect(paragraphKind("Section::::History.:Restoration.\n")).toEqual({ kind: "section", title: "History › Restoration" });
    expect(paragraphKind("BULLET::::- Corrow Pier (1872)\n")).toEqual({ kind: "bullet", contentStart: 12 });
    expect(paragraphKind("Plain text.\n")).toEqual({ kind: "text", contentStart: 0 });
  });

  it("names sections for people", () => {
    expect(sectionTitle("Section::::Abstract.")).toBe("Introduction");
    expect(sectionTitle("Section::::History.")).toBe("History");
    expect(sectionTitle("Section::::Career.:Major works.")).toBe("Career › Major works");
  });

  it("offers no word of a header, and no word of a bullet's prefix, whose offsets still count the prefix", () => {
    expect(selectableWordsOf("Section::::History.\n")).toEqual([]);
    const bullet = "BULLET::::- Corrow Pier (1872)\n";
    const words = selectableWordsOf(bullet);
    expect(words.map((w) => w.text)).toEqual(["Corrow", "Pier", "1872"]);
    expect(words[0]).toEqual({ start: 12, end: 18, text: "Corrow" });
    expect(Array.from(bullet).slice(12, 18).join("")).toBe("Corrow");
  });
});

// Velmora Lighthouse ¶7–8 (db/demo/knowledge.jsonl): the demo's span across two paragraphs.
const demoPages = fs
  .readFileSync(path.join(import.meta.dirname, "..", "..", "db", "demo", "knowledge.jsonl"), "utf8")
  .split("\n")
  .filter(Boolean)
  .map((line) => JSON.parse(line) as { wikipedia_id: string; text: string[] });
const lighthouse = demoPages.find((p) => p.wikipedia_id === "61237001")!.text;
const passage = (from: number, to: number) => lighthouse.slice(from, to + 1).map((text, i) => ({ id: from + i, text }));

describe("spans", () => {
  it("gives the text the server computes for a span inside one paragraph", () => {
    const paragraphs = [{ id: 1, text: velmora }];
    const words = passageWords(paragraphs);
    const first = words.findIndex((w) => w.text === "1871");
    const span = spanOfWords(paragraphs, words, { first, last: first });
    expect(span).toEqual({ startParagraphId: 1, startCharacter: 176, endParagraphId: 1, endCharacter: 180, text: "1871" });
    const lit = words.findIndex((w) => w.text === "first");
    expect(spanOfWords(paragraphs, words, { first: lit, last: first })!.text).toBe("first lit in 1871");
    // Either order of the ends.
    expect(spanOfWords(paragraphs, words, { first, last: lit })!.text).toBe("first lit in 1871");
  });

  it("crosses paragraphs the way the server slices them: tail + middle + head", () => {
    const paragraphs = passage(7, 8);
    const words = passageWords(paragraphs);
    const from = words.findIndex((w) => w.paragraphId === 7 && w.text === "returned");
    const to = words.findIndex((w) => w.paragraphId === 8 && w.text === "2005");
    const span = spanOfWords(paragraphs, words, { first: from, last: to })!;
    expect(span.startParagraphId).toBe(7);
    expect(span.endParagraphId).toBe(8);
    expect(span.text).toBe(sliceLocation(lighthouse, span));
    expect(span.text).toContain("2003.\nThe restored light was relit");
    expect(span.text.endsWith("14 August 2005")).toBe(true);
  });

  it("includes a whole middle paragraph, header and all", () => {
    const paragraphs = passage(5, 7);
    const words = passageWords(paragraphs);
    expect(words.some((w) => w.paragraphId === 6)).toBe(false); // the header has no words
    const span = spanOfWords(paragraphs, words, { first: words.length - 5, last: 2 })!;
    expect(span.text).toBe(sliceLocation(lighthouse, span));
    expect(span.text).toContain("Section::::History.:Restoration.\n");
  });

  it("matches the server on every word pair of every demo page", () => {
    for (const page of demoPages) {
      const paragraphs = page.text.map((text, id) => ({ id, text })).slice(1);
      const words = passageWords(paragraphs);
      for (let i = 0; i < words.length; i += 7) {
        for (let j = i; j < words.length; j += 11) {
          const span = spanOfWords(paragraphs, words, { first: i, last: j })!;
          expect(span.text).toBe(sliceLocation(page.text, span));
          expect(wordRangeOfSpan(words, span)).toEqual({ first: i, last: j });
        }
      }
    }
  });

  it("spanText refuses locations outside the paragraphs", () => {
    const paragraphs = passage(7, 8);
    expect(spanText(paragraphs, { startParagraphId: 6, startCharacter: 0, endParagraphId: 7, endCharacter: 3 })).toBeUndefined();
    expect(spanText(paragraphs, { startParagraphId: 8, startCharacter: 0, endParagraphId: 7, endCharacter: 3 })).toBeUndefined();
    expect(spanText(paragraphs, { startParagraphId: 7, startCharacter: 0, endParagraphId: 7, endCharacter: 1 })).toBe("A");
  });

  it("gives text with emoji, combining marks, CJK and RTL equal to a code-point slice", () => {
    const paragraphs = [
      { id: 1, text: "Sie studierte an der Acade\u0301mie 🎓 in Saint-Re\u0301my.\n" },
      { id: 2, text: "白凪月橋は美しい — שלום עולם\n" },
    ];
    const words = passageWords(paragraphs);
    const from = words.findIndex((w) => w.text === "🎓");
    const to = words.findIndex((w) => w.text === "שלום");
    const span = spanOfWords(paragraphs, words, { first: from, last: to })!;
    const page = ["Title\n", paragraphs[0]!.text, paragraphs[1]!.text];
    expect(span.text).toBe(sliceLocation(page, span));
    expect(span.text).toBe("🎓 in Saint-Re\u0301my.\n白凪月橋は美しい — שלום");
  });
});

describe("snapping a selection to words", () => {
  const paragraphs = velmoraPassage("Construction began in 1868 after a storm.\n");
  const words = passageWords(paragraphs);
  const at = (paragraphId: number, offset: number) => ({ paragraphId, offset });
  const textOf = (r: ReturnType<typeof snapToWords>) => (r ? spanOfWords(paragraphs, words, r)!.text : null);

  it("widens a partial selection to whole words", () => {
    // "ght in 18" of "first lit in 1871" → "lit in 1871"
    expect(textOf(snapToWords(words, at(1, 169), at(1, 178)))).toBe("lit in 1871");
  });

  it("takes a backwards selection the same way", () => {
    expect(textOf(snapToWords(words, at(1, 178), at(1, 169)))).toBe("lit in 1871");
  });

  it("ignores a click and a selection of only spaces or punctuation", () => {
    expect(snapToWords(words, at(1, 170), at(1, 170))).toBeNull();
    expect(snapToWords(words, at(1, 180), at(1, 182))).toBeNull(); // ".\n"
  });

  it("crosses the header between two paragraphs", () => {
    expect(textOf(snapToWords(words, at(1, 177), at(3, 3)))).toBe("1871.\nSection::::History.\nConstruction");
  });

  it("snaps an end point that lies in the header back to the last word before it", () => {
    expect(textOf(snapToWords(words, at(1, 173), at(2, 5)))).toBe("in 1871");
  });
});

describe("keyboard moves", () => {
  it("starts at the first word, extends and shrinks the end, moves the start", () => {
    let r = moveHighlight(null, "extend", 10);
    expect(r).toEqual({ first: 0, last: 0 });
    r = moveHighlight(r, "extend", 10);
    r = moveHighlight(r, "extend", 10);
    expect(r).toEqual({ first: 0, last: 2 });
    r = moveHighlight(r, "shrink", 10);
    expect(r).toEqual({ first: 0, last: 1 });
    r = moveHighlight(r, "start-right", 10);
    expect(r).toEqual({ first: 1, last: 1 });
    // The start never passes the end, nor the end the start.
    expect(moveHighlight(r, "start-right", 10)).toEqual({ first: 1, last: 1 });
    expect(moveHighlight(r, "shrink", 10)).toEqual({ first: 1, last: 1 });
    expect(moveHighlight(r, "start-left", 10)).toEqual({ first: 0, last: 1 });
    expect(moveHighlight({ first: 0, last: 9 }, "extend", 10)).toEqual({ first: 0, last: 9 });
    expect(moveHighlight({ first: 0, last: 9 }, "start-left", 10)).toEqual({ first: 0, last: 9 });
    expect(moveHighlight(null, "extend", 0)).toBeNull();
  });
});

describe("wordAt", () => {
  const words = passageWords([
    { id: 1, text: "Lit in 1871, relit." },
    { id: 2, text: "Section::::History.\n" },
    { id: 3, text: "Closed." },
  ]);
  it("finds the word under a tap: inside it, on a space or comma after it, or the paragraph's last", () => {
    const text = (i: number) => words[i]?.text;
    expect(text(wordAt(words, { paragraphId: 1, offset: 0 }))).toBe("Lit");
    expect(text(wordAt(words, { paragraphId: 1, offset: 8 }))).toBe("1871");
    expect(text(wordAt(words, { paragraphId: 1, offset: 11 }))).toBe("relit");
    expect(text(wordAt(words, { paragraphId: 1, offset: 19 }))).toBe("relit");
    expect(text(wordAt(words, { paragraphId: 3, offset: 2 }))).toBe("Closed");
    expect(wordAt(words, { paragraphId: 2, offset: 0 })).toBe(-1);
  });
});

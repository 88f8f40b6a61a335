import { describe, expect, it } from "vitest";
import { velmora, velmoraPassage } from "@/test/velmora";
import { sliceCodePoints } from "./codepoints";
import { moveBySentence, passageSentences, sentencesOf } from "./sentences";
import { passageWords } from "./words";

const texts = (text: string) => sentencesOf(text).map((s) => sliceCodePoints(text, s.start, s.end));

describe("sentencesOf", () => {
  it("splits the demo paragraph in two, offsets in code points past letters outside the BMP", () => {
    const s = sentencesOf(velmora);
    expect(texts(velmora)).toEqual([
      "Velmora Lighthouse (Old Italic: 𐌅𐌄𐌋) is a decommissioned lighthouse on the northern breakwater of Velmora harbour.",
      "It was designed by the engineer Ana Kessler and first lit in 1871.",
    ]);
    // "1871" is at code points 176–180 (KILT's own offsets); the sentence ends with its full stop.
    expect(s[1]!.end).toBe(181);
  });

  it("keeps abbreviations and initials inside their sentence", () => {
    expect(texts("He lived on St. Mary's Road. Dr. Lee met J. R. R. Tolkien there, e.g. in 1931. It rained.")).toEqual([
      "He lived on St. Mary's Road.",
      "Dr. Lee met J. R. R. Tolkien there, e.g. in 1931.",
      "It rained.",
    ]);
  });

  it("ends at ! and ?, takes closing quotes and brackets, and does not split decimals or lower-case continuations", () => {
    expect(texts('Was it 2.5 metres? "Yes!" (He said so.) the rest... and more. Done')).toEqual([
      "Was it 2.5 metres?",
      '"Yes!"',
      "(He said so.) the rest... and more.",
      "Done",
    ]);
  });

  it("gives nothing for white space only and one sentence without a stop", () => {
    expect(sentencesOf("  \n")).toEqual([]);
    expect(texts("BULLET::::- Corrow Pier (1875)\n")).toEqual(["BULLET::::- Corrow Pier (1875)"]);
  });
});

describe("passageSentences and moveBySentence", () => {
  const paragraphs = velmoraPassage("BULLET::::- Built in 1868. Lit later.\n");
  const words = passageWords(paragraphs);
  const sentences = passageSentences(paragraphs, words);
  const wordsOf = (r: { first: number; last: number } | null) =>
    r
      ? words
          .slice(r.first, r.last + 1)
          .map((w) => w.text)
          .join(" ")
      : null;

  it("maps sentences onto word ranges, paragraph by paragraph, headers left out", () => {
    expect(sentences.map(wordsOf)).toEqual([
      "Velmora Lighthouse Old Italic 𐌅𐌄𐌋 is a decommissioned lighthouse on the northern breakwater of Velmora harbour",
      "It was designed by the engineer Ana Kessler and first lit in 1871",
      "Built in 1868",
      "Lit later",
    ]);
  });

  it("S takes the sentence at the highlight start, then the next one", () => {
    let r = moveBySentence(null, "sentence", sentences);
    expect(wordsOf(r)).toMatch(/^Velmora .* harbour$/);
    r = moveBySentence(r, "sentence", sentences);
    expect(wordsOf(r)).toBe("It was designed by the engineer Ana Kessler and first lit in 1871");
    // From one word in the middle of a sentence: that whole sentence.
    const kessler = words.findIndex((w) => w.text === "Kessler");
    expect(moveBySentence({ first: kessler, last: kessler }, "sentence", sentences)).toEqual(sentences[1]);
    // The last sentence stays.
    expect(moveBySentence(sentences[3]!, "sentence", sentences)).toEqual(sentences[3]);
  });

  it("Ctrl+Shift+→ grows and Ctrl+Shift+← shrinks by a sentence, never past the start", () => {
    const kessler = words.findIndex((w) => w.text === "Kessler");
    let r = moveBySentence({ first: kessler, last: kessler }, "extend-sentence", sentences);
    expect(wordsOf(r)).toBe("Kessler and first lit in 1871");
    r = moveBySentence(r, "extend-sentence", sentences);
    expect(wordsOf(r)).toBe("Kessler and first lit in 1871 Built in 1868");
    r = moveBySentence(r, "shrink-sentence", sentences);
    expect(wordsOf(r)).toBe("Kessler and first lit in 1871");
    r = moveBySentence(r, "shrink-sentence", sentences);
    expect(wordsOf(r)).toBe("Kessler");
    expect(moveBySentence(null, "extend-sentence", [])).toBeNull();
  });
});

import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { codePointLength, sliceCodePoints } from "../codepoints";
import { matchAnswer } from "./match-answer";
import { normalizeAnswer } from "./normalize";

const ROOT = path.join(import.meta.dirname, "..", "..", "..");
const FIXTURES = path.join(ROOT, "test", "fixtures", "kilt-mapping");

const readJsonl = (file: string): unknown[] =>
  fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as unknown);

interface Item {
  id: string;
  wikipedia_id: string;
  title: string;
  evidence: string;
}
interface Expected {
  id: string;
  paragraph_id: number;
  bleu: number;
  start_character: number;
  end_character: number;
}

const pages = new Map(
  (readJsonl(path.join(ROOT, "db", "demo", "knowledge.jsonl")) as { wikipedia_id: string; text: string[] }[]).map((p) => [
    p.wikipedia_id,
    p.text,
  ]),
);
const seeds = fs.readdirSync(FIXTURES).filter((d) => d.startsWith("seed-"));

describe("matchAnswer against KILT's match_answer (test/fixtures/kilt-mapping)", () => {
  it("has both seeds", () => expect(seeds.length).toBeGreaterThanOrEqual(2));
  for (const seed of seeds) {
    const items = readJsonl(path.join(FIXTURES, seed, "items.jsonl")) as Item[];
    const expected = new Map((readJsonl(path.join(FIXTURES, seed, "expected.jsonl")) as Expected[]).map((e) => [e.id, e]));
    it(`${seed}: every item's paragraph and BLEU (to 1e-9), and KILT's offsets where it found the text`, () => {
      expect(items.length).toBeGreaterThan(0);
      for (const item of items) {
        const want = expected.get(item.id)!;
        const paragraphs = pages.get(item.wikipedia_id)!;
        const got = matchAnswer(paragraphs, item.evidence)!;
        expect({ id: item.id, paragraph: got.paragraphId }).toEqual({ id: item.id, paragraph: want.paragraph_id });
        expect(Math.abs(got.bleu - want.bleu), `${item.id}: ${got.bleu} vs ${want.bleu}`).toBeLessThanOrEqual(1e-9);
        const text = paragraphs[got.paragraphId]!;
        expect(got.startCharacter).toBeGreaterThanOrEqual(0);
        expect(got.endCharacter).toBeGreaterThan(got.startCharacter);
        expect(got.endCharacter).toBeLessThanOrEqual(codePointLength(text));
        if (!got.exact) continue;
        // KILT's own offsets (its end is start + the evidence's length, also when the normalised text was found).
        expect(got.startCharacter, item.id).toBe(want.start_character);
        if (codePointLength(normalizeAnswer(item.evidence)) === codePointLength(item.evidence))
          expect(got.endCharacter, item.id).toBe(want.end_character);
        const found = sliceCodePoints(text, got.startCharacter, got.endCharacter);
        expect([item.evidence, normalizeAnswer(item.evidence)]).toContain(found);
      }
    });
  }
});

describe("matchAnswer by hand", () => {
  it("the exact token match gives the raw offsets of the tokens chosen (KILT: 0 and a token's length)", () => {
    const paragraph = "The “Moon” Bridge, opened in 1871.";
    const got = matchAnswer(["Title\n", paragraph], "moon bridge opened");
    expect(got).toEqual({ paragraphId: 1, bleu: 1, startCharacter: 4, endCharacter: 25, exact: false });
    expect(sliceCodePoints(paragraph, 4, 25)).toBe("“Moon” Bridge, opened");
  });
  it("text found as written: KILT's code-point offsets, astral characters counted once", () => {
    expect(matchAnswer(["𐌅𐌄𐌋 tower", "x"], "tower")).toEqual({ paragraphId: 0, bleu: 1, startCharacter: 4, endCharacter: 9, exact: true });
  });
  it("null for a page with no paragraph, and where KILT raises (no token but blank ones)", () => {
    expect(matchAnswer([], "tower")).toBeNull();
    expect(matchAnswer(["a b"], "“ ”")).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { sliceLocation } from "@/lib/kilt/codepoints";
import { consensusSpan, flatten, locationsOverlap, smoothedAccuracy, unflatten, type PassageShape } from "./consensus";

const page = [
  "Velmora Lighthouse\n",
  "Velmora Lighthouse (Old Italic: 𐌅𐌄𐌋) is a decommissioned lighthouse on the northern breakwater of Velmora harbour. It was designed by the engineer Ana Kessler and first lit in 1871.\n",
  "It was relit on 14 August 2005 after a restoration.\n",
];
const shape: PassageShape = { startParagraphId: 1, paragraphLengths: [Array.from(page[1]!).length, Array.from(page[2]!).length] };
const loc = (sp: number, sc: number, ep: number, ec: number) => ({
  startParagraphId: sp,
  startCharacter: sc,
  endParagraphId: ep,
  endCharacter: ec,
});

describe("flatten / unflatten", () => {
  it("counts code points across paragraphs and back", () => {
    const len1 = shape.paragraphLengths[0]!;
    expect(flatten(shape, 2, 3)).toBe(len1 + 3);
    expect(unflatten(shape, len1 + 3)).toEqual({ paragraphId: 2, character: 3 });
    expect(unflatten(shape, len1, true)).toEqual({ paragraphId: 1, character: len1 });
    expect(unflatten(shape, len1)).toEqual({ paragraphId: 2, character: 0 });
  });
});

describe("consensus span — a worked example", () => {
  // Paragraph 1 (code points): "… first lit in 1871." — "first" starts at 163, "1871" at 176–180.
  // Annotator A highlights "first lit in 1871" (163–180), B "lit in 1871" (169–180), C "1871" (176–180).
  // Code points covered by ≥ 2 of the 3: 169–180 ("lit in 1871") → the consensus span.
  const a = loc(1, 163, 1, 180);
  const b = loc(1, 169, 1, 180);
  const c = loc(1, 176, 1, 180);

  it("checks the example's offsets", () => {
    expect(sliceLocation(page, a)).toBe("first lit in 1871");
    expect(sliceLocation(page, b)).toBe("lit in 1871");
    expect(sliceLocation(page, c)).toBe("1871");
  });

  it("takes the code points at least T = 2 highlights share, first to last", () => {
    expect(consensusSpan(shape, [a, b, c], 2)).toEqual(b);
    expect(sliceLocation(page, consensusSpan(shape, [a, b, c], 3)!)).toBe("1871");
    expect(consensusSpan(shape, [a, b, c], 1)).toEqual(a);
  });

  it("joins separated agreement into one contiguous range", () => {
    // Two annotators each highlight "Velmora" (0–7) and "1871" (176–180) with one highlight spanning both…
    const wide = loc(1, 0, 1, 180);
    const left = loc(1, 0, 1, 7);
    const right = loc(1, 176, 1, 180);
    expect(consensusSpan(shape, [wide, left, right], 2)).toEqual(loc(1, 0, 1, 180));
  });

  it("falls back to the highlight with the largest mean overlap when none reaches T", () => {
    const x = loc(1, 0, 1, 7); // "Velmora"
    const y = loc(1, 169, 1, 180); // "lit in 1871"
    const z = loc(1, 176, 2, 4); // "1871.\nIt w" — crosses into paragraph 2
    const picked = consensusSpan(shape, [x, y, z], 3)!;
    expect(picked).toEqual(y); // y overlaps z by 4; z overlaps y by 4 too but y comes first… both mean 2
    expect(sliceLocation(page, z)).toBe("1871.\nIt w");
  });

  it("works across paragraphs", () => {
    const p = loc(1, 176, 2, 6); // "1871.\nIt was"
    const q = loc(2, 0, 2, 30); // "It was relit on 14 August 2005"
    expect(sliceLocation(page, consensusSpan(shape, [p, q], 2)!)).toBe("It was");
    expect(locationsOverlap(shape, p, q)).toBe(true);
    expect(locationsOverlap(shape, loc(1, 0, 1, 7), q)).toBe(false);
  });
});

describe("smoothed gold accuracy", () => {
  it("is (0.5 + correct) / (1 + judged)", () => {
    expect(smoothedAccuracy(0, 0)).toBe(0.5);
    expect(smoothedAccuracy(5, 5)).toBeCloseTo(5.5 / 6);
    expect(smoothedAccuracy(2, 5)).toBeCloseTo(2.5 / 6);
  });
});

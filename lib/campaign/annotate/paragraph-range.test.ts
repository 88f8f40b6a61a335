import { describe, expect, it } from "vitest";
import { pickableIds, pickParagraph } from "./paragraph-range";

// A page: title line 0, header 1, content 2 and 3, header 4, content 5, 6 and 7.
const page = {
  paragraphs: ["Title\n", "Section::::Early life.\n", "a\n", "b\n", "Section::::Career.\n", "c\n", "BULLET::::- d\n", "e\n"].map(
    (text, id) => ({ id, text }),
  ),
};
const ids = pickableIds(page);

describe("picking a proposal's paragraphs", () => {
  it("offers content paragraphs only: no title line, no section header", () => {
    expect(ids).toEqual([2, 3, 5, 6, 7]);
  });

  it("starts a range, extends it by the next content paragraph on either side (over a header), and restarts elsewhere", () => {
    const one = pickParagraph(null, ids, 3, true);
    expect(one).toEqual({ start: 3, end: 3 });
    const over = pickParagraph(one, ids, 5, true);
    expect(over).toEqual({ start: 3, end: 5 });
    expect(pickParagraph(over, ids, 2, true)).toEqual({ start: 2, end: 5 });
    expect(pickParagraph(over, ids, 7, true)).toEqual({ start: 7, end: 7 });
    expect(pickParagraph(over, ids, 4, true)).toEqual(over); // a header is not pickable
  });

  it("unticking an end shrinks the range, a middle one cuts it there, the last one empties it", () => {
    const all = { start: 2, end: 7 };
    expect(pickParagraph(all, ids, 2, false)).toEqual({ start: 3, end: 7 });
    expect(pickParagraph(all, ids, 7, false)).toEqual({ start: 2, end: 6 });
    expect(pickParagraph(all, ids, 5, false)).toEqual({ start: 2, end: 3 });
    expect(pickParagraph({ start: 6, end: 6 }, ids, 6, false)).toBeNull();
    expect(pickParagraph({ start: 5, end: 6 }, ids, 2, false)).toEqual({ start: 5, end: 6 }); // outside: unchanged
  });
});

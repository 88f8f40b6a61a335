import { describe, expect, it } from "vitest";
import { csvCell, csvLine } from "./csv";

describe("csv", () => {
  it("leaves plain text, numbers and booleans as they are; nothing is an empty cell", () => {
    expect(csvLine(["abc", 12, 0.5, true, false, null, undefined, ""])).toBe("abc,12,0.5,true,false,,,\r\n");
  });

  it.each([
    [
      "quotes commas, quotes, CR and LF, doubling the quotes (RFC 4180)",
      [
        ["a,b", '"a,b"'],
        ['say "hi"', '"say ""hi"""'],
        ["two\nlines", '"two\nlines"'],
        ["cr\r\nlf", '"cr\r\nlf"'],
        ['"', '""""'],
      ],
    ],
    [
      "guards text starting with = + - @ (and tab, CR) with a leading quote",
      [
        ['=HYPERLINK("http://x")', '"\'=HYPERLINK(""http://x"")"'],
        ["+1", "'+1"],
        ["-2+3", "'-2+3"],
        ["@SUM(A1)", "'@SUM(A1)"],
        ["\t=1", "'\t=1"],
        ["\r=1", '"\'\r=1"'],
        ["a=1", "a=1"],
        [-3, "-3"],
      ],
    ],
  ] as const)("%s", (_, cases) => {
    for (const [value, cell] of cases) expect(csvCell(value)).toBe(cell);
  });

  it("keeps characters outside the BMP and does not count UTF-16 units", () => {
    expect(csvCell("𐌅😀,é")).toBe('"𐌅😀,é"');
  });

  it("writes non-finite numbers as empty cells", () => {
    expect(csvLine([Number.NaN, Number.POSITIVE_INFINITY])).toBe(",\r\n");
  });
});

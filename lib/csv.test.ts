import { describe, expect, it } from "vitest";
import { csvCell, csvLine } from "./csv";

describe("csv", () => {
  it("leaves plain text, numbers and booleans as they are; nothing is an empty cell", () => {
    expect(csvLine(["abc", 12, 0.5, true, false, null, undefined, ""])).toBe("abc,12,0.5,true,false,,,\r\n");
  });

  it("quotes commas, quotes, CR and LF, doubling the quotes (RFC 4180)", () => {
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell("cr\r\nlf")).toBe('"cr\r\nlf"');
    expect(csvCell('"')).toBe('""""');
  });

  it("guards text starting with = + - @ (and tab, CR) with a leading quote", () => {
    expect(csvCell("=HYPERLINK(\"http://x\")")).toBe("\"'=HYPERLINK(\"\"http://x\"\")\"");
    expect(csvCell("+1")).toBe("'+1");
    expect(csvCell("-2+3")).toBe("'-2+3");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("\t=1")).toBe("'\t=1");
    expect(csvCell("\r=1")).toBe("\"'\r=1\"");
    expect(csvCell("a=1")).toBe("a=1");
    expect(csvCell(-3)).toBe("-3");
  });

  it("keeps characters outside the BMP and does not count UTF-16 units", () => {
    expect(csvCell("𐌅😀,é")).toBe('"𐌅😀,é"');
  });

  it("writes non-finite numbers as empty cells", () => {
    expect(csvLine([Number.NaN, Number.POSITIVE_INFINITY])).toBe(",\r\n");
  });
});

import { describe, expect, it } from "vitest";
import { copyTextArray, copyValue, textArrayLiteral } from "./bulk";

describe("copyTextArray", () => {
  it("equals copyValue(textArrayLiteral(values)) whatever the values hold", () => {
    const alphabet = ["a", "\\", '"', "\n", "\r", "\t", ",", "{", "}", " ", "N", "é", "白", "𐌅", "\u0301", "\\N"];
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const cases: string[][] = [[], [""], ["", ""], ["\\"], ['"'], ["\\N"], ["a\nb", "c\td"]];
    for (let i = 0; i < 500; i++) {
      cases.push(
        Array.from({ length: 1 + random(6) }, () => Array.from({ length: random(12) }, () => alphabet[random(alphabet.length)]).join("")),
      );
    }
    for (const values of cases) expect(copyTextArray(values)).toBe(copyValue(textArrayLiteral(values)));
  });
});

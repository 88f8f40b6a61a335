import { describe, expect, it } from "vitest";
import { brevityPenalty, fsum, getBleu, kiltWeights, sentenceBleu } from "./bleu";

// Expected values: nltk's sentence_bleu (3.8, Debian's python3-nltk) on the same tokens, printed with repr().
// JavaScript's Math.log and Math.exp may differ from C's libm in the last bit, hence a relative 1e-15.
const near = (got: number, want: number) => expect(Math.abs(got - want), `${got} vs ${want}`).toBeLessThanOrEqual(Math.abs(want) * 1e-15);
describe("sentenceBleu (nltk, no smoothing) and KILT's getBleu", () => {
  it("a 1-token answer: 1 on itself; a span of 2 tokens holding it costs the brevity penalty e^(1-2)", () => {
    expect(getBleu(["bridge"], ["bridge"])).toBe(1);
    near(getBleu(["moon", "bridge"], ["bridge"]), 0.36787944117144233);
  });
  it("a 2-token answer: weights 1/2; a missing bigram order gives a tiny positive value, not 0", () => {
    near(getBleu(["moon", "lake"], ["moon", "bridge"]), 1.0547686614863434e-154);
    near(getBleu(["the", "moon", "bridge"], ["moon", "bridge"]), 0.6065306597126334);
    expect(getBleu(["q"], ["a", "b"])).toBe(0);
  });
  it("a 3-token answer: weights 1/3 each", () => {
    near(getBleu(["a", "b", "x"], ["a", "b", "c"]), 1.9501786259064824e-103);
    near(getBleu(["a", "x", "c"], ["a", "b", "c"]), 6.910866992994489e-206);
  });
  it("4 tokens and more: BLEU-4, clipped counts, the brevity penalty only when the span is longer", () => {
    near(getBleu(["a", "b", "c", "d", "e"], ["a", "b", "c", "d"]), 0.7788007830714049);
    near(getBleu(["b", "a"], ["a", "b", "a", "b"]), 9.53091075863908e-155);
    // p = 3/4, 2/3, 1/2, and 0 → sys.float_info.min for the 4-grams: tiny, not 0.
    near(getBleu(["a", "b", "c"], ["a", "b", "c", "d"]), 8.636168555094496e-78);
  });
  it("blank tokens are dropped from both sides before scoring (KILT's get_bleu)", () => {
    expect(getBleu(["moon", "", "bridge"], ["moon", "bridge"])).toBe(1);
    expect(getBleu(["moon", "bridge"], ["", "moon", "bridge"])).toBe(1);
    // nltk itself keeps the blank token: the bigram "moon bridge" is then missing.
    near(sentenceBleu(["moon", "", "bridge"], ["moon", "bridge"], [0.5, 0.5]), 9.047424648113057e-155);
  });
  it("KILT's weights: 1/n for answers under 4 tokens, else 1/4 × 4", () => {
    expect(kiltWeights(1)).toEqual([1]);
    expect(kiltWeights(3)).toEqual([1 / 3, 1 / 3, 1 / 3]);
    expect(kiltWeights(9)).toEqual([0.25, 0.25, 0.25, 0.25]);
  });
  it("the brevity penalty: 1 when the hypothesis is longer, 0 for an empty one, else exp(1 - r/h)", () => {
    expect(brevityPenalty(2, 3)).toBe(1);
    expect(brevityPenalty(3, 0)).toBe(0);
    expect(brevityPenalty(3, 3)).toBe(1);
    expect(brevityPenalty(4, 2)).toBe(Math.exp(-1));
  });
  it("fsum is Python's math.fsum: correctly rounded where a plain sum is not", () => {
    expect(fsum([0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1])).toBe(1);
    expect(fsum([1e100, 1, -1e100, 1e-100])).toBe(1);
    expect(fsum([1, 1e-16, 1e-16])).toBe(1.0000000000000002);
    expect(fsum([])).toBe(0);
  });
});

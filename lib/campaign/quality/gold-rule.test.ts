import { describe, expect, it } from "vitest";
import { breaksGoldRule } from "./standings";

// The gold rule per kind of gold, at the defaults (4 judgments of a kind, smoothed accuracy below 0.3).
// The threshold reaches the rule as PostgreSQL's `real` reads back: Math.fround(0.3) = 0.30000001192….
const rule = { minJudgments: 4, threshold: Math.fround(0.3) };
const counts = (sufficient: [number, number], negative: [number, number]) => ({
  goldJudged: sufficient[0] + negative[0],
  goldCorrect: sufficient[1] + negative[1],
  negativeGoldJudged: negative[0],
  negativeGoldCorrect: negative[1],
});

describe("the gold rule", () => {
  it("pauses a bot that is never right on one kind, once it has judged 4 of that kind", () => {
    expect(breaksGoldRule(counts([3, 0], [0, 0]), rule)).toBe(false); // too few yet
    expect(breaksGoldRule(counts([4, 0], [0, 0]), rule)).toBe(true); // always-insufficient on sufficient gold
    expect(breaksGoldRule(counts([1, 1], [4, 0]), rule)).toBe(true); // always-sufficient on negative gold
  });

  it("leaves an annotator exactly at the threshold alone: 1 right of 4 is 0.3, not below it", () => {
    expect(breaksGoldRule(counts([4, 1], [5, 4]), rule)).toBe(false);
    expect(breaksGoldRule(counts([5, 1], [5, 4]), rule)).toBe(true); // 1.5 / 6 = 0.25
  });

  it("weighs the kinds apart: a pooled 5 of 8 does not hide 0 of 4 on one kind", () => {
    expect(breaksGoldRule(counts([4, 4], [4, 1]), rule)).toBe(false); // 1 of 4 negative: 0.3
    expect(breaksGoldRule(counts([4, 4], [4, 0]), rule)).toBe(true);
  });
});

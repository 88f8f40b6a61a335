import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { normalizeAnswer } from "@/lib/kilt/answer-overlap";
import { f1Score } from "./downstream";
import { rougeL } from "./rouge";

// 400 random pairs (articles, dots, runs of spaces, U+00A0, U+001C, U+FEFF, accents, Greek) with the
// figures Python printed for them through KILT's own `_rougel_score` (the `rouge` package),
// `_f1_score`, `_exact_match_score` and `normalize_answer`.
interface Pair {
  hypothesis: string;
  reference: string;
  rougeL: number;
  f1: number;
  em: boolean;
  normalized: string;
}
const pairs = JSON.parse(readFileSync(path.join(process.cwd(), "test/fixtures/kilt-eval/python-pairs.json"), "utf8")) as Pair[];

describe("ROUGE-L, F1 and EM as KILT computes them", () => {
  it("equal Python's figures on 400 random pairs", () => {
    expect(pairs).toHaveLength(400);
    for (const p of pairs) {
      const label = JSON.stringify([p.hypothesis, p.reference]);
      expect(rougeL(p.hypothesis, p.reference), label).toBeCloseTo(p.rougeL, 12);
      expect(f1Score(p.hypothesis, p.reference), label).toBeCloseTo(p.f1, 12);
      expect(normalizeAnswer(p.hypothesis), label).toBe(p.normalized);
      expect(normalizeAnswer(p.hypothesis) === normalizeAnswer(p.reference), label).toBe(p.em);
    }
  });

  it("ROUGE-L: word sets, sentences split on '.', 0 where the package raises (no sentence)", () => {
    expect(rougeL("the cat sat", "the cat sat")).toBeCloseTo(1, 7);
    expect(rougeL("The cat", "the cat")).toBeCloseTo(2 * ((0.5 * 0.5) / (1 + 1e-8)), 15);
    expect(rougeL("...", "the cat")).toBe(0);
    expect(rougeL("cat", "")).toBe(0);
    // Repeated words count once (exclusive=True): "a a a" against "a" is a perfect match.
    expect(rougeL("a a a", "a")).toBeCloseTo(1, 7);
  });

  it("F1 counts tokens as bags, after normalisation", () => {
    expect(f1Score("the the cat", "cat cat")).toBeCloseTo((0.5 * 2 * 1) / 1.5, 12);
    expect(f1Score("An Ode!", "ode")).toBe(1);
    expect(f1Score("", "ode")).toBe(0);
  });
});

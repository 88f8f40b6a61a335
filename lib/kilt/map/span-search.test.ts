import { describe, expect, it } from "vitest";
import { seededRandom } from "@/lib/seeded-random";
import { getBleu, isNotBlank } from "./bleu";
import { goldModelOf } from "./gold-model";
import { replacesBest, searchSpans, type SearchState } from "./span-search";

/** KILT's loops as written: every span, scored from scratch with get_bleu. */
function referenceSearch(tokens: readonly string[], gold: readonly string[], state: SearchState, paragraphId: number): boolean {
  for (let init = 0; init < tokens.length; init++) {
    for (let end = init; end < tokens.length; end++) {
      const bleu = getBleu(tokens.slice(init, end + 1), gold);
      if (replacesBest(state, bleu, init, end)) Object.assign(state, { bleu, paragraphId, start: init, end });
      if (state.bleu === 1) return true;
    }
  }
  return false;
}

/** A seeded generator, so a failure can be replayed. */
const rng = seededRandom;

const WORDS = ["a", "b", "c", "d", "e", "f", "", "g"];

function randomTokens(next: () => number, length: number, vocabulary: number): string[] {
  return Array.from({ length }, () => WORDS[Math.floor(next() * vocabulary)]!);
}

function runBoth(paragraphs: string[][], gold: string[]) {
  const fast: SearchState = { bleu: null, paragraphId: -1, start: -1, end: -1 };
  const slow: SearchState = { ...fast };
  const model = goldModelOf(gold);
  const outcome = { fast: [] as boolean[], slow: [] as boolean[] };
  for (const [i, tokens] of paragraphs.entries()) {
    const a = searchSpans(tokens, model, fast, i);
    const b = referenceSearch(tokens, gold, slow, i);
    outcome.fast.push(a);
    outcome.slow.push(b);
    if (a || b) break;
  }
  return { fast, slow, outcome };
}

describe("the fast span search gives what KILT's loops give", () => {
  it("on 1,500 random cases: 1–3 paragraphs of 0–36 tokens (blanks among them), answers of 1–7 tokens", () => {
    const next = rng(20261204);
    let positive = 0;
    let ties = 0;
    for (let n = 0; n < 1500; n++) {
      const vocabulary = 2 + Math.floor(next() * (WORDS.length - 2));
      const paragraphs = Array.from({ length: 1 + Math.floor(next() * 3) }, () => randomTokens(next, Math.floor(next() * 37), vocabulary));
      const gold = randomTokens(next, 1 + Math.floor(next() * 7), vocabulary + 1).filter(isNotBlank);
      if (gold.length === 0) continue;
      const { fast, slow, outcome } = runBoth(paragraphs, gold);
      expect({ n, ...fast, outcome: outcome.fast }).toEqual({ n, ...slow, outcome: outcome.slow });
      if (slow.bleu) positive++;
      if (slow.start > 0) ties++;
    }
    // The cases reach the paths that matter: a positive best, and a best that does not start at token 0.
    expect(positive).toBeGreaterThan(500);
    expect(ties).toBeGreaterThan(250);
  });

  it("an answer sharing no token with the paragraph: BLEU 0, the last one-token span (every 0 replaces a 0)", () => {
    const state: SearchState = { bleu: null, paragraphId: -1, start: -1, end: -1 };
    searchSpans(["x", "y", "z"], goldModelOf(["a", "b"]), state, 4);
    expect(state).toEqual({ bleu: 0, paragraphId: 4, start: 2, end: 2 });
  });

  it("stops at the first span of BLEU 1 (KILT breaks there), even when a later one would tie shorter", () => {
    const state: SearchState = { bleu: null, paragraphId: -1, start: -1, end: -1 };
    expect(searchSpans(["x", "a", "", "b", "y", "a", "b"], goldModelOf(["a", "b"]), state, 0)).toBe(true);
    expect(state).toEqual({ bleu: 1, paragraphId: 0, start: 1, end: 3 });
  });
});

/**
 * nltk's `sentence_bleu` (nltk/translate/bleu_score.py, nltk 3.x) without smoothing, and KILT's
 * `get_bleu` over it. Unsmoothed: an n-gram order with no match counts as `sys.float_info.min`, so
 * the score is tiny but positive; only no unigram match at all gives 0.
 */

import { isPythonSpace } from "./normalize";

/** Python's `sys.float_info.min`, what nltk's smoothing method 0 puts in place of a zero precision. */
export const FLOAT_MIN = 2.2250738585072014e-308;

/** Python's `math.fsum`: the correctly rounded sum (Shewchuk's partials, CPython's final rounding). */
export function fsum(values: readonly number[]): number {
  const partials: number[] = [];
  for (const value of values) {
    let x = value;
    let i = 0;
    for (const p of partials) {
      const [big, small] = Math.abs(x) < Math.abs(p) ? [p, x] : [x, p];
      const hi = big + small;
      const lo = small - (hi - big);
      if (lo !== 0) partials[i++] = lo;
      x = hi;
    }
    partials.length = i;
    partials.push(x);
  }
  let n = partials.length;
  if (n === 0) return 0;
  let hi = partials[--n]!;
  let lo = 0;
  while (n > 0) {
    const x = hi;
    const y = partials[--n]!;
    hi = x + y;
    lo = y - (hi - x);
    if (lo !== 0) break;
  }
  // Round half to even across the remaining partials, as CPython does.
  if (n > 0 && ((lo < 0 && partials[n - 1]! < 0) || (lo > 0 && partials[n - 1]! > 0))) {
    const y = lo * 2;
    const x = hi + y;
    if (y === x - hi) hi = x;
  }
  return hi;
}

/** nltk's `brevity_penalty(closest_ref_len, hyp_len)`. */
export function brevityPenalty(referenceLength: number, hypothesisLength: number): number {
  if (hypothesisLength > referenceLength) return 1;
  if (hypothesisLength === 0) return 0;
  return Math.exp(1 - referenceLength / hypothesisLength);
}

function ngramCounts(tokens: readonly string[], n: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i + n <= tokens.length; i++) {
    const key = tokens.slice(i, i + n).join("\u0000");
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** nltk's `modified_precision` for one reference: clipped matches and max(1, hypothesis n-grams). */
export function modifiedPrecision(
  reference: readonly string[],
  hypothesis: readonly string[],
  n: number,
): { numerator: number; denominator: number } {
  const hyp = ngramCounts(hypothesis, n);
  const ref = ngramCounts(reference, n);
  let numerator = 0;
  let total = 0;
  for (const [gram, count] of hyp) {
    numerator += Math.min(count, ref.get(gram) ?? 0);
    total += count;
  }
  return { numerator, denominator: Math.max(1, total) };
}

/** The BLEU of the precisions' numerators and denominators (orders 1…k) and the two lengths. */
export function bleuOf(
  numerators: readonly number[],
  denominators: readonly number[],
  weights: readonly number[],
  referenceLength: number,
  hypothesisLength: number,
): number {
  if (numerators[0] === 0) return 0;
  const bp = brevityPenalty(referenceLength, hypothesisLength);
  const terms = weights.map((w, i) => {
    const num = numerators[i]!;
    return w * Math.log(num === 0 ? FLOAT_MIN : num / denominators[i]!);
  });
  return bp * Math.exp(fsum(terms));
}

/** nltk's `sentence_bleu([reference], hypothesis, weights)` with no smoothing function. */
export function sentenceBleu(reference: readonly string[], hypothesis: readonly string[], weights: readonly number[]): number {
  if (weights.length === 0) throw new Error("BLEU needs at least one weight");
  const numerators: number[] = [];
  const denominators: number[] = [];
  for (let n = 1; n <= weights.length; n++) {
    const p = modifiedPrecision(reference, hypothesis, n);
    numerators.push(p.numerator);
    denominators.push(p.denominator);
  }
  return bleuOf(numerators, denominators, weights, reference.length, hypothesis.length);
}

/** KILT's weights for an answer of `length` tokens: 1/4 each, or 1/length for each order below 4. */
export function kiltWeights(length: number): number[] {
  return length < 4 ? Array.from({ length }, () => 1 / length) : [0.25, 0.25, 0.25, 0.25];
}

/** Python's `len(token.strip()) > 0`. */
export function isNotBlank(token: string): boolean {
  for (const ch of token) if (!isPythonSpace(ch.codePointAt(0)!)) return true;
  return false;
}

/** KILT's `get_bleu(candidate, gold)`: blank tokens dropped, the gold as nltk's hypothesis. */
export function getBleu(candidate: readonly string[], gold: readonly string[]): number {
  const reference = candidate.filter(isNotBlank);
  const hypothesis = gold.filter(isNotBlank);
  return sentenceBleu(reference, hypothesis, kiltWeights(hypothesis.length));
}

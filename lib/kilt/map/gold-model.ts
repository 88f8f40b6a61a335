/**
 * The answer side of KILT's BLEU, computed once per evidence: its n-grams (orders 1…4, or up to its
 * length) with their counts, and the score of a span from its length and clipped matches alone.
 * A span's BLEU (the answer as nltk's hypothesis, the span as the reference) depends only on the
 * span's length in non-blank tokens and, per order, the clipped count of the answer's n-grams in it.
 */
import { brevityPenalty, FLOAT_MIN, fsum, kiltWeights } from "./bleu";

export interface GoldModel {
  /** The answer's length in tokens (nltk's hyp_len) and its highest n-gram order. */
  length: number;
  orders: number;
  /** Token → vocabulary id. */
  vocabulary: Map<string, number>;
  /** Per order k (index k-1): key (previous order's gram index × vocabulary size + token id) → gram index. */
  grams: Map<number, number>[];
  /** Per order: each gram's count in the answer (the clip). */
  counts: number[][];
  weights: number[];
  /** Per order: max(1, the answer's number of n-grams), nltk's denominator. */
  denominators: number[];
  /** exp(fsum(w·log p)) by the clipped counts' code, memoised. */
  factors: Map<number, number>;
  /** The brevity penalty by the span's length, memoised. */
  penalties: number[];
}

export function goldModelOf(gold: readonly string[]): GoldModel {
  const length = gold.length;
  const weights = kiltWeights(length);
  const orders = weights.length;
  const vocabulary = new Map<string, number>();
  for (const t of gold) if (!vocabulary.has(t)) vocabulary.set(t, vocabulary.size);
  const size = vocabulary.size;
  const grams: Map<number, number>[] = [];
  const counts: number[][] = [];
  let previous: number[] = gold.map((t) => vocabulary.get(t)!);
  for (let k = 1; k <= orders; k++) {
    const map = new Map<number, number>();
    const count: number[] = [];
    const current: number[] = [];
    for (let i = 0; i + k <= length; i++) {
      const key = k === 1 ? previous[i]! : previous[i]! * size + vocabulary.get(gold[i + k - 1]!)!;
      let g = map.get(key);
      if (g === undefined) map.set(key, (g = count.push(0) - 1));
      count[g]!++;
      current.push(g);
    }
    grams.push(map);
    counts.push(count);
    previous = current;
  }
  const denominators = weights.map((_, i) => Math.max(1, length - i));
  return { length, orders, vocabulary, grams, counts, weights, denominators, factors: new Map(), penalties: [] };
}

/** The precision part of BLEU, exp(fsum(wₖ·log pₖ)), from the clipped counts (the first non-zero). */
export function precisionFactor(model: GoldModel, clipped: readonly number[]): number {
  const base = model.length + 1;
  const memo = model.length <= 1000;
  let code = 0;
  if (memo) for (let k = model.orders - 1; k >= 0; k--) code = code * base + clipped[k]!;
  const known = memo ? model.factors.get(code) : undefined;
  if (known !== undefined) return known;
  const terms = model.weights.map((w, i) => w * Math.log(clipped[i] === 0 ? FLOAT_MIN : clipped[i]! / model.denominators[i]!));
  const factor = Math.exp(fsum(terms));
  if (memo) model.factors.set(code, factor);
  return factor;
}

/** nltk's brevity penalty of a span of `referenceLength` non-blank tokens against the answer. */
export function penaltyOf(model: GoldModel, referenceLength: number): number {
  return (model.penalties[referenceLength] ??= brevityPenalty(referenceLength, model.length));
}

/** nltk's BLEU of a span with `referenceLength` non-blank tokens and these clipped counts. */
export function spanBleu(model: GoldModel, referenceLength: number, clipped: readonly number[]): number {
  if (clipped[0] === 0) return 0;
  return penaltyOf(model, referenceLength) * precisionFactor(model, clipped);
}

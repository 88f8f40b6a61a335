/**
 * KILT's span search over one candidate paragraph, with the same answer as scoring every span with
 * `get_bleu` (quadratic in spans, each scored from scratch), found faster:
 * - a row (one first token, growing last token) keeps the clipped n-gram counts incrementally, so a
 *   span costs a few array reads and a memoised precision factor;
 * - a row stops once the brevity penalty alone falls below the best BLEU (a span's BLEU is at most
 *   its brevity penalty, which only falls as the span grows), and a row is skipped when even the
 *   whole rest of the paragraph could not reach the best (clipped counts only grow with the span).
 * Skipped spans score strictly below the best so far, so they could neither win nor tie.
 */
import { isNotBlank } from "./bleu";
import { penaltyOf, precisionFactor, spanBleu, type GoldModel } from "./gold-model";

/** The best span so far of KILT's search, carried from one candidate paragraph to the next. */
export interface SearchState {
  /** null until a span has been scored (KILT's `max_bleu = None`). */
  bleu: number | null;
  paragraphId: number;
  /** Token indexes of the span's first and last token (both inclusive). */
  start: number;
  end: number;
}

/**
 * KILT's update rule, exactly as its condition reads: a better BLEU wins; while the best is 0 (or
 * unset) every span wins; an equal BLEU wins only when the best span starts after token 0 and the
 * new span is at least two tokens shorter (`end + 1 - init < end_token - start_token`).
 */
export function replacesBest(state: SearchState, bleu: number, init: number, end: number): boolean {
  if (!state.bleu || bleu > state.bleu) return true;
  return bleu === state.bleu && state.end !== 0 && state.start !== 0 && end + 1 - init < state.end - state.start;
}

/**
 * Plain arrays of small integers, not typed arrays: a typed array's buffer lives outside the JS heap
 * and, allocated per search, let the process's RSS double before the collector freed them.
 */
type Ints = number[];
const filled = (length: number, value: number): Ints => new Array<number>(length).fill(value);

interface ParagraphGrams {
  /** Per token: its index among the non-blank tokens, or -1 for a blank one. */
  position: Ints;
  /** Per order k (index k-1), per non-blank position: the answer's k-gram ending there, or -1. */
  grams: Ints[];
  /** The number of non-blank tokens. */
  size: number;
}

function paragraphGramsOf(tokens: readonly string[], model: GoldModel): ParagraphGrams {
  const position = filled(tokens.length, -1);
  const ids: number[] = [];
  tokens.forEach((t, i) => {
    if (!isNotBlank(t)) return;
    position[i] = ids.length;
    ids.push(model.vocabulary.get(t) ?? -1);
  });
  const size = ids.length;
  const vocabularySize = model.vocabulary.size;
  const grams: Ints[] = [];
  let previous = ids.map((id) => (id >= 0 ? model.grams[0]!.get(id)! : -1));
  grams.push(previous);
  for (let k = 2; k <= model.orders; k++) {
    const current = filled(size, -1);
    for (let q = k - 1; q < size; q++) {
      const prefix = previous[q - 1]!;
      const id = ids[q]!;
      if (prefix >= 0 && id >= 0) current[q] = model.grams[k - 1]!.get(prefix * vocabularySize + id) ?? -1;
    }
    grams.push(current);
    previous = current;
  }
  return { position, grams, size };
}

/** The clipped counts of the answer's n-grams in the non-blank tokens from position `from` to the end. */
function suffixCounts(model: GoldModel, pg: ParagraphGrams): { counts: Ints[]; clipped: number[] } {
  const counts = model.counts.map((c) => filled(c.length, 0));
  const clipped = new Array<number>(model.orders).fill(0);
  for (let k = 1; k <= model.orders; k++) {
    const grams = pg.grams[k - 1]!;
    for (let q = k - 1; q < pg.size; q++) {
      const g = grams[q]!;
      if (g >= 0 && counts[k - 1]![g]!++ < model.counts[k - 1]![g]!) clipped[k - 1]!++;
    }
  }
  return { counts, clipped };
}

/** Takes the grams starting at non-blank position `q` out of the suffix counts. */
function dropFirst(model: GoldModel, pg: ParagraphGrams, suffix: { counts: Ints[]; clipped: number[] }, q: number): void {
  for (let k = 1; k <= model.orders && q + k - 1 < pg.size; k++) {
    const g = pg.grams[k - 1]![q + k - 1]!;
    if (g >= 0 && suffix.counts[k - 1]![g]!-- <= model.counts[k - 1]![g]!) suffix.clipped[k - 1]!--;
  }
}

/**
 * KILT's search over one paragraph's tokens (every `init`, then every `end`), with the answer's
 * model. Updates `state`; true when a span reached BLEU 1 (KILT stops there).
 */
export function searchSpans(tokens: readonly string[], model: GoldModel, state: SearchState, paragraphId: number): boolean {
  const pg = paragraphGramsOf(tokens, model);
  const suffix = suffixCounts(model, pg);
  const row = { counts: model.counts.map((c) => filled(c.length, 0)), clipped: new Array<number>(model.orders).fill(0) };
  const last = tokens.length - 1;
  for (let init = 0; init <= last; init++) {
    if (suffix.clipped[0] === 0) {
      // No span from here on shares a token with the answer: each scores 0, replacing only a best of 0.
      if (!state.bleu) Object.assign(state, { bleu: 0, paragraphId, start: last, end: last });
      return false;
    }
    const skip = !!state.bleu && precisionFactor(model, suffix.clipped) < state.bleu;
    if (!skip && searchRow(pg, model, row, state, paragraphId, init, last)) return true;
    if (pg.position[init]! >= 0) dropFirst(model, pg, suffix, pg.position[init]!);
  }
  return false;
}

function searchRow(
  pg: ParagraphGrams,
  model: GoldModel,
  row: { counts: Ints[]; clipped: number[] },
  state: SearchState,
  paragraphId: number,
  init: number,
  last: number,
): boolean {
  for (const c of row.counts) c.fill(0);
  row.clipped.fill(0);
  let length = 0;
  for (let end = init; end <= last; end++) {
    const q = pg.position[end]!;
    if (q >= 0) {
      length++;
      for (let k = 1; k <= model.orders && k <= length; k++) {
        const g = pg.grams[k - 1]![q]!;
        if (g >= 0 && row.counts[k - 1]![g]!++ < model.counts[k - 1]![g]!) row.clipped[k - 1]!++;
      }
      // A span's BLEU is at most its brevity penalty, which only falls from here on.
      if (state.bleu && penaltyOf(model, length) < state.bleu) return false;
    }
    const bleu = spanBleu(model, length, row.clipped);
    if (replacesBest(state, bleu, init, end)) Object.assign(state, { bleu, paragraphId, start: init, end });
    if (state.bleu === 1) return true;
  }
  return false;
}

import { getBleu } from "./bleu";

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
 * KILT's span search over one paragraph's tokens, span by span (every `init`, then every `end`),
 * scoring each with `get_bleu`. Updates `state`; true when a span reached BLEU 1 (KILT stops there).
 */
export function searchSpans(tokens: readonly string[], gold: readonly string[], state: SearchState, paragraphId: number): boolean {
  for (let init = 0; init < tokens.length; init++) {
    for (let end = init; end < tokens.length; end++) {
      const bleu = getBleu(tokens.slice(init, end + 1), gold);
      if (replacesBest(state, bleu, init, end)) Object.assign(state, { bleu, paragraphId, start: init, end });
      if (state.bleu === 1) return true;
    }
  }
  return false;
}

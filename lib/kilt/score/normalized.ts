import { normalizeAnswer } from "@/lib/kilt/answer-overlap";

/**
 * `normalizeAnswer` of a gold's strings (its answers, titles and input), remembered: a leaderboard
 * scores every run against a question's golds one after the other, and each gold's strings would
 * otherwise be normalised again for every run and gold that reads them. A few questions' worth is
 * kept (emptied when full); the result is the function's, whatever is remembered. Guesses' strings
 * are not remembered: each is read once per gold.
 */
const remembered = new Map<string, string>();
const MAX_REMEMBERED = 2_000;

export function normalizedGold(s: string): string {
  let out = remembered.get(s);
  if (out === undefined) {
    if (remembered.size >= MAX_REMEMBERED) remembered.clear();
    out = normalizeAnswer(s);
    remembered.set(s, out);
  }
  return out;
}

import { answerWords, normalizeAnswer } from "@/lib/kilt/answer-overlap";

/**
 * A gold's strings as the scorer reads them (normalised, their words, as ROUGE reads them),
 * remembered: a leaderboard scores every run against a question's golds one after the other, and
 * each gold's strings would otherwise be read again for every run and gold that reads them. A few
 * questions' worth is kept (emptied when full); the result is the function's, whatever is
 * remembered. Guesses' strings are not remembered here: each is read once per guess
 * (retrieval.ts keeps them with the guess record).
 */
const MAX_REMEMBERED = 2_000;

/** `f`, remembered for the last strings it was asked (at most MAX_REMEMBERED). */
export function rememberedOf<T>(f: (s: string) => T): (s: string) => T {
  const remembered = new Map<string, T>();
  return (s) => {
    if (remembered.has(s)) return remembered.get(s)!;
    if (remembered.size >= MAX_REMEMBERED) remembered.clear();
    const out = f(s);
    remembered.set(s, out);
    return out;
  };
}

export const normalizedGold: (s: string) => string = rememberedOf(normalizeAnswer);

/** `answerWords(normalizedGold(s))`: a gold answer's words, which every run's answer is compared with (F1). */
export const normalizedGoldWords: (s: string) => readonly string[] = rememberedOf((s) => answerWords(normalizedGold(s)));

import { answerWords, normalizeAnswer } from "@/lib/kilt/answer-overlap";
import { normalizedGold, normalizedGoldWords } from "./normalized";
import { pyStrip } from "./python";
import { guessIdsOf, rPrecision } from "./retrieval";
import { rougeLOf, rougeTextOf, rougeTextOfGold } from "./rouge";
import type { GoldRecord, GuessRecord } from "./types";

/**
 * KILT's downstream figures for one question (`kilt/eval_downstream.py`, `_calculate_metrics`).
 * An empty answer counts the question but scores nothing; the KILT variants count only where the
 * page-level R-precision is 1. Pure.
 */

export interface DownstreamOfQuestion {
  accuracy: number;
  em: number;
  f1: number;
  rougel: number;
  /** Page-level R-precision = 1: the KILT variants take the figures above. */
  provenanceRight: boolean;
}

const NOTHING: DownstreamOfQuestion = { accuracy: 0, em: 0, f1: 0, rougel: 0, provenanceRight: false };

/** KILT's `_f1_score`: token F1 of the normalised answers (bags of words). */
export function f1Score(prediction: string, groundTruth: string): number {
  return f1OfWords(answerWords(normalizeAnswer(prediction)), answerWords(normalizeAnswer(groundTruth)));
}

/** `f1Score` of the words of the two normalised answers. */
function f1OfWords(predicted: readonly string[], truth: readonly string[]): number {
  const counts = new Map<string, number>();
  for (const t of truth) counts.set(t, (counts.get(t) ?? 0) + 1);
  let same = 0;
  for (const t of predicted) {
    const left = counts.get(t) ?? 0;
    if (left > 0) {
      same++;
      counts.set(t, left - 1);
    }
  }
  if (same === 0) return 0;
  const precision = (1.0 * same) / predicted.length;
  const recall = (1.0 * same) / truth.length;
  return (2 * precision * recall) / (precision + recall);
}

/** The best of a metric over the gold answers (KILT's `_metric_max_over_ground_truths`); 0 without answers, where Python raises. */
function best(answers: readonly string[], score: (truth: string) => number): number {
  let top = -Infinity;
  for (const a of answers) top = Math.max(top, score(a));
  return top === -Infinity ? 0 : top;
}

/** A guess's answer figures against a gold's answers (they do not depend on provenance). */
export type AnswerFigures = Omit<DownstreamOfQuestion, "provenanceRight">;

/** The answer figures of a guess; null when its answer is empty (it then scores nothing). */
export function answerFiguresOf(answers: readonly string[], guess: GuessRecord): AnswerFigures | null {
  const answer = pyStrip(guess.answer ?? "");
  if (answer.length === 0) return null;
  const normalised = normalizeAnswer(answer);
  const predicted = answerWords(normalised);
  const text = rougeTextOf(answer);
  return {
    accuracy: answers.includes(answer) ? 1 : 0,
    em: best(answers, (a) => (normalizedGold(a) === normalised ? 1 : 0)),
    f1: best(answers, (a) => f1OfWords(predicted, normalizedGoldWords(a))),
    rougel: best(answers, (a) => rougeLOf(text, rougeTextOfGold(a))),
  };
}

/** `answered`: the guess's answer figures against these same answers, when the caller has them (another gold with the same answers). */
export function downstreamOfQuestion(
  gold: GoldRecord,
  guess: GuessRecord,
  answered: AnswerFigures | null = answerFiguresOf(gold.answers, guess),
): DownstreamOfQuestion {
  return downstreamOf(answered, rPrecision(gold, guessIdsOf(guess, "page"), "page"));
}

/** The downstream figures of answer figures (null: an empty answer) with the page-level R-precision already computed. */
export function downstreamOf(answered: AnswerFigures | null, pageRPrecision: number): DownstreamOfQuestion {
  if (!answered) return NOTHING;
  // Written out, not spread: this runs for every guess and gold of a leaderboard.
  const { accuracy, em, f1, rougel } = answered;
  return { accuracy, em, f1, rougel, provenanceRight: pageRPrecision === 1 };
}

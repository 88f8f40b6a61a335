import { answerWords, normalizeAnswer } from "@/lib/kilt/answer-overlap";
import { pyStrip } from "./python";
import { idsOf, rPrecision } from "./retrieval";
import { rougeL } from "./rouge";
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
  const predicted = answerWords(normalizeAnswer(prediction));
  const truth = answerWords(normalizeAnswer(groundTruth));
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

type AnswerFigures = Omit<DownstreamOfQuestion, "provenanceRight">;

/**
 * The answer figures last computed for a guess, with the answers they were computed against: a
 * question's golds mostly share their answers (the endorsed and both golds keep the original's), so
 * a guess scored against each of them normalises its answer and theirs once.
 */
const lastAnswerFigures = new WeakMap<GuessRecord, { answer: string | null; answers: readonly string[]; figures: AnswerFigures }>();

function answerFiguresOf(answers: readonly string[], answer: string): AnswerFigures {
  const normalised = normalizeAnswer(answer);
  return {
    accuracy: answers.includes(answer) ? 1 : 0,
    em: best(answers, (a) => (normalizeAnswer(a) === normalised ? 1 : 0)),
    f1: best(answers, (a) => f1Score(answer, a)),
    rougel: best(answers, (a) => rougeL(answer, a)),
  };
}

export function downstreamOfQuestion(gold: GoldRecord, guess: GuessRecord): DownstreamOfQuestion {
  const answer = pyStrip(guess.answer ?? "");
  if (answer.length === 0) return NOTHING;
  const last = lastAnswerFigures.get(guess);
  let figures: AnswerFigures;
  if (last && last.answer === guess.answer && sameStrings(last.answers, gold.answers)) figures = last.figures;
  else
    lastAnswerFigures.set(guess, {
      answer: guess.answer,
      answers: [...gold.answers],
      figures: (figures = answerFiguresOf(gold.answers, answer)),
    });
  return { ...figures, provenanceRight: rPrecision(gold, idsOf(guess.provenance, "page"), "page") === 1 };
}

const sameStrings = (a: readonly string[], b: readonly string[]) => a === b || (a.length === b.length && a.every((x, i) => x === b[i]));

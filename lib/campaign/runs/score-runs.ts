import "server-only";
import type { Db } from "@/db/client";
import { ScoreAccumulator } from "@/lib/kilt/score/accumulate";
import type { Level, ScoreOptions } from "@/lib/kilt/score/types";
import type { CampaignView } from "../campaigns";
import { sameStrings } from "./golds";
import { GoldCounts, scoredQuestions } from "./scored-pages";
import type { OriginalOver, PerGold, RunView } from "./runs.contract";
import type { GoldRecord, GuessRecord, KiltResult } from "@/lib/kilt/score/types";

// The uncached scorer: every question's golds rebuilt from the campaign's outcomes as they are now,
// and each run scored on every question. The leaderboard reads it through score-cache.ts; tests
// compare the cache with it. Internal: callers authorize first.

/** A run's accumulators: one per gold, and the original gold's over each other gold's questions. */
export type Accumulators = PerGold<ScoreAccumulator> & { originalOver: Record<keyof OriginalOver, ScoreAccumulator> };

/** A run's figures per gold, the questions they are over, and the original gold's figures over each other gold's questions. */
export interface RunScores {
  scores: PerGold<KiltResult>;
  questions: PerGold<number>;
  originalOver: OriginalOver;
}

export interface ScoredRuns {
  golds: PerGold<{ questions: number }>;
  runs: Map<number, RunScores>;
}

/**
 * The accumulators of a run: one per gold (the figures its predictions give: retrieval when it ranks,
 * downstream when it answers), and the original gold's over the questions of each other gold.
 */
export function accumulatorsOf(run: Pick<RunView, "hasProvenance" | "hasAnswers">, ks: number[], levels: Level[]): Accumulators {
  const options: ScoreOptions = { ks, levels: run.hasProvenance ? levels : [], downstream: run.hasAnswers };
  const acc = () => new ScoreAccumulator(options);
  return { original: acc(), endorsed: acc(), both: acc(), originalOver: { endorsed: acc(), both: acc() } };
}

export function runScoresOf(acc: Accumulators): RunScores {
  const { endorsed, both } = acc.originalOver;
  return {
    scores: { original: acc.original.result(), endorsed: acc.endorsed.result(), both: acc.both.result() },
    questions: { original: acc.original.questions, endorsed: acc.endorsed.questions, both: acc.both.questions },
    originalOver: {
      endorsed: { scores: endorsed.result(), questions: endorsed.questions },
      both: { scores: both.result(), questions: both.questions },
    },
  };
}

/**
 * Scores runs against the three golds as they are now: every question of the campaign, a page at a
 * time, into one ScoreAccumulator per run and gold; a question not in a gold is left out of it (as
 * KILT scores only its gold file's ids), and so is a question a run has no prediction for.
 */
export async function scoreRuns(db: Db, campaign: CampaignView, runList: RunView[], ks: number[], levels: Level[]): Promise<ScoredRuns> {
  const accumulators = new Map(runList.map((r) => [r.id, accumulatorsOf(r, ks, levels)]));
  const golds = new GoldCounts();
  for await (const { golds: gold, guesses } of scoredQuestions(
    db,
    campaign,
    runList.map((r) => r.id),
  )) {
    golds.add(gold);
    addGuesses(accumulators, gold, guesses);
  }
  return { golds: golds.counts, runs: new Map([...accumulators].map(([id, acc]) => [id, runScoresOf(acc)])) };
}

/**
 * Adds a question's golds with a run's guess to its accumulators (sign -1: takes them out). The
 * original gold's figures are computed once and added to the three accumulators that take them, and
 * the guess's answer figures once for the golds with the original's answers (the endorsed and both
 * golds keep them): the run's accumulators share their options.
 */
export function addQuestion(acc: Accumulators, gold: PerGold<GoldRecord | null>, guess: GuessRecord, sign: 1 | -1 = 1): void {
  const original = gold.original ? acc.original.figuresOf(gold.original, guess) : null;
  if (original) acc.original.addFigures(original, sign);
  for (const g of ["endorsed", "both"] as const) {
    const record = gold[g];
    if (!record) continue;
    const shared = original?.downstream && sameStrings(record.answers, gold.original!.answers) ? original.downstream.answers : undefined;
    acc[g].addFigures(acc[g].figuresOf(record, guess, shared), sign);
    if (original) acc.originalOver[g].addFigures(original, sign);
  }
}

/** A question's golds added to the accumulators of each run that has a guess for it (a run without one leaves it out). */
export function addGuesses(
  accs: Map<number, Accumulators>,
  golds: PerGold<GoldRecord | null>,
  guesses: Map<number, GuessRecord> | undefined,
): void {
  for (const [runId, guess] of guesses ?? []) addQuestion(accs.get(runId)!, golds, guess);
}

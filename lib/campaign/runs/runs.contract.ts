import { z } from "zod";
import { pageSize, searchText } from "@/lib/list-options.contract";
import type { RankDetail } from "@/lib/kilt/score/detail";
import type { KiltResult, Level } from "@/lib/kilt/score/types";
import { headlineMetric, KILT_DATASETS, TASK_KIND_NAMES, type HeadlineMetric, type TaskKind } from "@/lib/kilt/task-kind";

// The shapes and options of the runs API (GET/POST /api/campaigns/:id/runs…, …/leaderboard), apart
// from the queries, so that pages, the browser client and the CLI can use them. Pure, client-safe.

/** The three golds a run is scored against: the questions' imported lines, the campaign's endorsed provenance alone, and both (the KILT export). */
export const GOLDS = ["original", "endorsed", "both"] as const;
export type Gold = (typeof GOLDS)[number];
export type PerGold<T> = Record<Gold, T>;

/** A run as the API lists it. */
export interface RunView {
  id: number;
  name: string;
  createdAt: string;
  /** The uploader's username (null: the account is gone, or the app itself). */
  createdBy: string | null;
  /** Predictions stored (the campaign's questions at upload). */
  questions: number;
  /** Every line had `provenance` (retrieval figures) / `answer` (downstream figures). */
  hasProvenance: boolean;
  hasAnswers: boolean;
}

/** A run's name: 1 to 80 characters, unique in its campaign. */
export const runNameSchema = z
  .string({ error: "must be a text" })
  .trim()
  .min(1, "must not be empty")
  .refine((s) => Array.from(s).length <= 80, "must be at most 80 characters");

/** The ks of the leaderboard when none are asked. */
export const DEFAULT_KS = [1, 5, 10] as const;
/** The ks of a run's results download. */
export const RESULT_KS = [1, 3, 5, 10] as const;

const levelSchema = z.enum(["page", "paragraph"], { error: "must be page or paragraph" });

/** `?ks=1,5,10`: 1 to 10 distinct positive integers of at most 100, sorted. */
const ksSchema = z
  .string()
  .trim()
  .regex(/^\d+(,\d+)*$/, "must be a comma-separated list of positive integers, e.g. 1,5,10")
  .transform((s) => [...new Set(s.split(",").map(Number))].sort((a, b) => a - b))
  .refine((ks) => ks.every((k) => k >= 1 && k <= 100), "each k must be 1 to 100")
  .refine((ks) => ks.length <= 10, "at most 10 values of k");

/** `GET /api/campaigns/:id/leaderboard?level=page|paragraph&ks=1,5,10`. */
export const leaderboardQuerySchema = z.object({
  level: levelSchema.default("page"),
  ks: ksSchema.optional().transform((ks) => ks ?? [...DEFAULT_KS]),
});
export type LeaderboardQuery = z.infer<typeof leaderboardQuerySchema>;

/** KILT's variant of each downstream metric: the figure counted only where page-level R-precision is 1. */
export const KILT_VARIANT = {
  accuracy: "KILT-accuracy",
  em: "KILT-em",
  f1: "KILT-f1",
  rougel: "KILT-rougel",
} as const satisfies Record<HeadlineMetric, string>;

/** What the leaderboard leads each run's row with: the KILT headline metric of the campaign's batches, its KILT variant beside it. */
export interface LeaderboardHeadline {
  /** The downstream figure (`downstream.downstream[metric]`). */
  metric: HeadlineMetric;
  /** Its KILT variant (`downstream.kilt[kiltMetric]`). */
  kiltMetric: (typeof KILT_VARIANT)[HeadlineMetric];
  /** The batches' tasks and datasets behind it (KILT keys; a batch without a named dataset adds none), in a fixed order. */
  kinds: TaskKind[];
  datasets: string[];
  /** The batches lead with different metrics: then EM leads, the one KILT's evaluator computes alike on every dataset. */
  mixed: boolean;
  /** Why, in a sentence the page shows. */
  reason: string;
}

const metricName: Record<HeadlineMetric, string> = { accuracy: "accuracy", em: "EM", f1: "F1", rougel: "ROUGE-L" };

/**
 * The leaderboard's headline from the campaign's batches (those holding questions): the KILT headline
 * metric of their datasets (accuracy for FEVER, AIDA, WNED, T-REx, zsRE; EM for NQ, TriviaQA,
 * HotpotQA; ROUGE-L for ELI5; F1 for Wizard of Wikipedia), or of their kind when no dataset is
 * named. When the batches lead with different metrics the campaign is mixed and EM leads: KILT
 * computes it for every dataset, and one figure over all questions needs one metric. No batch: EM.
 */
export function leaderboardHeadline(batches: readonly { taskKind: TaskKind; dataset: string | null }[]): LeaderboardHeadline {
  const kinds = [...new Set(batches.map((b) => b.taskKind))].sort();
  const datasets = [...new Set(batches.flatMap((b) => (b.dataset ? [b.dataset] : [])))].sort();
  const metrics = [...new Set(batches.map((b) => headlineMetric(b.taskKind, b.dataset)))];
  const mixed = metrics.length > 1;
  const metric: HeadlineMetric = metrics.length === 1 ? metrics[0]! : "em";
  const nameOf = (b: { taskKind: TaskKind; dataset: string | null }) =>
    b.dataset ? (KILT_DATASETS[b.dataset]?.name ?? b.dataset) : TASK_KIND_NAMES[b.taskKind];
  const names = [...new Set(batches.map(nameOf))].sort();
  const withMetrics = [...new Set(batches.map((b) => `${nameOf(b)} (${metricName[headlineMetric(b.taskKind, b.dataset)]})`))].sort();
  const reason = mixed
    ? `The batches mix ${withMetrics.join(", ")}: each run leads with EM, which KILT's evaluator computes alike on every dataset, and KILT-em beside it.`
    : batches.length
      ? `Each run leads with ${metricName[metric]}, KILT's headline metric for ${names.join(", ")}, and ${KILT_VARIANT[metric]} beside it.`
      : "No batch yet: each run leads with EM, and KILT-em beside it.";
  return { metric, kiltMetric: KILT_VARIANT[metric], kinds, datasets, mixed, reason };
}

export interface Leaderboard {
  level: Level;
  ks: number[];
  /** The figure each row leads with, and why. */
  headline: LeaderboardHeadline;
  /** Questions in each gold (a question not in a gold is left out of that gold's scores). */
  golds: PerGold<{ questions: number }>;
  computedAt: string;
  /**
   * Per run: its figures per gold, and how many questions they are over (fewer than the gold's when
   * questions came to the campaign after the run); and its figures against the original gold over
   * only the questions of the endorsed gold, and of the both gold, so that a gold is compared with
   * the original over the same questions (the endorsed and both golds leave out the unanswerable).
   */
  rows: { run: RunView; scores: PerGold<KiltResult>; questions: PerGold<number>; originalOver: OriginalOver }[];
}

/** The original gold's figures over the questions another gold holds (`questions`: how many were scored). */
export type OriginalOver = Record<Exclude<Gold, "original">, { scores: KiltResult; questions: number }>;

/** A run's results download: page and paragraph retrieval at RESULT_KS, and downstream, per gold. */
export type RunResults = PerGold<KiltResult>;

/** `GET …/runs/:runId/questions?after=&limit=&q=&level=`: `after` the question id ending the page before; `level` of the figures (page by default). */
export const runQuestionListQuerySchema = z.object({
  q: searchText,
  after: z.coerce.number().int().positive("must be a question id").optional(),
  limit: pageSize(200, 50),
  level: levelSchema.default("page"),
});
export type RunQuestionListQuery = z.infer<typeof runQuestionListQuerySchema>;

export interface RunQuestionRow {
  /** The question's id (the keyset of the list). */
  id: number;
  kiltId: string;
  input: string;
  /** R-precision against each gold; null when the question is not in that gold (or the run has no provenance). */
  rprec: PerGold<number | null>;
  /** 1-based rank in the run's list where a gold evidence set is first complete; null when none is (or not in that gold). */
  firstCompleteRank: PerGold<number | null>;
}

export interface RunQuestionPage {
  questions: RunQuestionRow[];
  next: number | null;
}

/** `GET …/runs/:runId/questions/:kiltId?level=page|paragraph`. */
export const runQuestionQuerySchema = z.object({ level: levelSchema.default("page") });

export interface RunQuestionDetail {
  question: { kiltId: string; input: string; answers: string[] };
  /** The run's answer, and its ranked list at the level (deduplicated as KILT ranks it). */
  guess: { answer: string | null; ranked: RankDetail["ranked"] };
  golds: PerGold<RankDetail | null>;
}

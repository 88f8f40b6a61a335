// The leaderboard's columns: which figure of KILT's dictionaries each metric reads, how it is
// shown, and the sort of runs by one metric against one gold. Pure, so it is unit-testable.
import type { KiltResult } from "@/lib/kilt/score/types";
import type { Level } from "@/lib/kilt/score/types";
import type { Gold, Leaderboard } from "@/components/api/runs";

export { GOLDS } from "@/lib/campaign/runs/runs.contract";

export const GOLD_LABEL: Record<Gold, string> = { original: "Original", endorsed: "Endorsed", both: "Both" };

export const GOLD_HINT: Record<Gold, string> = {
  original: "the questions’ imported provenance",
  endorsed: "only the passages the campaign endorsed",
  both: "the KILT export: original and endorsed",
};

export interface Metric {
  key: string;
  label: string;
  /** What the head's title says about it. */
  description: string;
  downstream: boolean;
  value: (result: KiltResult | undefined, level: Level) => number | undefined;
}

const retrieval = (key: string, label: string, description: string): Metric => ({
  key,
  label,
  description,
  downstream: false,
  value: (r, level) => (r?.[level] as Record<string, number> | undefined)?.[key],
});

const downstream = (group: "kilt" | "downstream", key: string, label: string, description: string): Metric => ({
  key: `${group}:${key}`,
  label,
  description,
  downstream: true,
  value: (r) => (r?.downstream?.[group] as Record<string, number> | undefined)?.[key],
});

export const RETRIEVAL_METRICS: Metric[] = [
  retrieval("Rprec", "R-precision", "R-precision, best over the gold’s evidence sets"),
  retrieval("precision@1", "P@1", "precision at rank 1"),
  retrieval("recall@5", "R@5", "recall at rank 5"),
  retrieval("success_rate@5", "Success@5", "a complete evidence set within the top 5"),
  retrieval("answer_in_context@5", "Answer in context@5", "an answer in the text of the top 5"),
];

export const DOWNSTREAM_METRICS: Metric[] = [
  downstream("downstream", "accuracy", "Accuracy", "the answer is one of the gold answers, exactly"),
  downstream("kilt", "KILT-accuracy", "KILT-accuracy", "accuracy where page R-precision is 1"),
  downstream("downstream", "em", "EM", "exact match of the answer"),
  downstream("downstream", "f1", "F1", "token F1 of the answer"),
  downstream("kilt", "KILT-em", "KILT-EM", "exact match where page R-precision is 1"),
  downstream("kilt", "KILT-f1", "KILT-F1", "F1 where page R-precision is 1"),
  downstream("downstream", "rougel", "ROUGE-L", "ROUGE-L F of the answer"),
  downstream("kilt", "KILT-rougel", "KILT-ROUGE-L", "ROUGE-L where page R-precision is 1"),
];

/**
 * The two metrics every row leads with when some run answers: the campaign's KILT headline metric
 * (`board.headline`, e.g. accuracy for FEVER) and its KILT variant; none when no run answers.
 */
export function headlineMetrics(board: Leaderboard): Metric[] {
  if (!board.rows.some((r) => r.run.hasAnswers)) return [];
  const keys = [`downstream:${board.headline.metric}`, `kilt:${board.headline.kiltMetric}`];
  return keys.map((k) => DOWNSTREAM_METRICS.find((m) => m.key === k)!);
}

/** The metrics to show: retrieval when some run has provenance, downstream when some run has answers. */
export function metricsOf(board: Leaderboard): Metric[] {
  const provenance = board.rows.some((r) => r.run.hasProvenance);
  const answers = board.rows.some((r) => r.run.hasAnswers);
  return [...(provenance || !answers ? RETRIEVAL_METRICS : []), ...(answers ? DOWNSTREAM_METRICS : [])];
}

/** A figure as the leaderboard prints it: three decimals, "—" when the run has none. */
export const formatScore = (v: number | undefined | null): string =>
  v === undefined || v === null || Number.isNaN(v) ? "—" : v.toFixed(3);

type Row = Leaderboard["rows"][number];

/** One run's figure of a metric against a gold; none when the run was scored over no question of that gold (KILT's zeros would mislead). */
export function figure(board: Leaderboard, row: Row, metric: Metric, gold: Gold): number | undefined {
  if (board.golds[gold].questions === 0 || row.questions?.[gold] === 0) return undefined;
  return metric.value(row.scores[gold], board.level);
}

/** A column: one metric against one gold. */
export interface SortKey {
  metric: string;
  gold: Gold;
  dir: "asc" | "desc";
}

/** The rows ordered by one column (a run without the figure last), ties by name; none: as the API sent them. */
export function sortRows(board: Leaderboard, metrics: Metric[], sort: SortKey | null): Leaderboard["rows"] {
  if (!sort) return board.rows;
  const metric = metrics.find((m) => m.key === sort.metric);
  if (!metric) return board.rows;
  const sign = sort.dir === "asc" ? 1 : -1;
  return [...board.rows].sort((a, b) => {
    const va = figure(board, a, metric, sort.gold);
    const vb = figure(board, b, metric, sort.gold);
    if (va === undefined || vb === undefined) return va === vb ? a.run.name.localeCompare(b.run.name) : va === undefined ? 1 : -1;
    return va === vb ? a.run.name.localeCompare(b.run.name) : sign * (va - vb);
  });
}

/** The next sort after a click on a column head: a new column sorts best first, the same one flips. */
export function nextSort(current: SortKey | null, metric: string, gold: Gold): SortKey {
  if (current && current.metric === metric && current.gold === gold) return { metric, gold, dir: current.dir === "desc" ? "asc" : "desc" };
  return { metric, gold, dir: "desc" };
}

/**
 * How a gold's figure compares with the original gold's, only ever over the same questions: the
 * original gold's figure over the questions that gold holds (`row.originalOver`). "differ" when the
 * two were scored over different questions (then no mark can say which is higher): these against
 * the original's.
 */
export type Comparison =
  | { kind: "none" }
  | { kind: "same"; over: number }
  | { kind: "higher" | "lower"; over: number }
  | { kind: "differ"; these: number; original: number };

export function compareWithOriginal(board: Leaderboard, row: Row, metric: Metric, gold: Gold): Comparison {
  if (gold === "original") return { kind: "none" };
  const v = figure(board, row, metric, gold);
  if (v === undefined) return { kind: "none" };
  const paired = row.originalOver?.[gold];
  if (!paired || paired.questions !== row.questions[gold]) {
    const original = paired?.questions ?? row.questions.original;
    return figure(board, row, metric, "original") === undefined
      ? { kind: "none" }
      : { kind: "differ", these: row.questions[gold], original };
  }
  const o = metric.value(paired.scores, board.level);
  if (o === undefined) return { kind: "none" };
  if (Math.abs(v - o) <= 1e-12) return { kind: "same", over: paired.questions };
  return { kind: v > o ? "higher" : "lower", over: paired.questions };
}

/** The metrics shown when none were chosen, beside the headline pair (`headlineMetrics`) that leads every row when a run answers: R-precision and R@5. */
export const DEFAULT_METRICS = ["Rprec", "recall@5"] as const;

/**
 * The metrics to show of those the board has: the chosen ones (keys, in the board's order) when any
 * of them is there, else the defaults there, else the board's first.
 */
export function shownMetrics(available: Metric[], chosen: readonly string[] | null): Metric[] {
  const pick = (keys: readonly string[]) => available.filter((m) => keys.includes(m.key));
  if (chosen) {
    const mine = pick(chosen);
    if (mine.length > 0) return mine;
  }
  const defaults = pick(DEFAULT_METRICS);
  return defaults.length > 0 ? defaults : available.slice(0, 1);
}

/** `?metrics=Rprec,kilt:KILT-em` → the keys of known metrics (unknown ones dropped); null when none is given. */
export function parseMetricKeys(param: string | null): string[] | null {
  if (!param) return null;
  const known = new Set([...RETRIEVAL_METRICS, ...DOWNSTREAM_METRICS].map((m) => m.key));
  const keys = param.split(",").filter((k) => known.has(k));
  return keys.length > 0 ? keys : null;
}

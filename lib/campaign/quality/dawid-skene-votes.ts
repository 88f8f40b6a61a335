/**
 * The shared part of the Dawid–Skene fits (dawid-skene.ts): the types, the votes indexed once,
 * the majority-vote initialisation, gold clamping, priors and the result read off the posteriors.
 */
import "server-only";

export type Verdict = "sufficient" | "insufficient";
export interface Vote {
  passage: string;
  annotator: string;
  verdict: Verdict;
}
export interface FitOptions {
  /** Passages whose verdict is known: their posterior is clamped to it at every step. */
  gold?: ReadonlyMap<string, Verdict>;
  /** The maximum number of EM iterations (crowd-kit's `n_iter`). Default 100. */
  nIter?: number;
  /** Stop when the loss grows by less than this (crowd-kit's `tol`). Default 1e-5. */
  tol?: number;
}
export interface DawidSkeneFit {
  model: "dawid-skene";
  pSufficient: Map<string, number>;
  labels: Map<string, Verdict>;
  priors: { sufficient: number; insufficient: number };
  /** annotator -> "observed|true" -> P(observed | true). */
  errors: Map<string, Record<string, number>>;
}
export interface OneCoinFit {
  model: "one-coin";
  pSufficient: Map<string, number>;
  labels: Map<string, Verdict>;
  priors: { sufficient: number; insufficient: number };
  /** annotator -> probability of giving the true verdict. */
  skills: Map<string, number>;
}

/** How the fit went, beside the figures: for summaries and the bench. */
export interface FitTrace {
  iterations: number;
  lossHistory: number[];
  passages: number;
  annotators: number;
}

/** crowd-kit's `_EPS`: 10^-10. */
export const EPS = 1e-10;

const VERDICTS: readonly Verdict[] = ["insufficient", "sufficient"];

/** Votes indexed once: passages and annotators numbered in order of first appearance. */
export interface Indexed {
  passages: string[];
  annotators: string[];
  classes: Verdict[];
  K: number;
  /** Per vote: passage, annotator-and-observed cell (annotator * K + observed class), observed class. */
  task: Int32Array;
  cell: Int32Array;
  label: Int32Array;
  /** Per cell: whether the annotator ever gave that verdict. */
  present: Uint8Array;
  /** Votes per annotator. */
  perAnnotator: Float64Array;
  /** Per passage: the clamped class, or -1. */
  goldClass: Int32Array;
}

export function indexVotes(votes: readonly Vote[], gold: ReadonlyMap<string, Verdict> | undefined): Indexed {
  const passageIds = new Map<string, number>();
  const annotatorIds = new Map<string, number>();
  const passages: string[] = [];
  const annotators: string[] = [];
  const n = votes.length;
  const task = new Int32Array(n);
  const worker = new Int32Array(n);
  const verdict = new Uint8Array(n);
  const seen = [false, false];
  // Votes usually come grouped by passage: the previous vote's passage is checked before the map.
  let lastPassage: string | undefined;
  let lastTask = -1;
  for (let i = 0; i < n; i++) {
    const v = votes[i]!;
    let t = v.passage === lastPassage ? lastTask : passageIds.get(v.passage);
    if (t === undefined) {
      t = passages.length;
      passageIds.set(v.passage, t);
      passages.push(v.passage);
    }
    let w = annotatorIds.get(v.annotator);
    if (w === undefined) {
      w = annotators.length;
      annotatorIds.set(v.annotator, w);
      annotators.push(v.annotator);
    }
    const c = v.verdict === "sufficient" ? 1 : v.verdict === "insufficient" ? 0 : -1;
    if (c < 0) throw new Error(`vote ${i + 1}: verdict must be "sufficient" or "insufficient"`);
    lastPassage = v.passage;
    lastTask = t;
    task[i] = t;
    worker[i] = w;
    verdict[i] = c;
    seen[c] = true;
  }
  // Gold only counts for passages that have votes (crowd-kit intersects the indexes).
  const goldByTask: [number, number][] = [];
  if (gold) {
    for (const [passage, g] of gold) {
      const t = passageIds.get(passage);
      if (t === undefined) continue;
      const c = g === "sufficient" ? 1 : g === "insufficient" ? 0 : -1;
      if (c < 0) throw new Error(`gold ${passage}: verdict must be "sufficient" or "insufficient"`);
      goldByTask.push([t, c]);
      seen[c] = true;
    }
  }
  const classes = VERDICTS.filter((_, c) => seen[c]);
  const K = classes.length;
  const classOf = [seen[0] ? 0 : -1, seen[0] ? 1 : 0];
  const label = new Int32Array(n);
  const cell = new Int32Array(n);
  const present = new Uint8Array(annotators.length * K);
  const perAnnotator = new Float64Array(annotators.length);
  for (let i = 0; i < n; i++) {
    const c = classOf[verdict[i]!]!;
    label[i] = c;
    const k = worker[i]! * K + c;
    cell[i] = k;
    present[k] = 1;
    perAnnotator[worker[i]!]! += 1;
  }
  const goldClass = new Int32Array(passages.length).fill(-1);
  for (const [t, c] of goldByTask) goldClass[t] = classOf[c]!;
  return { passages, annotators, classes, K, task, cell, label, present, perAnnotator, goldClass };
}

/** Each passage's vote shares (crowd-kit's `MajorityVote().fit_predict_proba`). */
export function majorityProbas(ix: Indexed): Float64Array {
  const { K, task, label } = ix;
  const T = ix.passages.length;
  const probas = new Float64Array(T * K);
  const totals = new Float64Array(T);
  for (let i = 0; i < task.length; i++) {
    probas[task[i]! * K + label[i]!]! += 1;
    totals[task[i]!]! += 1;
  }
  for (let t = 0; t < T; t++) for (let c = 0; c < K; c++) probas[t * K + c]! /= totals[t]!;
  return probas;
}

export function clampGold(ix: Indexed, probas: Float64Array): void {
  const { K, goldClass } = ix;
  for (let t = 0; t < goldClass.length; t++) {
    const g = goldClass[t]!;
    if (g < 0) continue;
    for (let c = 0; c < K; c++) probas[t * K + c] = c === g ? 1 : 0;
  }
}

export function meanPriors(ix: Indexed, probas: Float64Array): Float64Array {
  const { K } = ix;
  const T = ix.passages.length;
  const priors = new Float64Array(K);
  for (let t = 0; t < T; t++) for (let c = 0; c < K; c++) priors[c]! += probas[t * K + c]!;
  for (let c = 0; c < K; c++) priors[c]! /= T;
  return priors;
}

/** The figures every fit returns: per passage P(sufficient) and the most probable verdict; the priors. */
export function fitResult(raw: { ix: Indexed; probas: Float64Array; priors: Float64Array }) {
  const { ix, probas, priors } = raw;
  const { K, classes } = ix;
  const s = classes.indexOf("sufficient");
  const pSufficient = new Map<string, number>();
  const labels = new Map<string, Verdict>();
  for (let t = 0; t < ix.passages.length; t++) {
    const passage = ix.passages[t]!;
    pSufficient.set(passage, s < 0 ? 0 : probas[t * K + s]!);
    // The first most probable class, as pandas' idxmax.
    let best = 0;
    for (let c = 1; c < K; c++) if (probas[t * K + c]! > probas[t * K + best]!) best = c;
    labels.set(passage, classes[best]!);
  }
  const prior = (v: Verdict) => {
    const c = classes.indexOf(v);
    return c < 0 ? 0 : priors[c]!;
  };
  return { pSufficient, labels, priors: { sufficient: prior("sufficient"), insufficient: prior("insufficient") } };
}

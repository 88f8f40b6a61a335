/**
 * Dawid–Skene and its one-coin variant over sufficiency verdicts: pure functions, no database.
 *
 * They compute what crowd-kit computes (Toloka/crowd-kit, `crowdkit/aggregation/classification/
 * dawid_skene.py`: `DawidSkene` and `OneCoinDawidSkene`), step for step, so that the fixtures in
 * `test/fixtures/aggregation/` agree to 1e-6:
 *
 * - the classes are the verdicts that occur, in sorted order ("insufficient" before "sufficient"),
 *   so that a tie between them goes to "insufficient" as pandas' `idxmax` gives it;
 * - initialisation: each passage's majority-vote distribution (vote shares), gold passages clamped
 *   to their verdict, priors = the mean distribution, then one M-step;
 * - E-step: log2 prior (clipped below at `EPS`) plus the sum of log2 error cells of the passage's
 *   votes, shifted by the row's maximum, exponentiated and normalised; gold passages clamped again;
 * - M-step (Dawid–Skene): per annotator and observed verdict, the summed posteriors of the passages
 *   they gave it to, clipped below at `EPS`, divided by the annotator's column sums. A verdict an
 *   annotator never gave has no row (and is absent from `errors`);
 * - M-step (one-coin): an annotator's skill is the mean posterior of the verdicts they gave; their
 *   error cells are the skill on the diagonal and (1 − skill)/(K − 1) off it, clipped to
 *   [EPS, 1 − EPS];
 * - after each M-step the loss is the evidence lower bound per vote; iteration stops when it grows
 *   by less than `tol`, or after `nIter` steps. Computing the entropy term clips the posteriors
 *   below at `EPS` in place (crowd-kit does this too), so the returned posteriors are clipped and
 *   not renormalised: a clamped gold passage reads 1e-10, not 0.
 *
 * Where this differs from crowd-kit: crowd-kit's `OneCoinDawidSkene` takes no gold; here it takes
 * gold and clamps it as `DawidSkene` does. And when gold names a verdict that no vote gave (every
 * vote "sufficient", a gold "insufficient"), crowd-kit appends a column that is NaN outside the gold
 * rows (its first prior then reads 1); here that verdict simply becomes a class with zero votes.
 *
 * Fitting costs O(votes × classes) per iteration over typed arrays: votes are indexed once.
 */

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
interface Indexed {
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

function index(votes: readonly Vote[], gold: ReadonlyMap<string, Verdict> | undefined): Indexed {
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
function majorityProbas(ix: Indexed): Float64Array {
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

function clampGold(ix: Indexed, probas: Float64Array): void {
  const { K, goldClass } = ix;
  for (let t = 0; t < goldClass.length; t++) {
    const g = goldClass[t]!;
    if (g < 0) continue;
    for (let c = 0; c < K; c++) probas[t * K + c] = c === g ? 1 : 0;
  }
}

function meanPriors(ix: Indexed, probas: Float64Array): Float64Array {
  const { K } = ix;
  const T = ix.passages.length;
  const priors = new Float64Array(K);
  for (let t = 0; t < T; t++) for (let c = 0; c < K; c++) priors[c]! += probas[t * K + c]!;
  for (let c = 0; c < K; c++) priors[c]! /= T;
  return priors;
}

/** Per (annotator, observed, true): the summed posteriors of `true` over the votes in that cell. */
function cellSums(ix: Indexed, probas: Float64Array, out: Float64Array): Float64Array {
  const { K, task, cell } = ix;
  out.fill(0);
  for (let i = 0; i < task.length; i++) {
    const base = cell[i]! * K;
    const p = task[i]! * K;
    for (let c = 0; c < K; c++) out[base + c]! += probas[p + c]!;
  }
  return out;
}

/** Dawid–Skene's M-step: clipped cell sums over the annotator's column sums. */
function errorsFromSums(ix: Indexed, sums: Float64Array, errors: Float64Array): void {
  const { K, present } = ix;
  const W = ix.annotators.length;
  const column = new Float64Array(K);
  for (let w = 0; w < W; w++) {
    column.fill(0);
    for (let o = 0; o < K; o++) {
      const k = w * K + o;
      if (!present[k]) continue;
      for (let c = 0; c < K; c++) {
        const v = Math.max(sums[k * K + c]!, EPS);
        errors[k * K + c] = v;
        column[c]! += v;
      }
    }
    for (let o = 0; o < K; o++) {
      const k = w * K + o;
      if (!present[k]) continue;
      for (let c = 0; c < K; c++) errors[k * K + c]! /= column[c]!;
    }
  }
}

/** One-coin's M-step: skill = mean posterior of the verdicts given; cells from the skill. */
function skillsFromSums(ix: Indexed, sums: Float64Array, skills: Float64Array, errors: Float64Array): void {
  const { K, present, perAnnotator } = ix;
  const W = ix.annotators.length;
  for (let w = 0; w < W; w++) {
    let right = 0;
    for (let o = 0; o < K; o++) {
      const k = w * K + o;
      if (present[k]) right += sums[k * K + o]!;
    }
    skills[w] = right / perAnnotator[w]!;
  }
  for (let w = 0; w < W; w++) {
    const s = skills[w]!;
    const off = K > 1 ? (1 - s) / (K - 1) : 0;
    for (let o = 0; o < K; o++) {
      const k = w * K + o;
      if (!present[k]) continue;
      for (let c = 0; c < K; c++) errors[k * K + c] = Math.min(Math.max(c === o ? s : off, EPS), 1 - EPS);
    }
  }
}

/** E-step: posteriors from the priors and the error cells, in log2 space, row-shifted. */
function eStep(ix: Indexed, priors: Float64Array, errors: Float64Array, probas: Float64Array): void {
  const { K, task, cell } = ix;
  const T = ix.passages.length;
  const logErrors = new Float64Array(errors.length);
  for (let k = 0; k < errors.length; k++) logErrors[k] = Math.log2(errors[k]!);
  probas.fill(0);
  for (let i = 0; i < task.length; i++) {
    const base = cell[i]! * K;
    const p = task[i]! * K;
    for (let c = 0; c < K; c++) probas[p + c]! += logErrors[base + c]!;
  }
  const logPriors = new Float64Array(K);
  for (let c = 0; c < K; c++) logPriors[c] = Math.log2(Math.max(priors[c]!, EPS));
  for (let t = 0; t < T; t++) {
    const p = t * K;
    let max = -Infinity;
    for (let c = 0; c < K; c++) {
      const v = logPriors[c]! + probas[p + c]!;
      probas[p + c] = v;
      if (v > max) max = v;
    }
    let sum = 0;
    for (let c = 0; c < K; c++) {
      const v = Math.pow(2, probas[p + c]! - max);
      probas[p + c] = v;
      sum += v;
    }
    for (let c = 0; c < K; c++) probas[p + c]! /= sum;
  }
}

/**
 * The evidence lower bound per vote. The joint term is summed per cell (the cell sums are the
 * posteriors the M-step used); the entropy term clips the posteriors below at EPS in place.
 */
function elbo(ix: Indexed, probas: Float64Array, priors: Float64Array, errors: Float64Array, sums: Float64Array): number {
  const { K, present } = ix;
  const logPriors = new Float64Array(K);
  for (let c = 0; c < K; c++) logPriors[c] = Math.log(Math.max(priors[c]!, EPS));
  let joint = 0;
  for (let k = 0; k < present.length; k++) {
    if (!present[k]) continue;
    for (let c = 0; c < K; c++) joint += sums[k * K + c]! * (Math.log(errors[k * K + c]!) + logPriors[c]!);
  }
  let entropy = 0;
  for (let j = 0; j < probas.length; j++) {
    const q = Math.max(probas[j]!, EPS);
    probas[j] = q;
    entropy -= Math.log(q) * q;
  }
  return (joint + entropy) / ix.task.length;
}

type Model = "dawid-skene" | "one-coin";

interface RawFit {
  ix: Indexed;
  probas: Float64Array;
  priors: Float64Array;
  errors: Float64Array;
  skills: Float64Array;
  trace: FitTrace;
}

function fit(model: Model, votes: readonly Vote[], options: FitOptions): RawFit {
  const nIter = options.nIter ?? 100;
  const tol = options.tol ?? 1e-5;
  const ix = index(votes, options.gold);
  const { K } = ix;
  const W = ix.annotators.length;
  const sums = new Float64Array(W * K * K);
  const errors = new Float64Array(W * K * K);
  const skills = new Float64Array(W);
  const trace: FitTrace = { iterations: 0, lossHistory: [], passages: ix.passages.length, annotators: W };
  if (!votes.length) return { ix, probas: new Float64Array(0), priors: new Float64Array(K), errors, skills, trace };

  const mStep = (probas: Float64Array) => {
    cellSums(ix, probas, sums);
    if (model === "dawid-skene") errorsFromSums(ix, sums, errors);
    else skillsFromSums(ix, sums, skills, errors);
  };

  let probas = majorityProbas(ix);
  clampGold(ix, probas);
  let priors = meanPriors(ix, probas);
  mStep(probas);
  let loss = -Infinity;
  const next = new Float64Array(probas.length);
  for (let it = 0; it < nIter; it++) {
    eStep(ix, priors, errors, next);
    clampGold(ix, next);
    probas = next;
    priors = meanPriors(ix, probas);
    mStep(probas);
    const newLoss = elbo(ix, probas, priors, errors, sums);
    trace.lossHistory.push(newLoss);
    trace.iterations = it + 1;
    if (newLoss - loss < tol) break;
    loss = newLoss;
  }
  return { ix, probas, priors, errors, skills, trace };
}

function common(raw: RawFit) {
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

/** Dawid–Skene with the trace of its iterations. */
export function fitDawidSkeneTraced(votes: readonly Vote[], options: FitOptions = {}): { fit: DawidSkeneFit; trace: FitTrace } {
  const raw = fit("dawid-skene", votes, options);
  const { ix, errors } = raw;
  const { K, classes, present } = ix;
  const byAnnotator = new Map<string, Record<string, number>>();
  for (let w = 0; w < ix.annotators.length; w++) {
    const matrix: Record<string, number> = {};
    for (let o = 0; o < K; o++) {
      const k = w * K + o;
      if (!present[k]) continue;
      for (let c = 0; c < K; c++) matrix[`${classes[o]}|${classes[c]}`] = errors[k * K + c]!;
    }
    byAnnotator.set(ix.annotators[w]!, matrix);
  }
  return { fit: { model: "dawid-skene", ...common(raw), errors: byAnnotator }, trace: raw.trace };
}

/** One-coin Dawid–Skene with the trace of its iterations. */
export function fitOneCoinDawidSkeneTraced(votes: readonly Vote[], options: FitOptions = {}): { fit: OneCoinFit; trace: FitTrace } {
  const raw = fit("one-coin", votes, options);
  const skills = new Map<string, number>();
  for (let w = 0; w < raw.ix.annotators.length; w++) skills.set(raw.ix.annotators[w]!, raw.skills[w]!);
  return { fit: { model: "one-coin", ...common(raw), skills }, trace: raw.trace };
}

/**
 * crowd-kit's `DawidSkene(n_iter, tol).fit(votes, true_labels=gold)`: each passage's posterior of
 * "sufficient", its most probable verdict, the class priors and each annotator's error matrix.
 */
export function fitDawidSkene(votes: readonly Vote[], options?: FitOptions): DawidSkeneFit {
  return fitDawidSkeneTraced(votes, options).fit;
}

/**
 * crowd-kit's `OneCoinDawidSkene(n_iter, tol).fit(votes)`: as Dawid–Skene, with one skill per
 * annotator instead of a matrix. Gold, which crowd-kit's one-coin does not take, clamps as in
 * `fitDawidSkene`.
 */
export function fitOneCoinDawidSkene(votes: readonly Vote[], options?: FitOptions): OneCoinFit {
  return fitOneCoinDawidSkeneTraced(votes, options).fit;
}

/**
 * Majority vote, as crowd-kit's `MajorityVote`: each passage's share of "sufficient" votes and its
 * most voted verdict (ties: "insufficient", the first in sorted order). The baseline beside the
 * models, in the same process.
 */
export function majorityVote(votes: readonly Vote[]): { pSufficient: Map<string, number>; labels: Map<string, Verdict> } {
  const ix = index(votes, undefined);
  const probas = majorityProbas(ix);
  return common({ ix, probas, priors: new Float64Array(ix.K), errors: new Float64Array(0), skills: new Float64Array(0), trace: { iterations: 0, lossHistory: [], passages: 0, annotators: 0 } });
}

/**
 * Each annotator's estimated chance of giving the true verdict, best first (ties by id): one-coin's
 * skill, or for Dawid–Skene the prior-weighted diagonal Σ_c prior(c)·P(says c | c), where a
 * verdict the annotator never gave counts 0 (an always-"sufficient" annotator scores the prior of
 * "sufficient").
 */
export function annotatorSkills(fit: DawidSkeneFit | OneCoinFit): Map<string, number> {
  let entries: [string, number][];
  if (fit.model === "one-coin") entries = [...fit.skills];
  else {
    entries = [...fit.errors].map(([annotator, cells]) => [
      annotator,
      fit.priors.sufficient * (cells["sufficient|sufficient"] ?? 0) + fit.priors.insufficient * (cells["insufficient|insufficient"] ?? 0),
    ]);
  }
  entries.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return new Map(entries);
}

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

import "server-only";
import { fit } from "./dawid-skene-em";
import {
  type DawidSkeneFit,
  type FitOptions,
  type FitTrace,
  fitResult,
  indexVotes,
  majorityProbas,
  type OneCoinFit,
  type Verdict,
  type Vote,
} from "./dawid-skene-votes";

export { EPS, type DawidSkeneFit, type FitOptions, type FitTrace, type OneCoinFit, type Verdict, type Vote } from "./dawid-skene-votes";

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
  return { fit: { model: "dawid-skene", ...fitResult(raw), errors: byAnnotator }, trace: raw.trace };
}

/** One-coin Dawid–Skene with the trace of its iterations. */
export function fitOneCoinDawidSkeneTraced(votes: readonly Vote[], options: FitOptions = {}): { fit: OneCoinFit; trace: FitTrace } {
  const raw = fit("one-coin", votes, options);
  const skills = new Map<string, number>();
  for (let w = 0; w < raw.ix.annotators.length; w++) skills.set(raw.ix.annotators[w]!, raw.skills[w]!);
  return { fit: { model: "one-coin", ...fitResult(raw), skills }, trace: raw.trace };
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
  const ix = indexVotes(votes, undefined);
  const probas = majorityProbas(ix);
  return fitResult({ ix, probas, priors: new Float64Array(ix.K) });
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

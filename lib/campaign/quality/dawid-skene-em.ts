/**
 * The EM loop of the Dawid–Skene fits (dawid-skene.ts): the M-steps (Dawid–Skene's error matrices,
 * one-coin's skills), the E-step and the evidence lower bound, as crowd-kit computes them.
 */

import "server-only";
import {
  clampGold,
  EPS,
  type FitOptions,
  type FitTrace,
  type Indexed,
  indexVotes,
  majorityProbas,
  meanPriors,
  type Vote,
} from "./dawid-skene-votes";

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

export type Model = "dawid-skene" | "one-coin";

export interface RawFit {
  ix: Indexed;
  probas: Float64Array;
  priors: Float64Array;
  errors: Float64Array;
  skills: Float64Array;
  trace: FitTrace;
}

export function fit(model: Model, votes: readonly Vote[], options: FitOptions): RawFit {
  const nIter = options.nIter ?? 100;
  const tol = options.tol ?? 1e-5;
  const ix = indexVotes(votes, options.gold);
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

// Synthetic judgments for bench/aggregate: like the aggregation fixtures (test/fixtures/aggregation),
// R = 3 annotators per passage drawn from a pool of careful (92% right), honest (75%),
// always-"sufficient", always-"insufficient" and random annotators; about a third of the passages
// truly sufficient. Deterministic for a seed (bench/rng.ts).
import type { Verdict, Vote } from "@/lib/campaign/quality/dawid-skene";
import { Rng } from "../rng";

export const KINDS = ["careful", "honest", "always-sufficient", "always-insufficient", "random"] as const;
export type Kind = (typeof KINDS)[number];
/** The pool's mix: mostly careful and honest, one in five a spammer of some kind. */
const MIX: [Kind, number][] = [
  ["careful", 0.45],
  ["honest", 0.35],
  ["always-sufficient", 0.08],
  ["always-insufficient", 0.04],
  ["random", 0.08],
];

export interface Synthetic {
  votes: Vote[];
  truth: Map<string, Verdict>;
  /** About 10% of the passages, with their true verdict (as a campaign's gold). */
  gold: Map<string, Verdict>;
  annotators: number;
}

function kindOf(rng: Rng): Kind {
  let x = rng.next();
  for (const [kind, share] of MIX) {
    if (x < share) return kind;
    x -= share;
  }
  return "careful";
}

function answer(kind: Kind, truth: Verdict, rng: Rng): Verdict {
  const other: Verdict = truth === "sufficient" ? "insufficient" : "sufficient";
  switch (kind) {
    case "careful":
      return rng.chance(0.92) ? truth : other;
    case "honest":
      return rng.chance(0.75) ? truth : other;
    case "always-sufficient":
      return "sufficient";
    case "always-insufficient":
      return "insufficient";
    case "random":
      return rng.chance(0.5) ? "sufficient" : "insufficient";
  }
}

/** `judgments` votes (rounded down to a multiple of 3) over judgments / 3 passages. */
export function synthetic(judgments: number, seed: number): Synthetic {
  const rng = new Rng(seed);
  const passages = Math.floor(judgments / 3);
  const annotators = Math.max(12, Math.round(judgments / 1000));
  const kinds = Array.from({ length: annotators }, () => kindOf(rng));
  const ids = kinds.map((k, i) => `a${String(i).padStart(5, "0")}-${k}`);
  const votes: Vote[] = [];
  const truth = new Map<string, Verdict>();
  const gold = new Map<string, Verdict>();
  for (let p = 0; p < passages; p++) {
    const passage = `p${String(p).padStart(7, "0")}`;
    const t: Verdict = rng.chance(1 / 3) ? "sufficient" : "insufficient";
    truth.set(passage, t);
    if (rng.chance(0.1)) gold.set(passage, t);
    const a = rng.int(0, annotators - 1);
    let b = rng.int(0, annotators - 2);
    if (b >= a) b++;
    let c = rng.int(0, annotators - 3);
    for (const x of [Math.min(a, b), Math.max(a, b)]) if (c >= x) c++;
    for (const w of [a, b, c]) votes.push({ passage, annotator: ids[w]!, verdict: answer(kinds[w]!, t, rng) });
  }
  return { votes, truth, gold, annotators };
}

import { downstreamOfQuestion } from "./downstream";
import { rankingMetrics } from "./retrieval";
import type { DownstreamScores, GoldRecord, GuessRecord, KiltResult, Level, RetrievalScores, ScoreOptions } from "./types";

/**
 * Sums KILT's per-question figures as aligned gold and guess records arrive, one question at a
 * time (nothing per question is kept), and gives the evaluators' dictionaries: the mean over the
 * questions, keys in the order `eval_retrieval.compute` and `eval_downstream.evaluate` write them.
 */

/** The keys of `compute`'s dictionary for these ks, in its order. */
export function retrievalKeys(ks: readonly number[]): string[] {
  const keys = ["Rprec", "entity_in_input"];
  for (const k of ks) {
    keys.push(`precision@${k}`, `answer_in_context@${k}`, `answer_and_ent_in_context@${k}`, `entity_in_context@${k}`);
    if (k > 1) keys.push(`recall@${k}`, `success_rate@${k}`);
  }
  return keys;
}

/** The ks as KILT uses them: ascending. Throws on a k that is not a positive integer or is repeated (KILT would count it twice). */
export function checkedKs(ks: readonly number[]): number[] {
  if (ks.length === 0) throw new RangeError("ks must hold at least one k");
  for (const k of ks) if (!Number.isInteger(k) || k < 1) throw new RangeError(`k must be a positive integer, got ${k}`);
  if (new Set(ks).size !== ks.length) throw new RangeError("ks must not repeat a k");
  return [...ks].sort((a, b) => a - b);
}

const DOWNSTREAM_KS = [1, 5];

class Sums {
  readonly values: Record<string, number>;
  constructor(readonly keys: readonly string[]) {
    this.values = Object.fromEntries(keys.map((k) => [k, 0]));
  }
  add(figures: Record<string, number>): void {
    for (const k of this.keys) this.values[k]! += figures[k]!;
  }
  mean(count: number): RetrievalScores {
    return Object.fromEntries(this.keys.map((k) => [k, count > 0 ? this.values[k]! / count : 0]));
  }
}

export class ScoreAccumulator {
  private count = 0;
  private readonly ks: number[];
  private readonly levels: Sums[];
  private readonly downstream: { sums: Sums; kilt: Sums; retrieval: Sums } | null;

  constructor(private readonly options: ScoreOptions) {
    this.ks = checkedKs(options.ks);
    this.levels = options.levels.map(() => new Sums(retrievalKeys(this.ks)));
    this.downstream = options.downstream
      ? {
          sums: new Sums(["accuracy", "em", "f1", "rougel"]),
          kilt: new Sums(["accuracy", "em", "f1", "rougel"]),
          retrieval: new Sums(["Rprec", "recall@5"]),
        }
      : null;
  }

  get questions(): number {
    return this.count;
  }

  add(gold: GoldRecord, guess: GuessRecord): void {
    this.count++;
    this.options.levels.forEach((level: Level, i) => this.levels[i]!.add(rankingMetrics(gold, guess, this.ks, level)));
    if (!this.downstream) return;
    const d = downstreamOfQuestion(gold, guess);
    this.downstream.sums.add(d as unknown as Record<string, number>);
    if (d.provenanceRight) this.downstream.kilt.add(d as unknown as Record<string, number>);
    this.downstream.retrieval.add(rankingMetrics(gold, guess, DOWNSTREAM_KS, "page"));
  }

  result(): KiltResult {
    const out: KiltResult = {};
    this.options.levels.forEach((level, i) => {
      out[level] = this.levels[i]!.mean(this.count);
    });
    if (this.downstream) out.downstream = downstreamScores(this.downstream, this.count);
    return out;
  }
}

function downstreamScores(d: { sums: Sums; kilt: Sums; retrieval: Sums }, count: number): DownstreamScores {
  const all = d.sums.mean(count);
  const kilt = d.kilt.mean(count);
  const retrieval = d.retrieval.mean(count);
  return {
    kilt: { "KILT-accuracy": kilt.accuracy!, "KILT-em": kilt.em!, "KILT-f1": kilt.f1!, "KILT-rougel": kilt.rougel! },
    downstream: { accuracy: all.accuracy!, em: all.em!, f1: all.f1!, rougel: all.rougel! },
    retrieval: { Rprec: retrieval.Rprec!, "recall@5": retrieval["recall@5"]! },
  };
}

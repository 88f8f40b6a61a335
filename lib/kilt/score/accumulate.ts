import { answerFiguresOf, downstreamOf, type AnswerFigures } from "./downstream";
import { questionContext, rankingFigures, retrievalKeys } from "./retrieval";
import type { DownstreamScores, GoldRecord, GuessRecord, KiltResult, Level, RetrievalScores, ScoreOptions } from "./types";

/**
 * Sums KILT's per-question figures as aligned gold and guess records arrive, one question at a
 * time (nothing per question is kept), and gives the evaluators' dictionaries: the mean over the
 * questions, keys in the order `eval_retrieval.compute` and `eval_downstream.evaluate` write them.
 */

/** The ks as KILT uses them: ascending. Throws on a k that is not a positive integer or is repeated (KILT would count it twice). */
export function checkedKs(ks: readonly number[]): number[] {
  if (ks.length === 0) throw new RangeError("ks must hold at least one k");
  for (const k of ks) if (!Number.isInteger(k) || k < 1) throw new RangeError(`k must be a positive integer, got ${k}`);
  if (new Set(ks).size !== ks.length) throw new RangeError("ks must not repeat a k");
  return [...ks].sort((a, b) => a - b);
}

export { retrievalKeys } from "./retrieval";

/** `eval_downstream.evaluate` reads Rprec and recall@5 of `compute(ks=[1, 5], rank_keys=["wikipedia_id"])`. */
const DOWNSTREAM_KS = [1, 5];
const RECALL_AT_5 = retrievalKeys(DOWNSTREAM_KS).indexOf("recall@5");

/** Running sums of figures given in a fixed key order. */
class Sums {
  private readonly values: Float64Array;
  constructor(readonly keys: readonly string[]) {
    this.values = new Float64Array(keys.length);
  }
  add(figures: readonly number[], sign = 1): void {
    for (let i = 0; i < this.values.length; i++) this.values[i]! += sign * figures[i]!;
  }
  get state(): number[] {
    return [...this.values];
  }
  restore(values: readonly number[]): void {
    if (values.length !== this.values.length) throw new RangeError(`expected ${this.values.length} sums, got ${values.length}`);
    this.values.set(values);
  }
  mean(count: number): RetrievalScores {
    return Object.fromEntries(this.keys.map((k, i) => [k, count > 0 ? this.values[i]! / count : 0]));
  }
}

/** One question's figures: per level, KILT's retrieval figures; the downstream ones when the accumulator takes them. */
export interface QuestionFigures {
  levels: number[][];
  /** `answers`: the answer figures they were made from (null: the guess has no answer), for another gold with the same answers. */
  downstream: { figures: number[]; provenanceRight: boolean; retrieval: number[]; answers: AnswerFigures | null } | null;
}

/** An accumulator's sums and count (JSON), to store it and go on adding and taking out later. */
export interface AccumulatorState {
  count: number;
  sums: number[][];
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

  add(gold: GoldRecord, guess: GuessRecord, sign: 1 | -1 = 1): void {
    this.addFigures(this.figuresOf(gold, guess), sign);
  }

  /**
   * A question's figures as `add` sums them, to add to this accumulator and to others made with the
   * same options. `answered`: the guess's answer figures against the same answers, computed for another gold.
   */
  figuresOf(gold: GoldRecord, guess: GuessRecord, answered?: AnswerFigures | null): QuestionFigures {
    const context = questionContext(gold, guess, Math.max(this.ks.at(-1)!, DOWNSTREAM_KS.at(-1)!));
    const levels = this.options.levels.map((level: Level) => rankingFigures(gold, guess, this.ks, level, context));
    if (!this.downstream) return { levels, downstream: null };
    const answers = answered === undefined ? answerFiguresOf(gold.answers, guess) : answered;
    const page = rankingFigures(gold, guess, DOWNSTREAM_KS, "page", context);
    const d = downstreamOf(answers, page[0]!);
    return {
      levels,
      downstream: {
        figures: [d.accuracy, d.em, d.f1, d.rougel],
        provenanceRight: d.provenanceRight,
        retrieval: [page[0]!, page[RECALL_AT_5]!],
        answers,
      },
    };
  }

  /** Adds (sign -1: takes out) figures from `figuresOf` of an accumulator made with the same options. */
  addFigures(f: QuestionFigures, sign: 1 | -1 = 1): void {
    if (f.levels.length !== this.levels.length || (f.downstream === null) !== (this.downstream === null))
      throw new RangeError("figures of an accumulator made with other options");
    this.count += sign;
    f.levels.forEach((figures, i) => this.levels[i]!.add(figures, sign));
    if (!this.downstream || !f.downstream) return;
    this.downstream.sums.add(f.downstream.figures, sign);
    if (f.downstream.provenanceRight) this.downstream.kilt.add(f.downstream.figures, sign);
    this.downstream.retrieval.add(f.downstream.retrieval, sign);
  }

  /** Takes out a question added before with the same records (its figures subtracted: the sums may differ from never having added it in the last bits). */
  remove(gold: GoldRecord, guess: GuessRecord): void {
    this.add(gold, guess, -1);
  }

  private get allSums(): Sums[] {
    return this.downstream ? [...this.levels, this.downstream.sums, this.downstream.kilt, this.downstream.retrieval] : this.levels;
  }

  get state(): AccumulatorState {
    return { count: this.count, sums: this.allSums.map((s) => s.state) };
  }

  /** Goes on from a stored state of an accumulator made with the same options. */
  restore(state: AccumulatorState): this {
    const sums = this.allSums;
    if (state.sums.length !== sums.length) throw new RangeError(`expected ${sums.length} groups of sums, got ${state.sums.length}`);
    sums.forEach((s, i) => s.restore(state.sums[i]!));
    this.count = state.count;
    return this;
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

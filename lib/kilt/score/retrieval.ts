import { normalizeAnswer } from "@/lib/kilt/answer-overlap";
import { normalizedGold } from "./normalized";
import { RANK_KEYS, type GoldRecord, type GuessRecord, type Level, type ProvItem } from "./types";

/**
 * KILT's retrieval figures for one question (`kilt/eval_retrieval.py`, ported line for line where
 * the result depends on it). Pure.
 */

/** An item's id at a level: the rank keys joined by "+", null when one is missing (`_get_ids_list` skips it). */
export function fullKey(p: ProvItem, level: Level): string | null {
  let out = "";
  for (const [i, k] of RANK_KEYS[level].entries()) {
    const v = p[k];
    if (v === null) return null;
    out = i === 0 ? v : `${out}+${v}`;
  }
  return out;
}

/** The id `get_rank` builds for a gold evidence set's member: the keys it has, joined (missing ones left out). */
function partialKey(p: ProvItem, level: Level): string {
  return RANK_KEYS[level]
    .map((k) => p[k])
    .filter((v): v is string => v !== null)
    .join("+");
}

/** `_get_ids_list` of one provenance list: the full keys, duplicates removed, first occurrence kept. */
export function idsOf(provenance: readonly ProvItem[] | null, level: Level): string[] {
  const seen = new Set<string>();
  const ids: string[] = [];
  for (const p of provenance ?? []) {
    const id = fullKey(p, level);
    if (id !== null && !seen.has(id)) {
      seen.add(id);
      ids.push(id);
    }
  }
  return ids;
}

/** The distinct gold evidence sets (`get_rank` step 1): one per output with provenance, an empty list an empty set. */
export function evidenceSets(gold: GoldRecord, level: Level): Set<string>[] {
  const sets: Set<string>[] = [];
  for (const o of gold.outputs) {
    if (o.provenance === null) continue;
    const set = new Set(o.provenance.map((p) => partialKey(p, level)));
    if (!sets.some((s) => sameSet(s, set))) sets.push(set);
  }
  return sets;
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size !== b.size) return false;
  for (const x of a) if (!b.has(x)) return false;
  return true;
}

/** One point of KILT's rank: a complete evidence set (true), a non-evidence item (false), or a partial set (its index). */
export type RankPoint = true | false | number;

/**
 * KILT's `get_rank`: each evidence set counts as one point, placed where its last member is; a
 * guess id may advance several sets. For distinct guess ids (as `idsOf` gives them), so each set's
 * members not yet met are counted down, and the sets are left as they are (KILT deletes them).
 */
export function rankOf(guessIds: readonly string[], sets: readonly ReadonlySet<string>[]): RankPoint[] {
  const left = sets.map((set) => set.size);
  const rank: RankPoint[] = [];
  for (const id of guessIds) {
    let found = false;
    for (let idx = 0; idx < sets.length; idx++) {
      if (!sets[idx]!.has(id)) continue;
      found = true;
      const at = rank.indexOf(idx);
      if (at !== -1) rank.splice(at, 1);
      rank.push(--left[idx]! === 0 ? true : idx);
    }
    if (!found) rank.push(false);
  }
  return rank;
}

/** What a gold gives every guess at a level: each output's ids (`idsOf`) and its distinct evidence sets (`evidenceSets`). */
interface GoldIds {
  outputs: string[][];
  sets: Set<string>[];
}

/** What a gold gives every guess: its ids per level, and what its context reads (`goldContextOf`). */
interface GoldKept {
  ids: Partial<Record<Level, GoldIds>>;
  context?: GoldContext;
}

/** Kept with the gold record while it lives: a leaderboard scores every run against the same records. */
const goldKept = new WeakMap<GoldRecord, GoldKept>();

function goldKeptOf(gold: GoldRecord): GoldKept {
  let kept = goldKept.get(gold);
  if (!kept) goldKept.set(gold, (kept = { ids: {} }));
  return kept;
}

function goldIdsOf(gold: GoldRecord, level: Level): GoldIds {
  return (goldKeptOf(gold).ids[level] ??= {
    outputs: gold.outputs.map((o) => idsOf(o.provenance, level)),
    sets: evidenceSets(gold, level),
  });
}

/** What a guess gives every gold: its ids per level (`idsOf`) and its items' texts normalised (null: no text), as far as asked. */
interface GuessKept {
  ids: Partial<Record<Level, string[]>>;
  texts: (string | null)[];
}

/** Kept with the guess record while it lives: a leaderboard scores each guess against a question's three golds. */
const guessKept = new WeakMap<GuessRecord, GuessKept>();

function keptOf(guess: GuessRecord): GuessKept {
  let kept = guessKept.get(guess);
  if (!kept) guessKept.set(guess, (kept = { ids: {}, texts: [] }));
  return kept;
}

/** `idsOf` of a guess's provenance, kept with the record (the caller must not change it). */
export function guessIdsOf(guess: GuessRecord, level: Level): readonly string[] {
  return (keptOf(guess).ids[level] ??= idsOf(guess.provenance, level));
}

/** `normalizeAnswer` of the text of a guess's item `i` (null: the item has none), kept with the record. */
function guessText(guess: GuessRecord, i: number): string | null {
  const texts = keptOf(guess).texts;
  if (texts[i] === undefined) {
    const raw = guess.provenance![i]!.text;
    texts[i] = raw === null ? null : normalizeAnswer(raw);
  }
  return texts[i]!;
}

/** KILT's `rprecision`: the best over the gold outputs of |guess[:R] ∩ gold| / R (0 for an output without provenance). */
export function rPrecision(gold: GoldRecord, guessIds: readonly string[], level: Level): number {
  return rPrecisionOf(goldIdsOf(gold, level), guessIds);
}

function rPrecisionOf(gold: GoldIds, guessIds: readonly string[]): number {
  let best = -Infinity;
  for (const goldIds of gold.outputs) {
    const r = goldIds.length;
    let hits = 0;
    for (let i = 0; i < Math.min(r, guessIds.length); i++) if (goldIds.includes(guessIds[i]!)) hits++;
    best = Math.max(best, r > 0 ? hits / r : 0);
  }
  return best === -Infinity ? 0 : best;
}

function trues(rank: readonly RankPoint[], k: number): number {
  let n = 0;
  for (let i = 0; i < Math.min(k, rank.length); i++) if (rank[i] === true) n++;
  return n;
}

/**
 * What a question's figures share across levels and ks: KILT's `*_in_context@k` and
 * `entity_in_input` read the guess's texts and the gold's answers and titles, never the rank keys.
 * Each text is normalised once; a figure @k is 1 when its first hit is among the first k items.
 */
export interface QuestionContext {
  entityInInput: number;
  /** 0-based index of the first guess item whose text holds an answer (resp. an answer and a title, a title); Infinity for none. */
  firstAnswer: number;
  firstAnswerAndEntity: number;
  firstEntity: number;
}

/** What a gold gives every guess's context: its answers and titles normalised, and `entity_in_input`. */
interface GoldContext {
  answers: string[];
  titles: string[];
  entityInInput: number;
}

/** Kept with the gold record while it lives, as its ids are. */
function goldContextOf(gold: GoldRecord): GoldContext {
  const kept = goldKeptOf(gold);
  if (!kept.context) {
    const titles = gold.titles.map(normalizedGold);
    const input = normalizedGold(gold.input);
    kept.context = { answers: gold.answers.map(normalizedGold), titles, entityInInput: titles.some((t) => input.includes(t)) ? 1 : 0 };
  }
  return kept.context;
}

export function questionContext(gold: GoldRecord, guess: GuessRecord, maxK: number): QuestionContext {
  const { answers, titles, entityInInput } = goldContextOf(gold);
  const out: QuestionContext = {
    entityInInput,
    firstAnswer: Infinity,
    firstAnswerAndEntity: Infinity,
    firstEntity: Infinity,
  };
  const items = guess.provenance ?? [];
  for (let i = 0; i < Math.min(maxK, items.length); i++) {
    const text = guessText(guess, i);
    if (text === null) continue;
    const hasAnswer = answers.some((a) => text.includes(a));
    const hasEntity = titles.some((t) => text.includes(t));
    if (hasAnswer && out.firstAnswer === Infinity) out.firstAnswer = i;
    if (hasAnswer && hasEntity && out.firstAnswerAndEntity === Infinity) out.firstAnswerAndEntity = i;
    if (hasEntity && out.firstEntity === Infinity) out.firstEntity = i;
  }
  return out;
}

/**
 * KILT's `get_ranking_metrics` for one question, as the values of `retrievalKeys(ks)` in order
 * (Rprec, entity_in_input, then per k ascending precision, the three in-context figures, and for
 * k > 1 recall and success rate).
 */
export function rankingFigures(
  gold: GoldRecord,
  guess: GuessRecord,
  ks: readonly number[],
  level: Level,
  context: QuestionContext,
): number[] {
  const guessIds = guessIdsOf(guess, level);
  const goldIds = goldIdsOf(gold, level);
  const out = [rPrecisionOf(goldIds, guessIds), context.entityInInput];
  const sets = guessIds.length > 0 ? goldIds.sets : [];
  const distinct = sets.length;
  const rank = distinct > 0 ? rankOf(guessIds, sets) : [];
  for (const k of ks) {
    const found = distinct > 0 ? trues(rank, k) : 0;
    out.push(
      distinct > 0 ? found / k : 0,
      context.firstAnswer < k ? 1 : 0,
      context.firstAnswerAndEntity < k ? 1 : 0,
      context.firstEntity < k ? 1 : 0,
    );
    if (k > 1) out.push(distinct > 0 ? found / distinct : 0, found > 0 ? 1 : 0);
  }
  return out;
}

/** The keys of `compute`'s dictionary for these ks (ascending), in its order. */
export function retrievalKeys(ks: readonly number[]): string[] {
  const keys = ["Rprec", "entity_in_input"];
  for (const k of ks) {
    keys.push(`precision@${k}`, `answer_in_context@${k}`, `answer_and_ent_in_context@${k}`, `entity_in_context@${k}`);
    if (k > 1) keys.push(`recall@${k}`, `success_rate@${k}`);
  }
  return keys;
}

/** KILT's `get_ranking_metrics` for one question, by key (ks ascending). */
export function rankingMetrics(gold: GoldRecord, guess: GuessRecord, ks: readonly number[], level: Level): Record<string, number> {
  const figures = rankingFigures(gold, guess, ks, level, questionContext(gold, guess, Math.max(...ks)));
  return Object.fromEntries(retrievalKeys(ks).map((k, i) => [k, figures[i]!]));
}

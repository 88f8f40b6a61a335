import { normalizeAnswer } from "@/lib/kilt/answer-overlap";
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
 * guess id may advance several sets. Consumes `sets`.
 */
export function rankOf(guessIds: readonly string[], sets: Set<string>[]): RankPoint[] {
  const rank: RankPoint[] = [];
  for (const id of guessIds) {
    let found = false;
    for (let idx = 0; idx < sets.length; idx++) {
      const set = sets[idx]!;
      if (!set.has(id)) continue;
      found = true;
      const at = rank.indexOf(idx);
      if (at !== -1) rank.splice(at, 1);
      set.delete(id);
      rank.push(set.size === 0 ? true : idx);
    }
    if (!found) rank.push(false);
  }
  return rank;
}

/** KILT's `rprecision`: the best over the gold outputs of |guess[:R] ∩ gold| / R (0 for an output without provenance). */
export function rPrecision(gold: GoldRecord, guessIds: readonly string[], level: Level): number {
  let best = -Infinity;
  for (const o of gold.outputs) {
    const goldIds = idsOf(o.provenance, level);
    const r = goldIds.length;
    let hits = 0;
    for (const id of guessIds.slice(0, r)) if (goldIds.includes(id)) hits++;
    best = Math.max(best, r > 0 ? hits / r : 0);
  }
  return best === -Infinity ? 0 : best;
}

function trues(rank: readonly RankPoint[], k: number): number {
  let n = 0;
  for (const p of rank.slice(0, k)) if (p === true) n++;
  return n;
}

/** The normalised texts of the first k guess items that carry one. */
function contexts(guess: GuessRecord, k: number): string[] {
  const out: string[] = [];
  for (const p of (guess.provenance ?? []).slice(0, k)) if (p.text !== null) out.push(normalizeAnswer(p.text));
  return out;
}

/** Per question, the normalised answers and titles, computed once for every k. */
export interface Normalised {
  answers: string[];
  titles: string[];
}

export function normalisedOf(gold: GoldRecord): Normalised {
  return { answers: gold.answers.map(normalizeAnswer), titles: gold.titles.map(normalizeAnswer) };
}

/** answer_in_context@k, answer_and_ent_in_context@k, entity_in_context@k of one question. */
export function contextHits(guess: GuessRecord, n: Normalised, k: number): { answer: number; answerAndEntity: number; entity: number } {
  let answer = 0;
  let answerAndEntity = 0;
  let entity = 0;
  for (const text of contexts(guess, k)) {
    const hasAnswer = n.answers.some((a) => text.includes(a));
    const hasEntity = n.titles.some((t) => text.includes(t));
    if (hasAnswer) answer = 1;
    if (hasAnswer && hasEntity) answerAndEntity = 1;
    if (hasEntity) entity = 1;
  }
  return { answer, answerAndEntity, entity };
}

/** KILT's `get_ranking_metrics` for one question: the same keys `compute` sums. */
export function rankingMetrics(gold: GoldRecord, guess: GuessRecord, ks: readonly number[], level: Level): Record<string, number> {
  const guessIds = idsOf(guess.provenance, level);
  const n = normalisedOf(gold);
  const out: Record<string, number> = { Rprec: rPrecision(gold, guessIds, level), entity_in_input: entityInInput(gold, n) };
  const sets = guessIds.length > 0 ? evidenceSets(gold, level) : [];
  const distinct = sets.length;
  const rank = distinct > 0 ? rankOf(guessIds, sets) : [];
  for (const k of ks) {
    const hits = contextHits(guess, n, k);
    const found = distinct > 0 ? trues(rank, k) : 0;
    out[`precision@${k}`] = distinct > 0 ? found / k : 0;
    out[`answer_in_context@${k}`] = hits.answer;
    out[`answer_and_ent_in_context@${k}`] = hits.answerAndEntity;
    out[`entity_in_context@${k}`] = hits.entity;
    if (k > 1) {
      out[`recall@${k}`] = distinct > 0 ? found / distinct : 0;
      out[`success_rate@${k}`] = found > 0 ? 1 : 0;
    }
  }
  return out;
}

/** KILT's `_entity_in_input`: a gold title, normalised, inside the normalised input. */
function entityInInput(gold: GoldRecord, n: Normalised): number {
  const input = normalizeAnswer(gold.input);
  return n.titles.some((t) => input.includes(t)) ? 1 : 0;
}

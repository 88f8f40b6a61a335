import { evidenceSets, fullKey, idsOf, rankOf, rPrecision } from "./retrieval";
import type { GoldRecord, GuessRecord, Level } from "./types";

/**
 * One question's ranking as KILT sees it, for a drill-down: the gold evidence sets, the guess's
 * ranked list (duplicates removed, as KILT removes them) with the sets each item belongs to, and
 * where the first set is complete. Pure.
 */

export interface RankedItem {
  /** 1-based position in the deduplicated list. */
  position: number;
  key: string;
  title: string | null;
  /** Indices of the gold sets this item belongs to. */
  sets: number[];
  /** The set this item completes (its last missing member), if any. */
  completes: number | null;
}

export interface RankDetail {
  sets: { index: number; members: string[] }[];
  ranked: RankedItem[];
  /**
   * KILT's rank of the first complete set (each set one point, placed at its last member): the
   * smallest k with success_rate@k = 1, null when no set is complete.
   */
  firstCompleteRank: number | null;
  rprec: number;
}

export function rankDetail(gold: GoldRecord, guess: GuessRecord, level: Level): RankDetail {
  const ids = idsOf(guess.provenance, level);
  const sets = evidenceSets(gold, level);
  const members = sets.map((s, index) => ({ index, members: [...s] }));
  const titleOf = new Map<string, string | null>();
  for (const p of guess.provenance ?? []) {
    const key = fullKey(p, level);
    if (key !== null && !titleOf.has(key)) titleOf.set(key, p.title);
  }
  const left = sets.map((s) => new Set(s));
  const ranked = ids.map((key, i): RankedItem => {
    const mine = members.filter((m) => m.members.includes(key)).map((m) => m.index);
    let completes: number | null = null;
    for (const idx of mine) {
      left[idx]!.delete(key);
      if (left[idx]!.size === 0 && completes === null) completes = idx;
    }
    return { position: i + 1, key, title: titleOf.get(key) ?? null, sets: mine, completes };
  });
  const rank = ids.length > 0 && sets.length > 0 ? rankOf(ids, sets) : [];
  const first = rank.indexOf(true);
  return { sets: members, ranked, firstCompleteRank: first === -1 ? null : first + 1, rprec: rPrecision(gold, ids, level) };
}

// What the drill-down marks on a run's ranked list: for each gold evidence set, the rank where the
// list first holds all its members. Pure.
import type { RankDetail } from "@/lib/kilt/score/detail";

export interface SetMark {
  index: number;
  /** "Set 1", "Set 2": by the set's place in the gold's list. */
  label: string;
  members: string[];
  /** 1-based rank where the last of its members appears; null when some member is missing. */
  completeAt: number | null;
}

/** Each set with the rank that completes it (the ranked list is already deduplicated). */
export function setMarks(detail: RankDetail): SetMark[] {
  const rankOf = new Map<string, number>();
  for (const r of detail.ranked) if (!rankOf.has(r.key)) rankOf.set(r.key, r.position);
  return detail.sets.map((s, i) => {
    const ranks = s.members.map((m) => rankOf.get(m));
    const complete = ranks.length > 0 && ranks.every((r) => r !== undefined);
    return { index: s.index, label: `Set ${i + 1}`, members: s.members, completeAt: complete ? Math.max(...(ranks as number[])) : null };
  });
}

/** The label of a set by its index ("Set 2"), for the hits on the ranked list. */
export function setLabel(marks: SetMark[], index: number): string {
  return marks.find((m) => m.index === index)?.label ?? `Set ${index + 1}`;
}

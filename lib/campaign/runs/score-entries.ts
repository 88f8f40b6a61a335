import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import type { AccumulatorState } from "@/lib/kilt/score/accumulate";
import type { KiltResult } from "@/lib/kilt/score/types";
import { runScoresOf, type Accumulators } from "./score-runs";
import { GOLDS, type Gold, type PerGold } from "./runs.contract";

// The leaderboard cache's rows (db/schema.ts, "Leaderboard cache"): entries as stored, and their
// writes, shared by score-cache.ts (reads, the orchestration) and score-update.ts. Internal.

/**
 * One cache entry: a run's figures against one gold (and, but for the original, the original's over
 * that gold's questions), with the accumulators' sums when it can be updated in place (`state`).
 */
export interface Entry {
  scores: KiltResult;
  questions: number;
  state?: AccumulatorState;
  originalOver?: { scores: KiltResult; questions: number; state?: AccumulatorState };
}

export interface CacheKey {
  campaignId: number;
  levels: string;
  ks: string;
}

export const figuresOf = (o: { scores: KiltResult; questions: number }) => ({ scores: o.scores, questions: o.questions });

/** Entry rows grouped per run. */
export function entriesByRun(rows: { run_id: string | number; gold: Gold; value: Entry }[]): Map<number, Partial<Record<Gold, Entry>>> {
  const byRun = new Map<number, Partial<Record<Gold, Entry>>>();
  for (const r of rows) byRun.set(Number(r.run_id), { ...byRun.get(Number(r.run_id)), [r.gold]: r.value });
  return byRun;
}

/** The entries of a run's accumulators (figures and sums). */
export function entriesOf(acc: Accumulators): Record<Gold, Entry> {
  const s = runScoresOf(acc);
  const entry = (g: Gold): Entry => {
    const e: Entry = { scores: s.scores[g], questions: s.questions[g], state: acc[g].state };
    if (g !== "original") e.originalOver = { ...s.originalOver[g], state: acc.originalOver[g].state };
    return e;
  };
  return { original: entry("original"), endorsed: entry("endorsed"), both: entry("both") };
}

/**
 * The golds' sizes at `version`, and what the per-question golds were read at (`wide` -1: not to be
 * updated in place; `settings`: their T, and R when golds at the other Ts are kept; none: not known).
 */
export async function writeGoldsRow(
  db: Db,
  campaignId: number,
  version: number,
  counts: PerGold<{ questions: number }>,
  at: Date,
  stored: { wide: number; increments: number; settings?: GoldSettings } = { wide: -1, increments: 0 },
): Promise<void> {
  const [r, t] = [stored.settings?.r ?? null, stored.settings?.t ?? null];
  await db.execute(sql`
    insert into leaderboard_golds as t (campaign_id, version, wide, increments, counts, computed_at, r, t)
    values (${campaignId}, ${version}, ${stored.wide}, ${stored.increments}, ${JSON.stringify(counts)}::json, ${at.toISOString()}::timestamptz,
            ${r}::int, ${t}::int)
    on conflict (campaign_id) do update
      set version = excluded.version, wide = excluded.wide, increments = excluded.increments, counts = excluded.counts,
          computed_at = excluded.computed_at, r = excluded.r, t = excluded.t
    where t.version <= excluded.version`);
}

/** The T the figures' per-question golds were read with, and R when golds at the other Ts are kept (null: none kept). */
export interface GoldSettings {
  t: number;
  r: number | null;
}

/** Stores runs' entries at `version`; an entry of a later version is never overwritten. */
export async function writeEntryRows(
  db: Db,
  key: CacheKey,
  version: number,
  runs: Map<number, Record<Gold, Entry>>,
  at: Date,
): Promise<void> {
  const rows = [...runs].flatMap(([runId, e]) => GOLDS.map((gold) => ({ run_id: runId, gold, value: e[gold] })));
  if (!rows.length) return;
  await db.execute(sql`
    insert into leaderboard_scores as t (run_id, gold, levels, ks, campaign_id, version, value, computed_at)
    select e.run_id, e.gold, ${key.levels}, ${key.ks}, ${key.campaignId}, ${version}, e.value, ${at.toISOString()}::timestamptz
    from json_to_recordset(${JSON.stringify(rows)}::json) as e(run_id bigint, gold text, value json)
    where exists (select 1 from runs r where r.id = e.run_id)
    on conflict (run_id, gold, levels, ks) do update set version = excluded.version, value = excluded.value, computed_at = excluded.computed_at
    where t.version <= excluded.version`);
}

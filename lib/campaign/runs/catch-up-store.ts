import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import type { GoldRecord, GuessRecord, Level } from "@/lib/kilt/score/types";
import type { CampaignView } from "../campaigns";
import { goldSettingsOf } from "./golds-at-t";
import { runRows } from "./list-runs";
import { storedAt, walkStored, writeQuestionGolds, type StoredAt, type StoredGolds } from "./question-golds";
import { entriesByRun, entriesOf, writeEntryRows, writeGoldsRow, type CacheKey, type Entry } from "./score-entries";
import { accumulatorsOf, addGuesses, addQuestion, type Accumulators } from "./score-runs";
import type { GoldCounts } from "./scored-pages";
import { GOLDS, type Gold, type PerGold, type RunView } from "./runs.contract";

// What the leaderboard cache's catch-ups (score-update.ts, score-rediff.ts) share: the golds row,
// the stored entries restored to their sums, a question swapped in them, and what a catch-up
// stores. Internal.

/** Beyond this share of the questions changed, reading all of them again is as cheap. */
export const INCREMENTAL_SHARE = 0.2;
/** Questions updated in place before the sums are computed afresh (each update may move a sum's last bit). */
export const MAX_INCREMENTS = 50_000;

export interface GoldsRow {
  version: number;
  wide: number;
  increments: number;
  counts: PerGold<{ questions: number }>;
  /** R and T the stored golds were read with (null: under Dawid–Skene, or not known). */
  r: number | null;
  t: number | null;
}

export async function goldsRowOf(db: Db, campaignId: number): Promise<GoldsRow | null> {
  const [row] = rowsOf<{
    version: string | number;
    wide: string | number;
    increments: string | number;
    counts: GoldsRow["counts"];
    r: number | null;
    t: number | null;
  }>(await db.execute(sql`select version, wide, increments, counts, r, t from leaderboard_golds where campaign_id = ${campaignId}`));
  if (!row) return null;
  return {
    version: Number(row.version),
    wide: Number(row.wide),
    increments: Number(row.increments),
    counts: row.counts,
    r: row.r,
    t: row.t,
  };
}

/** A stored entry set: per query key ("levels|ks") and run, the run's accumulators restored from their sums. */
export type Restored = Map<string, Map<number, Accumulators>>;

/** The campaign's entries at `version` that carry their sums, restored; the others are dropped. */
export async function restoreEntries(db: Db, campaignId: number, version: number): Promise<Restored> {
  await db.execute(sql`delete from leaderboard_scores where campaign_id = ${campaignId} and version <> ${version}`);
  const rows = rowsOf<{ run_id: string | number; gold: Gold; levels: string; ks: string; value: Entry }>(
    await db.execute(sql`select run_id, gold, levels, ks, value from leaderboard_scores where campaign_id = ${campaignId}`),
  );
  const runs = new Map((await runRows(db, campaignId)).map((r) => [r.id, r]));
  const out: Restored = new Map();
  const byKey = new Map<string, typeof rows>();
  for (const r of rows) byKey.set(`${r.levels}|${r.ks}`, [...(byKey.get(`${r.levels}|${r.ks}`) ?? []), r]);
  for (const [k, list] of byKey) {
    const [levels, ks] = k.split("|") as [string, string];
    const accs = new Map<number, Accumulators>();
    for (const [runId, e] of entriesByRun(list)) {
      const run = runs.get(runId);
      const states = run && GOLDS.every((g) => e[g]?.state) && e.endorsed?.originalOver?.state && e.both?.originalOver?.state;
      if (!run || !states) continue;
      const acc = accumulatorsOf(run, ks.split(",").map(Number), levels.split(",") as Level[]);
      for (const g of GOLDS) acc[g].restore(e[g]!.state!);
      acc.originalOver.endorsed.restore(e.endorsed!.originalOver!.state!);
      acc.originalOver.both.restore(e.both!.originalOver!.state!);
      accs.set(runId, acc);
    }
    out.set(k, accs);
  }
  await db.execute(sql`delete from leaderboard_scores where campaign_id = ${campaignId}`);
  return out;
}

export interface Catching {
  row: GoldsRow;
  perQuestion: Map<number, number>;
}

/** Takes a question's stored golds (`before`) out of every restored entry and its golds now in, with each run's guess. */
export function swapQuestion(
  restored: Restored,
  before: PerGold<GoldRecord | null> | null,
  now: PerGold<GoldRecord | null>,
  guesses: Map<number, GuessRecord>,
): void {
  for (const accs of restored.values())
    for (const [runId, acc] of accs) {
      const guess = guesses.get(runId);
      if (!guess) continue;
      if (before) addQuestion(acc, before, guess, -1);
      addQuestion(acc, now, guess);
    }
}

/**
 * Stores what a catch-up computed: the questions' golds, the golds row at `versions`, and the
 * restored entries. Past MAX_INCREMENTS (their sums have been updated in place often enough), or
 * when `fresh`, the entries are dropped instead: the caller scores the runs afresh from the stored golds.
 */
export async function storeCatchUp(
  db: Db,
  campaign: CampaignView,
  versions: { version: number; wide: number },
  at: Date,
  done: { toStore: StoredGolds[]; counts: GoldCounts; restored: Restored; increments: number; wide: number; fresh?: boolean },
): Promise<void> {
  await writeQuestionGolds(db, storedAt(campaign), done.toStore);
  const fresh = done.fresh === true || done.increments > MAX_INCREMENTS;
  const increments = fresh ? 0 : done.increments;
  await writeGoldsRow(db, campaign.id, versions.version, done.counts.counts, at, {
    wide: done.wide,
    increments,
    settings: goldSettingsOf(campaign),
  });
  if (fresh) return;
  for (const [k, accs] of done.restored) {
    const [levels, ks] = k.split("|") as [string, string];
    const key: CacheKey = { campaignId: campaign.id, levels, ks };
    await writeEntryRows(db, key, versions.version, new Map([...accs].map(([runId, acc]) => [runId, entriesOf(acc)])), at);
  }
}

/** Runs to score afresh, and the figures they are read at. */
export interface RunScoring {
  runs: RunView[];
  ks: number[];
  levels: Level[];
}

/** Runs scored from the stored golds (of the questions with an id below `before`, if given); null when a question's golds cannot be rebuilt. */
export async function scoreFromStored(
  db: Db,
  at: StoredAt,
  scoring: RunScoring,
  before?: number,
): Promise<Map<number, Accumulators> | null> {
  const accs = new Map(scoring.runs.map((r) => [r.id, accumulatorsOf(r, scoring.ks, scoring.levels)]));
  if (!accs.size) return accs;
  return (await walkStored(db, at, [...accs.keys()], (q, g) => addGuesses(accs, q.golds, g), before)) ? accs : null;
}

import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import type { Level } from "@/lib/kilt/score/types";
import type { CampaignView } from "../campaigns";
import { readVersions, storedAt, versionSql } from "./question-golds";
import { entriesByRun, entriesOf, figuresOf, writeEntryRows, writeGoldsRow, type CacheKey, type Entry } from "./score-entries";
import { runScoresOf, type Accumulators, type RunScores, type ScoredRuns } from "./score-runs";
import { scoreFromStored } from "./catch-up-store";
import { bringUpToDate, scoreEverything } from "./score-update";
import type { Gold, PerGold, RunView } from "./runs.contract";

// The leaderboard's cache (db/schema.ts, "Leaderboard cache"): a run's figures per gold, and the
// golds' sizes, stored in PostgreSQL (every worker shares them) with the campaign's outcome version
// they were computed at (db/sql/outcome-versions.sql). A read uses only entries of the current
// version; what is missing is computed once, under a per-campaign lock: after a change confined to
// some questions, every entry of the campaign is updated for those questions alone (score-update.ts,
// with the per-question golds of question-golds.ts); a new run is scored from the stored golds; a
// campaign-wide change reads every question's outcomes again. Internal: callers authorize first.

const COMPACT_EVERY_MS = 2_000;
const lastCompaction = new WeakMap<object, number>();
/** pg_advisory_xact_lock(LEADERBOARD_LOCK, campaign): one computation per campaign at a time, across workers. */
const LEADERBOARD_LOCK = 7304;

/** Folds pending outcome-version deltas, at most every two seconds per database handle. */
async function compactOutcomeVersions(db: Db): Promise<void> {
  const now = Date.now();
  if (now - (lastCompaction.get(db) ?? 0) < COMPACT_EVERY_MS) return;
  lastCompaction.set(db, now);
  await db.execute(sql`select kps_compact_outcome_versions()`);
}

/**
 * The campaign's outcome version now: it grows with every commit that may change an outcome. The
 * read path's one look at the versions (readVersions adds the campaign-wide part, for the lock's path).
 */
export async function outcomeVersion(db: Db, campaignId: number): Promise<number> {
  const [row] = rowsOf<{ version: string | number }>(await db.execute(sql`select ${versionSql(campaignId)} as version`));
  return Number(row!.version);
}

interface Cached {
  golds: PerGold<{ questions: number }> | null;
  runs: Map<number, RunScores>;
  /** When the oldest entry read was computed. */
  computedAt: Date | null;
}

/** The entries of `version` for these runs (a run is there only with all three golds). */
async function readEntries(db: Db, key: CacheKey, runIds: number[], version: number): Promise<Cached> {
  const golds = rowsOf<{ counts: PerGold<{ questions: number }>; computed_at: string | Date }>(
    await db.execute(sql`select counts, computed_at from leaderboard_golds where campaign_id = ${key.campaignId} and version = ${version}`),
  );
  const rows = rowsOf<{ run_id: string | number; gold: Gold; value: Entry; computed_at: string | Date }>(
    await db.execute(sql`
      select run_id, gold, value, computed_at from leaderboard_scores
      where run_id = any(${sql.param(runIds)}::bigint[]) and levels = ${key.levels} and ks = ${key.ks} and version = ${version}`),
  );
  const times = [...golds, ...rows].map((r) => new Date(r.computed_at).getTime());
  const runs = new Map<number, RunScores>();
  for (const [runId, e] of entriesByRun(rows)) {
    if (!e.original || !e.endorsed?.originalOver || !e.both?.originalOver) continue;
    runs.set(runId, {
      scores: { original: e.original.scores, endorsed: e.endorsed.scores, both: e.both.scores },
      questions: { original: e.original.questions, endorsed: e.endorsed.questions, both: e.both.questions },
      originalOver: { endorsed: figuresOf(e.endorsed.originalOver), both: figuresOf(e.both.originalOver) },
    });
  }
  return { golds: golds[0]?.counts ?? null, runs, computedAt: times.length ? new Date(Math.min(...times)) : null };
}

/**
 * Stores figures computed at `version` without their sums (so never updated in place: the next
 * change recomputes them). An entry of a later version is never overwritten (a computation that a
 * change overtook writes nothing over a fresher one); one of the same or an earlier version is replaced.
 */
export async function writeEntries(db: Db, key: CacheKey, version: number, scored: ScoredRuns, at: Date): Promise<void> {
  await writeGoldsRow(db, key.campaignId, version, scored.golds, at);
  const runs = new Map(
    [...scored.runs].map(([runId, s]) => {
      const entry = (g: Gold): Entry => ({
        scores: s.scores[g],
        questions: s.questions[g],
        ...(g === "original" ? {} : { originalOver: s.originalOver[g] }),
      });
      return [runId, { original: entry("original"), endorsed: entry("endorsed"), both: entry("both") }] as const;
    }),
  );
  await writeEntryRows(db, key, version, runs, at);
}

/**
 * The runs' figures at `levels` and `ks` against the campaign's golds as they are now: from the
 * cache when every entry is of the current outcome version, else brought up to date (score-update.ts:
 * only the questions that changed, when only some did; every question after a campaign-wide change)
 * and the runs that lack an entry scored, then stored. Equal to scoreRuns' at this read (to the last
 * bits of a sum when updated in place).
 */
export async function cachedScores(
  db: Db,
  campaign: CampaignView,
  runList: RunView[],
  ks: number[],
  levels: Level[],
): Promise<ScoredRuns & { computedAt: Date }> {
  const key: CacheKey = { campaignId: campaign.id, levels: levels.join(","), ks: ks.join(",") };
  const runIds = runList.map((r) => r.id);
  await compactOutcomeVersions(db);
  const cached = await readEntries(db, key, runIds, await outcomeVersion(db, campaign.id));
  if (cached.golds && cached.runs.size === runList.length)
    return { golds: cached.golds, runs: cached.runs, computedAt: cached.computedAt! };
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${LEADERBOARD_LOCK}, ${campaign.id % 2_147_483_647}::int)`);
    // Another reader may have computed it while this one waited; the versions are read before the outcomes.
    const versions = await readVersions(tx, campaign.id);
    const again = await readEntries(tx, key, runIds, versions.version);
    if (again.golds && again.runs.size === runList.length) return { golds: again.golds, runs: again.runs, computedAt: again.computedAt! };
    const at = new Date();
    let current: Cached = { golds: null, runs: new Map(), computedAt: null };
    let scored: Map<number, Accumulators> | null = null;
    const caught = await bringUpToDate(tx, campaign, versions, at, { runs: runList, ks, levels });
    if (caught && caught.scored) {
      scored = caught.scored; // every entry was dropped, and the catch-up's walk scored these runs afresh
    } else if (caught) {
      current = await readEntries(tx, key, runIds, versions.version);
      const missing = runList.filter((r) => !current.runs.has(r.id));
      if (current.golds) scored = await scoreFromStored(tx, storedAt(campaign), { runs: missing, ks, levels });
    }
    if (!scored) {
      // Every question read again from the outcomes (the other queries' entries are dropped).
      current = { golds: null, runs: new Map(), computedAt: null };
      scored = await scoreEverything(tx, campaign, runList, ks, levels, versions, at);
    }
    const entries = new Map([...scored].map(([runId, acc]) => [runId, entriesOf(acc)]));
    await writeEntryRows(tx, key, versions.version, entries, at);
    const golds = await goldsAt(tx, campaign.id, versions.version);
    const runs = new Map([...current.runs, ...[...scored].map(([runId, acc]) => [runId, runScoresOf(acc)] as const)]);
    const oldest = current.runs.size ? Math.min(at.getTime(), current.computedAt!.getTime()) : at.getTime();
    return { golds, runs, computedAt: new Date(oldest) };
  });
}

async function goldsAt(db: Db, campaignId: number, version: number): Promise<PerGold<{ questions: number }>> {
  const [row] = rowsOf<{ counts: PerGold<{ questions: number }> }>(
    await db.execute(sql`select counts from leaderboard_golds where campaign_id = ${campaignId} and version = ${version}`),
  );
  if (!row) throw new Error(`the leaderboard's golds of campaign ${campaignId} are not at version ${version}`);
  return row.counts;
}

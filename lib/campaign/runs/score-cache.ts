import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import type { KiltResult, Level } from "@/lib/kilt/score/types";
import type { CampaignView } from "../campaigns";
import { scoreRuns, type RunScores, type ScoredRuns } from "./score-runs";
import { GOLDS, type Gold, type PerGold, type RunView } from "./runs.contract";

// The leaderboard's cache (db/schema.ts, "Leaderboard cache"): a run's figures per gold, and the
// golds' sizes, stored in PostgreSQL (every worker shares them) with the campaign's outcome version
// they were computed at (db/sql/outcome-versions.sql). A read uses only entries of the current
// version; what is missing is computed once, under a per-campaign lock, in one walk of the
// questions: a new run alone, or after a change every run of the query. Internal: callers authorize first.

/** One cache entry: a run's figures against one gold (and, but for the original, the original's over that gold's questions). */
interface Entry {
  scores: KiltResult;
  questions: number;
  originalOver?: { scores: KiltResult; questions: number };
}

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

/** The campaign's outcome version now: it grows with every commit that may change an outcome. */
export async function outcomeVersion(db: Db, campaignId: number): Promise<number> {
  const [row] = rowsOf<{ version: string | number }>(
    await db.execute(sql`
      select coalesce((select changes from outcome_versions where campaign_id = ${campaignId}), 0)
           + coalesce((select sum(changes) from outcome_version_deltas where campaign_id = ${campaignId}), 0) as version`),
  );
  return Number(row!.version);
}

interface CacheKey {
  campaignId: number;
  levels: string;
  ks: string;
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
  const byRun = new Map<number, Partial<Record<Gold, Entry>>>();
  for (const r of rows) byRun.set(Number(r.run_id), { ...byRun.get(Number(r.run_id)), [r.gold]: r.value });
  const runs = new Map<number, RunScores>();
  for (const [runId, e] of byRun) {
    if (!e.original || !e.endorsed?.originalOver || !e.both?.originalOver) continue;
    runs.set(runId, {
      scores: { original: e.original.scores, endorsed: e.endorsed.scores, both: e.both.scores },
      questions: { original: e.original.questions, endorsed: e.endorsed.questions, both: e.both.questions },
      originalOver: { endorsed: e.endorsed.originalOver, both: e.both.originalOver },
    });
  }
  return { golds: golds[0]?.counts ?? null, runs, computedAt: times.length ? new Date(Math.min(...times)) : null };
}

/**
 * Stores what was computed at `version`. An entry of a later version is never overwritten (a
 * computation that a change overtook writes nothing over a fresher one); one of the same or an
 * earlier version is replaced.
 */
export async function writeEntries(db: Db, key: CacheKey, version: number, scored: ScoredRuns, at: Date): Promise<void> {
  const when = at.toISOString();
  await db.execute(sql`
    insert into leaderboard_golds as t (campaign_id, version, counts, computed_at)
    values (${key.campaignId}, ${version}, ${JSON.stringify(scored.golds)}::json, ${when}::timestamptz)
    on conflict (campaign_id) do update set version = excluded.version, counts = excluded.counts, computed_at = excluded.computed_at
    where t.version <= excluded.version`);
  const rows = [...scored.runs].flatMap(([runId, s]) =>
    GOLDS.map((gold) => {
      const entry: Entry = { scores: s.scores[gold], questions: s.questions[gold] };
      if (gold !== "original") entry.originalOver = s.originalOver[gold];
      return { run_id: runId, gold, value: entry };
    }),
  );
  if (!rows.length) return;
  await db.execute(sql`
    insert into leaderboard_scores as t (run_id, gold, levels, ks, campaign_id, version, value, computed_at)
    select e.run_id, e.gold, ${key.levels}, ${key.ks}, ${key.campaignId}, ${version}, e.value, ${when}::timestamptz
    from json_to_recordset(${JSON.stringify(rows)}::json) as e(run_id bigint, gold text, value json)
    where exists (select 1 from runs r where r.id = e.run_id)
    on conflict (run_id, gold, levels, ks) do update set version = excluded.version, value = excluded.value, computed_at = excluded.computed_at
    where t.version <= excluded.version`);
}

/**
 * The runs' figures at `levels` and `ks` against the campaign's golds as they are now: from the
 * cache when every entry is of the current outcome version, else computed for the runs that lack
 * one (all of them after a change; a new run alone) and stored. Equal to scoreRuns' at this read.
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
    // Another reader may have computed it while this one waited; the version is read before the outcomes.
    const version = await outcomeVersion(tx, campaign.id);
    const again = await readEntries(tx, key, runIds, version);
    if (again.golds && again.runs.size === runList.length) return { golds: again.golds, runs: again.runs, computedAt: again.computedAt! };
    const missing = runList.filter((r) => !again.runs.has(r.id));
    const at = new Date();
    const scored = await scoreRuns(tx, campaign, missing, ks, levels);
    await writeEntries(tx, key, version, scored, at);
    const runs = new Map([...again.runs, ...scored.runs]);
    return { golds: scored.golds, runs, computedAt: again.runs.size ? new Date(Math.min(at.getTime(), again.computedAt!.getTime())) : at };
  });
}

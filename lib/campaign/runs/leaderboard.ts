import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import type { TaskKind } from "@/db/schema";
import { requireCoordinator, type Actor } from "@/lib/auth/actor";
import { getCampaign } from "../campaigns";
import { requireRun, runRows } from "./list-runs";
import { cachedScores } from "./score-cache";
import {
  leaderboardHeadline,
  RESULT_KS,
  type Leaderboard,
  type LeaderboardHeadline,
  type LeaderboardQuery,
  type RunResults,
  type RunView,
} from "./runs.contract";

/** The campaign's headline metric, from the task and dataset of every batch holding questions (runs.contract.ts). */
async function headlineOf(db: Db, campaignId: number): Promise<LeaderboardHeadline> {
  const batches = rowsOf<{ task_kind: TaskKind; dataset: string | null }>(
    await db.execute(sql`
      select distinct b.task_kind, b.dataset from batches b
      where b.campaign_id = ${campaignId} and exists (select 1 from queries q where q.batch_id = b.id)`),
  );
  return leaderboardHeadline(batches.map((b) => ({ taskKind: b.task_kind, dataset: b.dataset })));
}

/**
 * The campaign's leaderboard (coordinators): every run scored at `level` and `ks` against the
 * original, endorsed and both golds as the campaign's outcomes are at this read, so it is never
 * stale (a new endorsement or a paused annotator shows at the next read): from the cache when it
 * holds every figure at the current outcome version, else computed for what is missing
 * (score-cache.ts). `computedAt` is when the oldest figure shown was computed. `headline` names the
 * KILT metric each row leads with (its KILT variant beside it).
 */
export async function getLeaderboard(db: Db, actor: Actor, input: { campaignId: number } & LeaderboardQuery): Promise<Leaderboard> {
  requireCoordinator(actor);
  const campaign = await getCampaign(db, actor, input.campaignId);
  const runList = await runRows(db, campaign.id);
  const { golds, runs, computedAt } = await cachedScores(db, campaign, runList, input.ks, [input.level]);
  return {
    level: input.level,
    ks: input.ks,
    headline: await headlineOf(db, campaign.id),
    golds,
    computedAt: computedAt.toISOString(),
    rows: runList.map((run) => ({ run, ...runs.get(run.id)! })),
  };
}

/** A run's results as KILT's evaluators print them, per gold: page and paragraph retrieval at ks 1, 3, 5, 10, and downstream (coordinators). */
export async function getRunResults(
  db: Db,
  actor: Actor,
  input: { campaignId: number; runId: number },
): Promise<{ run: RunView; results: RunResults }> {
  const { campaign, run } = await requireRun(db, actor, input.campaignId, input.runId);
  const { runs } = await cachedScores(db, campaign, [run], [...RESULT_KS], ["page", "paragraph"]);
  return { run, results: runs.get(run.id)!.scores };
}

import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import type { TaskKind } from "@/db/schema";
import { requireCoordinator, type Actor } from "@/lib/auth/actor";
import { ScoreAccumulator } from "@/lib/kilt/score/accumulate";
import type { Level, ScoreOptions } from "@/lib/kilt/score/types";
import { getCampaign, type CampaignView } from "../campaigns";
import { requireRun, runRows } from "./list-runs";
import { GoldCounts, scoredQuestions } from "./scored-pages";
import {
  GOLDS,
  leaderboardHeadline,
  RESULT_KS,
  type Leaderboard,
  type LeaderboardHeadline,
  type LeaderboardQuery,
  type OriginalOver,
  type PerGold,
  type RunResults,
  type RunView,
} from "./runs.contract";

type Accumulators = PerGold<ScoreAccumulator> & { originalOver: Record<keyof OriginalOver, ScoreAccumulator> };

/**
 * The accumulators of a run: one per gold (the figures its predictions give: retrieval when it ranks,
 * downstream when it answers), and the original gold's over the questions of each other gold.
 */
function accumulatorsOf(run: RunView, ks: number[], levels: Level[]): Accumulators {
  const options: ScoreOptions = { ks, levels: run.hasProvenance ? levels : [], downstream: run.hasAnswers };
  const acc = () => new ScoreAccumulator(options);
  return { original: acc(), endorsed: acc(), both: acc(), originalOver: { endorsed: acc(), both: acc() } };
}

/**
 * Scores runs against the three golds as they are now: every question of the campaign, a page at a
 * time, into one ScoreAccumulator per run and gold; a question not in a gold is left out of it (as
 * KILT scores only its gold file's ids), and so is a question a run has no prediction for.
 */
async function scoreRuns(db: Db, campaign: CampaignView, runList: RunView[], ks: number[], levels: Level[]) {
  const accumulators = new Map(runList.map((r) => [r.id, accumulatorsOf(r, ks, levels)]));
  const golds = new GoldCounts();
  for await (const { golds: gold, guesses } of scoredQuestions(
    db,
    campaign,
    runList.map((r) => r.id),
  )) {
    golds.add(gold);
    for (const [runId, guess] of guesses) {
      const acc = accumulators.get(runId)!;
      for (const g of GOLDS) {
        const record = gold[g];
        if (record) acc[g].add(record, guess);
        if (g !== "original" && record && gold.original) acc.originalOver[g].add(gold.original, guess);
      }
    }
  }
  const scores = (runId: number) => {
    const acc = accumulators.get(runId)!;
    return { original: acc.original.result(), endorsed: acc.endorsed.result(), both: acc.both.result() };
  };
  const scored = (runId: number) => {
    const acc = accumulators.get(runId)!;
    return { original: acc.original.questions, endorsed: acc.endorsed.questions, both: acc.both.questions };
  };
  const originalOver = (runId: number): OriginalOver => {
    const { endorsed, both } = accumulators.get(runId)!.originalOver;
    return {
      endorsed: { scores: endorsed.result(), questions: endorsed.questions },
      both: { scores: both.result(), questions: both.questions },
    };
  };
  return { golds: golds.counts, scores, scored, originalOver };
}

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
 * original, endorsed and both golds, computed from the campaign's current outcomes at this read, so
 * it is never stale (a new endorsement or a paused annotator shows at the next read). `headline`
 * names the KILT metric each row leads with (its KILT variant beside it).
 */
export async function getLeaderboard(db: Db, actor: Actor, input: { campaignId: number } & LeaderboardQuery): Promise<Leaderboard> {
  requireCoordinator(actor);
  const campaign = await getCampaign(db, actor, input.campaignId);
  const runList = await runRows(db, campaign.id);
  const { golds, scores, scored, originalOver } = await scoreRuns(db, campaign, runList, input.ks, [input.level]);
  return {
    level: input.level,
    ks: input.ks,
    headline: await headlineOf(db, campaign.id),
    golds,
    computedAt: new Date().toISOString(),
    rows: runList.map((run) => ({ run, scores: scores(run.id), questions: scored(run.id), originalOver: originalOver(run.id) })),
  };
}

/** A run's results as KILT's evaluators print them, per gold: page and paragraph retrieval at ks 1, 3, 5, 10, and downstream (coordinators). */
export async function getRunResults(
  db: Db,
  actor: Actor,
  input: { campaignId: number; runId: number },
): Promise<{ run: RunView; results: RunResults }> {
  const { campaign, run } = await requireRun(db, actor, input.campaignId, input.runId);
  const { scores } = await scoreRuns(db, campaign, [run], [...RESULT_KS], ["page", "paragraph"]);
  return { run, results: scores(run.id) };
}

import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { AppError } from "@/lib/errors";
import type { Actor } from "@/lib/auth/actor";
import { rankDetail, type RankDetail } from "@/lib/kilt/score/detail";
import type { GuessRecord, Level } from "@/lib/kilt/score/types";
import { likePattern, pageOf } from "@/lib/list-options.contract";
import { requireRun } from "./list-runs";
import { scoredPage, type ScoredQuestion } from "./scored-pages";
import {
  GOLDS,
  type PerGold,
  type RunQuestionDetail,
  type RunQuestionListQuery,
  type RunQuestionPage,
  type RunView,
} from "./runs.contract";

/** The drill-down of one question against each gold it is in (null: not in that gold, or the run ranks nothing). */
function detailsOf(s: ScoredQuestion, run: RunView, level: Level): PerGold<RankDetail | null> {
  const guess = s.guesses.get(run.id);
  const detail = (g: (typeof GOLDS)[number]) => {
    const gold = s.golds[g];
    return gold && guess && run.hasProvenance ? rankDetail(gold, guess, level) : null;
  };
  return { original: detail("original"), endorsed: detail("endorsed"), both: detail("both") };
}

/**
 * A run's questions in id order, a page at a time (keyset: `after` is the last question id of the
 * page before), each with its R-precision and rank of the first complete evidence set per gold, at
 * `level`; `q` matches the question's text or its KILT id (coordinators).
 */
export async function listRunQuestions(
  db: Db,
  actor: Actor,
  input: { campaignId: number; runId: number } & RunQuestionListQuery,
): Promise<RunQuestionPage> {
  const { campaign, run } = await requireRun(db, actor, input.campaignId, input.runId);
  const where = input.q ? sql`(q.input ilike ${likePattern(input.q)} or q.kilt_id = ${input.q})` : undefined;
  const page = await scoredPage(db, campaign, [run.id], { after: input.after, where, limit: input.limit + 1 });
  const rows = page.map((s) => {
    const details = detailsOf(s, run, input.level);
    const pick = <T>(f: (d: RankDetail) => T): PerGold<T | null> => ({
      original: details.original ? f(details.original) : null,
      endorsed: details.endorsed ? f(details.endorsed) : null,
      both: details.both ? f(details.both) : null,
    });
    return {
      id: s.question.id,
      kiltId: s.question.kiltId,
      input: s.question.input,
      rprec: pick((d) => d.rprec),
      firstCompleteRank: pick((d) => d.firstCompleteRank),
    };
  });
  const { rows: questions, next } = pageOf(rows, input.limit);
  return { questions, next };
}

/** One question of a run: the run's answer and ranked list, and against each gold its evidence sets with the hits marked (coordinators). 404 when unknown. */
export async function getRunQuestion(
  db: Db,
  actor: Actor,
  input: { campaignId: number; runId: number; kiltId: string; level: Level },
): Promise<RunQuestionDetail> {
  const { campaign, run } = await requireRun(db, actor, input.campaignId, input.runId);
  const [s] = await scoredPage(db, campaign, [run.id], { where: sql`q.kilt_id = ${input.kiltId}`, limit: 1 });
  if (!s) throw new AppError("not_found", `No question with KILT id '${input.kiltId}' in campaign ${campaign.id}.`);
  const guess: GuessRecord | undefined = s.guesses.get(run.id);
  if (!guess)
    throw new AppError(
      "not_found",
      `Run '${run.name}' has no prediction for '${input.kiltId}' (the question came to the campaign after the run).`,
    );
  const neutral = rankDetail({ id: guess.id, input: s.question.input, answers: [], titles: [], outputs: [] }, guess, input.level).ranked;
  return {
    question: { kiltId: s.question.kiltId, input: s.question.input, answers: s.golds.original?.answers ?? [] },
    guess: { answer: guess.answer, ranked: neutral },
    golds: detailsOf(s, run, input.level),
  };
}

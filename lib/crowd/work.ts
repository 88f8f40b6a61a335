import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { rowsOf } from "@/db/client";
import type { Actor, UserActor } from "@/lib/auth/actor";
import { requireActiveAnnotator } from "@/lib/campaign/annotate/annotator-access";
import { nextTask, type NextTaskInput } from "@/lib/campaign/annotate/assignment";
import { claimNextReaping } from "@/lib/campaign/annotate/claim-next.internal";
import { endClaim } from "@/lib/campaign/claims.internal";
import type { Task } from "@/lib/campaign/annotate/judging.contract";
import { AppError } from "@/lib/errors";
import { requireCrowdSession } from "./crowd-actor";
import { endSession, sessionView, workDone, type SessionContext } from "./session-state";

/** The refusal a crowd worker gets once their session is over: the page then shows its completion. */
async function sessionOver(db: Db, ctx: SessionContext): Promise<AppError> {
  const view = await sessionView(db, ctx);
  return new AppError("conflict", view.message ?? "This session is over.", { sessionEnded: true, outcome: view.outcome });
}

/** The worker's live claims in the campaign, and the KILT ids of the questions of their session's work (judged or claimed). */
async function workInHand(db: Db, ctx: SessionContext): Promise<{ live: string[]; questions: Set<string> }> {
  const s = ctx.session;
  const since = (s.workStartedAt ?? s.startedAt).toISOString();
  const rows = rowsOf<{ handle: string | null; kilt_id: string }>(
    await db.execute(sql`
      select c.handle, q.kilt_id from claims c join passages p on p.id = c.passage_id join queries q on q.id = p.query_id
      where c.user_id = ${s.userId} and c.campaign_id = ${s.campaignId} and c.ended_at is null and c.expires_at > now()
      union all
      select null, q.kilt_id from judgments j join passages p on p.id = j.passage_id join queries q on q.id = p.query_id
      where j.user_id = ${s.userId} and j.campaign_id = ${s.campaignId} and j.created_at >= ${since}::timestamptz`),
  );
  return { live: rows.flatMap((r) => (r.handle ? [r.handle] : [])), questions: new Set(rows.map((r) => r.kilt_id)) };
}

/**
 * The next task of any caller, as the routes ask for it: a crowd worker's within their session
 * (`crowdNextTask`), anyone else's as an annotator's (`nextTask`, which knows nothing of sessions).
 */
export async function nextTaskFor(db: Db, actor: Actor, input: NextTaskInput): Promise<Task | null> {
  return actor.kind === "user" && actor.role === "crowd" ? crowdNextTask(db, actor, input) : nextTask(db, actor, input);
}

/**
 * A crowd worker's next passage: as an annotator's (`nextTask`), within their session. The session is
 * settled first (time, gold or speed pause, quota, the judgments limit end it: 409 `sessionEnded`).
 * No new passage is claimed once the passages in hand would reach the quota (null, the session goes
 * on until the last is judged); with nothing in hand and nothing open, the session ends as
 * `queue_empty`. With a quota of questions, a passage of a question past the quota is given back.
 */
export async function crowdNextTask(db: Db, actor: UserActor, input: NextTaskInput): Promise<Task | null> {
  const { user, ctx } = await requireCrowdSession(db, actor);
  if (ctx.session.campaignId !== input.campaignId) throw new AppError("not_found", `No campaign with id ${input.campaignId} for you.`);
  if (ctx.session.stage === "ended") throw await sessionOver(db, ctx);
  if (ctx.session.stage !== "working")
    throw new AppError("conflict", "Finish the consent and training steps first.", { stage: ctx.session.stage });
  const { campaign } = await requireActiveAnnotator(db, user, input.campaignId, { fresh: true });
  const { entry } = ctx;
  const before = await workInHand(db, ctx);
  const others = before.live.filter((h) => h !== input.after);
  if (entry.quotaUnit === "passages" && others.length === 0) {
    const judged = before.questions.size === 0 ? 0 : (await workDone(db, ctx.session)).judged;
    if (judged + before.live.length >= entry.quota) return null;
  }
  const task = await claimNextReaping(db, user, campaign, input.after);
  if (!task) {
    if (before.live.length === 0) throw await sessionOver(db, await endSession(db, ctx, "queue_empty"));
    return null;
  }
  if (entry.quotaUnit === "questions" && !before.questions.has(task.query.id) && before.questions.size >= entry.quota) {
    await db.transaction((tx) => endClaim(tx, task.claim.handle));
    if (before.live.length === 0) throw await sessionOver(db, await endSession(db, ctx, "completed"));
    return null;
  }
  return task;
}

/**
 * Ahead of a crowd worker's claim renewal, judgment, revision or progress read (the route calls it
 * before the annotation function, which knows nothing of sessions): the caller's session is settled
 * — its time, a stopped entry, its quota end it now, freeing its claims — and once over, the request
 * is refused (409 `sessionEnded`, with the outcome and the session's message). Anyone else passes.
 */
export async function requireCrowdWorkOpen(db: Db, actor: Actor): Promise<void> {
  if (actor.kind !== "user" || actor.role !== "crowd") return;
  const { ctx } = await requireCrowdSession(db, actor);
  if (ctx.session.stage === "ended") throw await sessionOver(db, ctx);
}

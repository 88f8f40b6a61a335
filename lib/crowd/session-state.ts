// Internal to lib/crowd/ (no authorization of its own): the crowd domain functions call these after
// resolving the caller's own session. A session is settled — ended when one of its end conditions
// holds — whenever the worker asks for it or for their next passage.
import "server-only";
import { and, desc, eq, ne, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { rowsOf } from "@/db/client";
import {
  annotatorStandings,
  campaigns,
  crowdEntries,
  crowdSessions,
  type Campaign,
  type CrowdEntry,
  type CrowdOutcome,
  type CrowdSession,
} from "@/db/schema";
import { endLiveClaimsOf } from "@/lib/campaign/claims.internal";
import { setStanding } from "@/lib/campaign/quality/standings";
import { mturkSiteOrigin } from "./origins";
import type { CrowdCompletion, CrowdSessionView } from "./session.contract";

export interface SessionContext {
  session: CrowdSession;
  entry: CrowdEntry;
  campaign: Campaign;
}

/** A judgment under this many milliseconds is "fast"; a worker whose median is under it is paused by the speed rule (when on). */
export const FAST_MS = 2000;

/** The user's latest session (open, else the last ended one), with its entry and campaign. */
export async function latestSessionOf(db: Db, userId: number): Promise<SessionContext | null> {
  const [row] = await db
    .select({ session: crowdSessions, entry: crowdEntries, campaign: campaigns })
    .from(crowdSessions)
    .innerJoin(crowdEntries, eq(crowdEntries.campaignId, crowdSessions.campaignId))
    .innerJoin(campaigns, eq(campaigns.id, crowdSessions.campaignId))
    .where(eq(crowdSessions.userId, userId))
    .orderBy(desc(crowdSessions.number))
    .limit(1);
  return row ?? null;
}

/** The session's real work so far: judgments since work began, and the questions they belong to. */
export async function workDone(db: Db, s: CrowdSession): Promise<{ judged: number; questions: number }> {
  if (!s.workStartedAt) return { judged: 0, questions: 0 };
  const [row] = rowsOf<{ judged: number; questions: number }>(
    await db.execute(sql`
      select count(*)::int as judged, count(distinct p.query_id)::int as questions
      from judgments j join passages p on p.id = j.passage_id
      where j.user_id = ${s.userId} and j.campaign_id = ${s.campaignId} and j.created_at >= ${s.workStartedAt.toISOString()}::timestamptz`),
  );
  return row ?? { judged: 0, questions: 0 };
}

/** Why an open session must end now, if it must (in the order the rules apply). */
async function dueOutcome(db: Db, { session: s, entry, campaign }: SessionContext): Promise<CrowdOutcome | null> {
  if (Date.now() >= s.deadlineAt.getTime()) return "timed_out";
  // Read with the session on every request: the coordinator's "stop" ends sessions in progress at once.
  if (entry.stopped) return "stopped";
  if (s.stage !== "working") return null;
  const [worker] = rowsOf<{ paused: boolean; total: number; median: number | null }>(
    await db.execute(sql`
      select exists (select 1 from ${annotatorStandings} st where st.campaign_id = ${s.campaignId} and st.user_id = ${s.userId} and st.status = 'paused') as paused,
        count(*)::int as total, percentile_cont(0.5) within group (order by j.duration_ms)::float8 as median
      from judgments j where j.user_id = ${s.userId} and j.campaign_id = ${s.campaignId}`),
  );
  if (!worker) return null;
  if (worker.paused) return "paused";
  if (entry.pauseFastWorkers && worker.total >= campaign.warnMinJudgments && worker.median !== null && worker.median < FAST_MS) {
    await setStanding(db, campaign, s.userId, { status: "paused", reason: "speed_rule", by: null });
    return "paused";
  }
  if (entry.maxJudgmentsPerWorker !== null && worker.total >= entry.maxJudgmentsPerWorker) return "completed";
  if (entry.quotaUnit === "passages" && (await workDone(db, s)).judged >= entry.quota) return "completed";
  return null;
}

/** Ends the session with `outcome` and its code (once: a session already ended keeps its outcome), and frees the worker's live claims. */
export async function endSession(db: Db, ctx: SessionContext, outcome: CrowdOutcome): Promise<SessionContext> {
  const session = await db.transaction(async (tx) => {
    const [ended] = await tx
      .update(crowdSessions)
      .set({ stage: "ended", outcome, code: ctx.entry.codes[outcome], endedAt: new Date() })
      .where(and(eq(crowdSessions.id, ctx.session.id), ne(crowdSessions.stage, "ended")))
      .returning();
    if (ended) await endLiveClaimsOf(tx, ctx.session.campaignId, ctx.session.userId);
    return ended ?? (await tx.select().from(crowdSessions).where(eq(crowdSessions.id, ctx.session.id)))[0]!;
  });
  return { ...ctx, session };
}

/** Ends the session when one of its end conditions holds; answers it as it stands then. */
export async function settleSession(db: Db, ctx: SessionContext): Promise<SessionContext> {
  if (ctx.session.stage === "ended") return ctx;
  const outcome = await dueOutcome(db, ctx);
  return outcome ? endSession(db, ctx, outcome) : ctx;
}

/** Training items a worker is given: K, or fewer when the campaign's launched batches hold fewer training passages. */
export async function trainingTotal(db: Db, ctx: SessionContext): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await db.execute(sql`
      select count(*)::int as n from (
        select 1 from passages p join batches b on b.id = p.batch_id
        where p.campaign_id = ${ctx.campaign.id} and p.is_training and b.status = 'launched'
        limit ${ctx.entry.trainingItems}
      ) t`),
  );
  return Math.max(row?.n ?? 0, ctx.session.trainingJudged);
}

function completionOf({ session: s, entry }: SessionContext): CrowdCompletion | null {
  if (s.stage !== "ended" || !s.code) return null;
  if (entry.platform === "prolific") {
    const join = entry.completionUrl.includes("?") ? "&" : "?";
    return { kind: "redirect", url: `${entry.completionUrl}${join}cc=${encodeURIComponent(s.code)}` };
  }
  // The site is the campaign's, the assignment the session's own (both fixed before the worker's first request).
  if (entry.platform === "mturk" && s.platformSessionId) {
    const action = `${mturkSiteOrigin(entry.mturkSite)}/mturk/externalSubmit`;
    return { kind: "mturk", action, fields: { assignmentId: s.platformSessionId, outcome: s.outcome!, code: s.code } };
  }
  return { kind: "code" };
}

function messageOf({ session: s, entry }: SessionContext, training: CrowdSessionView["training"]): string | null {
  switch (s.outcome) {
    case "completed":
      return "You have finished this session. Thank you!";
    case "queue_empty":
      return "There are no more passages for you right now. Thank you: your work counts.";
    case "paused":
      return "Your work on this study was stopped by its quality checks.";
    case "timed_out":
      return `The session's time (${entry.timeLimitMinutes} minutes) ran out. Thank you: your work counts.`;
    case "stopped":
      return "The researchers stopped this study. Thank you: your work counts.";
    case "training_failed":
      return `You did not pass the training round (${training.correct} of ${training.total} right; ${Math.ceil(training.passShare * training.total)} needed).`;
    default:
      return null;
  }
}

/** What the worker's page shows of their session. */
export async function sessionView(db: Db, ctx: SessionContext): Promise<CrowdSessionView> {
  const { session: s, entry, campaign } = ctx;
  const [done, total] = await Promise.all([workDone(db, s), trainingTotal(db, ctx)]);
  const training = { total, answered: s.trainingJudged, correct: s.trainingCorrect, passShare: entry.trainingPassShare };
  return {
    stage: s.stage,
    campaignId: campaign.id,
    campaignName: campaign.name,
    platform: entry.platform,
    consent: entry.consent,
    instructions: campaign.instructions,
    number: s.number,
    maxSessions: entry.maxSessionsPerWorker,
    training,
    work: { judged: entry.quotaUnit === "passages" ? done.judged : done.questions, quota: entry.quota, unit: entry.quotaUnit },
    deadline: s.deadlineAt.toISOString(),
    outcome: s.outcome,
    code: s.code,
    completion: completionOf(ctx),
    message: messageOf(ctx, training),
  };
}

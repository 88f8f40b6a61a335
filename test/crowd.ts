import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import type { CrowdOutcome, CrowdPlatform } from "@/db/schema";
import type { UserActor } from "@/lib/auth/actor";
import { insertUser } from "@/lib/auth/users";
import { unique } from "./databases";

// Crowd fixtures by direct inserts, for the tests of what reads crowd rows (the payment report):
// an entry, workers mapped to accounts, sessions with chosen times and outcomes.

/** The completion code a test campaign gives for each outcome: `CODE-<outcome>`. */
export const codeOf = (outcome: CrowdOutcome) => `CODE-${outcome}`;

/** A crowd entry (enabled) on the campaign, one code per outcome (`codeOf`). */
export async function makeCrowdEntry(db: Db, campaignId: number, platform: CrowdPlatform = "prolific"): Promise<void> {
  const codes = Object.fromEntries(
    ["completed", "queue_empty", "paused", "timed_out", "training_failed"].map((o) => [o, codeOf(o as CrowdOutcome)]),
  );
  await db.execute(sql`
    insert into crowd_entries (campaign_id, enabled, platform, entry_key, codes)
    values (${campaignId}, true, ${platform}, ${unique("entry")}, ${JSON.stringify(codes)}::jsonb)`);
}

export interface TestCrowdWorker {
  /** crowd_workers.id */
  id: number;
  platformWorkerId: string;
  actor: UserActor;
}

/**
 * A platform worker mapped to a crowd account (role `crowd`, no password), as entering the campaign
 * makes one; it judges through nextTaskFor/submitJudgment within its open session (lib/crowd/work.ts).
 */
export async function makeCrowdWorker(
  db: Db,
  campaignId: number,
  platform: CrowdPlatform,
  platformWorkerId: string,
): Promise<TestCrowdWorker> {
  const user = await insertUser(db, { username: unique("crowd"), role: "crowd", passwordHash: null });
  const actor: UserActor = { kind: "user", id: user.id, username: user.username, role: "crowd", via: "token" };
  const [row] = rowsOf<{ id: string | number }>(
    await db.execute(sql`
      insert into crowd_workers (campaign_id, platform, platform_worker_id, user_id)
      values (${campaignId}, ${platform}, ${platformWorkerId}, ${actor.id}) returning id`),
  );
  return { id: Number(row!.id), platformWorkerId, actor };
}

/**
 * Starts a worker's next session now (clock time), in stage `working` with real work begun now, or
 * in stage `training` with none (`working: false`); with `ids` for Prolific/MTurk. Returns its id.
 */
export async function startCrowdSession(
  db: Db,
  worker: TestCrowdWorker,
  campaignId: number,
  options: { working?: boolean; studyId?: string; platformSessionId?: string } = {},
): Promise<number> {
  const working = options.working ?? true;
  const [row] = rowsOf<{ id: string | number }>(
    await db.execute(sql`
      insert into crowd_sessions (worker_id, campaign_id, user_id, number, study_id, platform_session_id, stage, started_at, work_started_at, deadline_at)
      select ${worker.id}, ${campaignId}, ${worker.actor.id}, coalesce(max(number), 0) + 1, ${options.studyId ?? null}, ${options.platformSessionId ?? null},
             ${working ? "working" : "training"}, clock_timestamp(), case when ${working}::boolean then clock_timestamp() end, clock_timestamp() + interval '1 hour'
      from crowd_sessions where worker_id = ${worker.id}
      returning id`),
  );
  return Number(row!.id);
}

/** Ends a session now (clock time) with `outcome` and its code; training figures when given. */
export async function endCrowdSession(
  db: Db,
  sessionId: number,
  outcome: CrowdOutcome,
  training?: { judged: number; correct: number },
): Promise<void> {
  await db.execute(sql`
    update crowd_sessions set stage = 'ended', outcome = ${outcome}, code = ${codeOf(outcome)}, ended_at = clock_timestamp(),
      training_judged = coalesce(${training?.judged ?? null}::int, training_judged), training_correct = coalesce(${training?.correct ?? null}::int, training_correct)
    where id = ${sessionId}`);
}

/** A training answer of the session's worker on `passageId` (insufficient, no span). */
export async function addTrainingAnswer(
  db: Db,
  sessionId: number,
  userId: number,
  passageId: number,
  position: number,
  correct: boolean,
  durationMs: number,
) {
  await db.execute(sql`
    insert into training_answers (session_id, passage_id, user_id, position, verdict, correct, duration_ms)
    values (${sessionId}, ${passageId}, ${userId}, ${position}, 'insufficient', ${correct}, ${durationMs})`);
}

import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { crowdEntries } from "@/db/schema";
import { anonymous, type Actor } from "@/lib/auth/actor";
import { resolveActor } from "@/lib/auth/sessions";
import { consentToCrowdSession, enterCrowd } from "@/lib/crowd/sessions";
import { nextTaskFor } from "@/lib/crowd/work";
import { makeCampaign } from "./campaign-factory";
import { unique } from "./databases";
import { refusal } from "./refusal";

// The crowd session tests take refusal from here, with the rest of their helpers.
export { refusal };

// Crowd campaigns entered through the domain functions (enterCrowd), for the session tests in lib/crowd/.

export const CODES = {
  completed: "DONE1",
  queue_empty: "EMPTY1",
  paused: "PAUSED1",
  timed_out: "TIME1",
  training_failed: "FAIL1",
  stopped: "STOP1",
};

/** A launched campaign of `queries` questions (gold + 1 candidate each), the first `training` gold passages marked as training, with a crowd entry. */
export async function crowdCampaign(
  db: Db,
  options: { queries: number; training: number; entry?: Partial<typeof crowdEntries.$inferInsert> },
) {
  const c = await makeCampaign(db, { queries: options.queries, candidates: 1, settings: { goldMinJudgments: 100 } });
  await db.execute(sql`
    update passages set is_training = true, explanation = 'The first paragraph names the year.',
      expected_start_paragraph_id = start_paragraph_id, expected_start_character = 0, expected_end_paragraph_id = start_paragraph_id, expected_end_character = 4
    where id in (select id from passages where campaign_id = ${c.campaignId} and is_gold order by id limit ${options.training})`);
  const key = randomBytes(16).toString("base64url");
  await db.insert(crowdEntries).values({
    campaignId: c.campaignId,
    enabled: true,
    entryKey: key,
    codes: CODES,
    trainingItems: 3,
    trainingPassShare: 0.6,
    quota: 4,
    ...options.entry,
  });
  return { ...c, key };
}

/** A Prolific worker enters with `pid` (and, unless given, a SESSION_ID of their own that a reload keeps). */
export async function enter(
  db: Db,
  key: string,
  pid: string,
  body: Record<string, string> = { PROLIFIC_PID: pid, STUDY_ID: "study-1", SESSION_ID: `s-${pid}` },
) {
  const { token, session } = await enterCrowd(db, anonymous, { key, body });
  const actor: Actor = await resolveActor(db, { bearerToken: token });
  return { actor, token, session };
}

/**
 * A worker on a new generic-platform entry of `campaignId` (no training unless `entry` says),
 * entered under a made-up worker id and consented: the next call is for work. `startedAt` is the
 * time just before they entered.
 */
export async function workingCrowdWorker(db: Db, campaignId: number, entry: Partial<typeof crowdEntries.$inferInsert>) {
  const key = randomBytes(16).toString("base64url");
  await db
    .insert(crowdEntries)
    .values({ campaignId, enabled: true, entryKey: key, codes: CODES, platform: "generic", trainingItems: 0, ...entry });
  const startedAt = Date.now();
  const { token } = await enterCrowd(db, anonymous, { key, body: { worker: unique("w") } });
  const actor = await resolveActor(db, { bearerToken: token });
  await consentToCrowdSession(db, actor);
  return { actor, userId: (actor as { id: number }).id, startedAt };
}

/** How a worker's crowd session ended, or why it is stopped: the details of the AppError nextTaskFor refuses them with. */
export async function sessionEndOf(db: Db, actor: Actor, campaignId: number): Promise<unknown> {
  return (await refusal(nextTaskFor(db, actor, { campaignId }))).details;
}

/**
 * A Prolific worker, entered and consented, on a new entry of `campaignId` whose first two gold
 * passages expected sufficient become its training items (2 to pass at half, quota 4).
 */
export async function trainingWorker(db: Db, campaignId: number): Promise<Actor> {
  await db.execute(sql`
    update passages set is_training = true
    where id in (select id from passages where campaign_id = ${campaignId} and is_gold and expected_verdict = 'sufficient' order by id limit 2)`);
  const key = randomBytes(16).toString("base64url");
  await db
    .insert(crowdEntries)
    .values({ campaignId, enabled: true, entryKey: key, codes: CODES, trainingItems: 2, trainingPassShare: 0.5, quota: 4 });
  const { token } = await enterCrowd(db, anonymous, {
    key,
    body: { PROLIFIC_PID: unique("pid"), STUDY_ID: "study-1", SESSION_ID: unique("s") },
  });
  const worker = await resolveActor(db, { bearerToken: token });
  await consentToCrowdSession(db, worker);
  return worker;
}

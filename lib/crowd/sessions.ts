import "server-only";
import { randomBytes } from "node:crypto";
import { and, count, eq, isNotNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import {
  campaigns,
  crowdEntries,
  crowdSessions,
  crowdWorkers,
  sessions,
  type CrowdEntry,
  type CrowdSession,
  type CrowdWorker,
} from "@/db/schema";
import type { Actor } from "@/lib/auth/actor";
import { randomSecret, sha256 } from "@/lib/auth/crypto";
import { CROWD_TOKEN_PREFIX } from "@/lib/auth/sessions";
import { insertUser } from "@/lib/auth/users";
import { AppError, isUniqueViolation } from "@/lib/errors";
import { entryIdsOf, MTURK_PREVIEW_ASSIGNMENT, parseEntryParams, type EntryIds } from "./entry-params";
import { requireCrowdSession } from "./crowd-actor";
import { admitEntry } from "./entry-limits";
import { latestSessionOf, sessionView, settleSession, trainingTotal } from "./session-state";
import type { CrowdEntryInfo, CrowdSessionView } from "./session.contract";

/** How long a crowd credential outlives its session's deadline: the worker can still read their code. */
const CREDENTIAL_GRACE_MS = 24 * 3600 * 1000;

async function entryByKey(db: Db, key: string): Promise<{ entry: CrowdEntry; campaign: typeof campaigns.$inferSelect }> {
  const [row] = await db
    .select({ entry: crowdEntries, campaign: campaigns })
    .from(crowdEntries)
    .innerJoin(campaigns, eq(campaigns.id, crowdEntries.campaignId))
    .where(eq(crowdEntries.entryKey, key));
  if (!row) throw notOpen();
  return row;
}

const notOpen = () => new AppError("not_found", "This study link is not open: it is unknown, or its crowd entry is turned off.");

async function openEntry(db: Db, key: string): Promise<{ entry: CrowdEntry; campaign: typeof campaigns.$inferSelect }> {
  const row = await entryByKey(db, key);
  if (!row.entry.enabled) throw notOpen();
  return row;
}

/** The public face of a crowd entry (anyone with the link): what the consent step and the MTurk preview show. */
export async function getCrowdEntryInfo(db: Db, _actor: Actor, key: string): Promise<CrowdEntryInfo> {
  const { entry, campaign } = await openEntry(db, key);
  return {
    campaignName: campaign.name,
    platform: entry.platform,
    consent: entry.consent,
    instructions: campaign.instructions,
    trainingItems: entry.trainingItems,
    quota: entry.quota,
    quotaUnit: entry.quotaUnit,
    timeLimitMinutes: entry.timeLimitMinutes,
    // Written for the purpose in the settings: a gold passage shown here would be known to every link holder.
    example: entry.example,
  };
}

function entryIds(entry: CrowdEntry, body: unknown): EntryIds {
  const ids = entryIdsOf(entry.platform, parseEntryParams(entry.platform, body));
  if (entry.platform === "mturk") {
    if (ids.platformSessionId === MTURK_PREVIEW_ASSIGNMENT)
      throw new AppError("conflict", "This is a preview of the HIT: accept it to start.", { preview: true });
  }
  return ids;
}

/** The platform worker's crowd account in this campaign: found, or made (a pseudonymous user of role `crowd`). */
async function workerOf(db: Db, entry: CrowdEntry, workerId: string): Promise<CrowdWorker> {
  const where = and(
    eq(crowdWorkers.campaignId, entry.campaignId),
    eq(crowdWorkers.platform, entry.platform),
    eq(crowdWorkers.platformWorkerId, workerId),
  );
  for (let attempt = 1; ; attempt++) {
    const [found] = await db.select().from(crowdWorkers).where(where);
    if (found) return found;
    try {
      return await db.transaction(async (tx) => {
        const user = await insertUser(tx as unknown as Db, {
          username: `crowd-${entry.campaignId}-${randomBytes(6).toString("hex")}`,
          role: "crowd",
          passwordHash: null,
        });
        const [made] = await tx
          .insert(crowdWorkers)
          .values({ campaignId: entry.campaignId, platform: entry.platform, platformWorkerId: workerId, userId: user.id })
          .returning();
        return made!;
      });
    } catch (error) {
      // Two entries of one worker at once: the other made the account; read it.
      if (attempt >= 3 || !(isUniqueViolation(error) || (error instanceof AppError && error.code === "conflict"))) throw error;
    }
  }
}

/** The worker's crowd account when the entry is closed or stopped: only workers who entered before may come back. */
async function knownWorker(db: Db, entry: CrowdEntry, workerId: string): Promise<CrowdWorker> {
  const [found] = await db
    .select()
    .from(crowdWorkers)
    .where(
      and(
        eq(crowdWorkers.campaignId, entry.campaignId),
        eq(crowdWorkers.platform, entry.platform),
        eq(crowdWorkers.platformWorkerId, workerId),
      ),
    );
  if (!found) throw notOpen();
  return found;
}

/** Whether an entry's platform ids are the session's own: those it started with (the HIT and assignment, the study and submission). */
function sameIds(s: CrowdSession, ids: EntryIds): boolean {
  return s.platformSessionId === ids.platformSessionId && s.studyId === ids.studyId;
}

/** The refusal of a re-entry with another assignment or submission id while a session is in progress (README: "Crowd campaigns"). */
function anotherSession(entry: CrowdEntry): AppError {
  const field = entry.platform === "mturk" ? "assignmentId" : "SESSION_ID";
  return new AppError(
    "conflict",
    `This link's ${field} is not the one your session in progress started with. Go back to that session's page, or wait until its time runs out.`,
    { sessionInProgress: true, field },
  );
}

/**
 * The worker's session in progress (entered again with its own platform ids: a reload), else a new
 * one (the entry open, under the sessions limit), else their last one, with its code. A session's
 * platform ids are fixed at entry: another assignment or submission id while it is in progress is
 * refused, so nobody holding a worker's id can redirect their session or its completion.
 */
async function sessionFor(db: Db, entry: CrowdEntry, worker: CrowdWorker, ids: EntryIds): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const found = await latestSessionOf(db, worker.userId);
    // Settled first: a session whose time ran out (or whose entry was stopped) is not in progress any more.
    const last = found && (await settleSession(db, found)).session;
    if (last && last.stage !== "ended") {
      if (!sameIds(last, ids)) throw anotherSession(entry);
      return last.id;
    }
    if (last && (last.number >= entry.maxSessionsPerWorker || !entry.enabled)) return last.id;
    if (!entry.enabled) throw notOpen();
    try {
      const deadlineAt = new Date(Date.now() + entry.timeLimitMinutes * 60_000);
      const platformIds = { studyId: ids.studyId, platformSessionId: ids.platformSessionId, turkSubmitTo: ids.turkSubmitTo };
      const values = {
        workerId: worker.id,
        campaignId: entry.campaignId,
        userId: worker.userId,
        number: (last?.number ?? 0) + 1,
        deadlineAt,
        ...platformIds,
      };
      const [made] = await db.insert(crowdSessions).values(values).returning({ id: crowdSessions.id });
      return made!.id;
    } catch (error) {
      if (attempt >= 3 || !isUniqueViolation(error)) throw error; // another entry of this worker opened it first
    }
  }
}

/**
 * A platform worker enters through the campaign's link (anyone with it: the platforms' ids are not
 * signed). Their id maps to one crowd account of this campaign only; entering again with the same
 * platform ids resumes the open session (also once the entry is closed to newcomers), or — past the
 * sessions limit — shows the last one with its code again. Answers a fresh
 * credential for the Bearer header and the session.
 */
export async function enterCrowd(
  db: Db,
  _actor: Actor,
  input: { key: string; body: unknown; userAgent?: string | null; address?: string },
): Promise<{ token: string; session: CrowdSessionView }> {
  const { entry } = await entryByKey(db, input.key);
  const ids = entryIds(entry, input.body);
  // The rate limits always; the caps (and a newcomer's account) only while the entry is open. Closed
  // or stopped: no newcomer; a worker who entered before comes back to their session (a stopped one then ends).
  await admitEntry(db, entry, { workerId: ids.workerId, address: input.address ?? "unknown", newcomers: entry.enabled });
  const worker = entry.enabled ? await workerOf(db, entry, ids.workerId) : await knownWorker(db, entry, ids.workerId);
  const sessionId = await sessionFor(db, entry, worker, ids);
  const ctx = await settleSession(db, (await latestSessionOf(db, worker.userId))!);
  if (ctx.session.id !== sessionId) throw new Error("enterCrowd: the worker's latest session is not the one entered");
  const token = randomSecret(CROWD_TOKEN_PREFIX);
  const expiresAt = new Date(Math.max(ctx.session.deadlineAt.getTime(), Date.now()) + CREDENTIAL_GRACE_MS);
  await db
    .insert(sessions)
    .values({ id: sha256(token), userId: worker.userId, expiresAt, userAgent: input.userAgent?.slice(0, 300) ?? null });
  return { token, session: await sessionView(db, ctx) };
}

export async function getMyCrowdSession(db: Db, actor: Actor): Promise<CrowdSessionView> {
  const { ctx } = await requireCrowdSession(db, actor);
  return sessionView(db, ctx);
}

/**
 * The worker agrees to the consent text: training follows, or real work when there is no training
 * item or the worker passed training in an earlier session. Idempotent past the consent stage.
 */
export async function consentToCrowdSession(db: Db, actor: Actor): Promise<CrowdSessionView> {
  const { ctx } = await requireCrowdSession(db, actor);
  if (ctx.session.stage !== "consent") return sessionView(db, ctx);
  const [trained] = await db
    .select({ n: count() })
    .from(crowdSessions)
    .where(and(eq(crowdSessions.workerId, ctx.session.workerId), isNotNull(crowdSessions.workStartedAt)));
  const toWork = (trained?.n ?? 0) > 0 || (await trainingTotal(db, ctx)) === 0;
  const [session] = await db
    .update(crowdSessions)
    .set(toWork ? { stage: "working", workStartedAt: new Date() } : { stage: "training" })
    .where(and(eq(crowdSessions.id, ctx.session.id), eq(crowdSessions.stage, "consent")))
    .returning();
  return sessionView(db, { ...ctx, session: session ?? ctx.session });
}

// Internal to lib/crowd/ (enterCrowd calls it before the worker's account is looked up): what keeps
// a public entry link from being flooded. Anyone with the link can make up worker ids, so every
// entry is counted per campaign and per address, and a campaign's places and its sessions in
// progress are capped; past a limit the entry is refused before any account exists.
import "server-only";
import { randomBytes } from "node:crypto";
import { lt, sql } from "drizzle-orm";
import { rowsOf, type Db, type Tx } from "@/db/client";
import { crowdEntryAttempts, crowdWorkers, type CrowdEntry } from "@/db/schema";
import { insertUser } from "@/lib/auth/users";
import { AppError } from "@/lib/errors";
import type { EntryUsage } from "./settings.contract";

export const ENTRY_LIMITS = {
  /** Attempts older than this count for nothing. */
  windowSeconds: 60,
  /**
   * Entries one address may make into one campaign per window. A lab, a classroom or a provider's
   * NAT brings dozens of real workers from one address at once, and each reload is an entry too (the
   * e2e suites enter up to about 75 from 127.0.0.1 within a minute or two): 120 a minute lets them
   * in, and a script from one address makes at most 2 entries a second, each still under the caps.
   */
  perAddress: 120,
  /**
   * Entries into one campaign per window, from all addresses: 10 × maxSessionsInProgress (at least
   * 100). A study never admits more than maxSessionsInProgress at once, so ten times that a minute
   * leaves room for reloads and screen-outs, while a flood from many addresses stays bounded.
   */
  perCampaignFactor: 10,
  perCampaignMin: 100,
  /** A worker account made here counts as a session in progress for this long until its session exists. */
  pendingSeconds: 60,
  /** Attempt rows older than this are deleted, now and then (every `pruneEvery`-th attempt). */
  pruneAfterMinutes: 60,
  pruneEvery: 64,
} as const;

/** Advisory lock class of a campaign's entries (the sign-in limiter uses 7301 and 7302). */
const LOCK_ENTRY = 7303;

/** The campaign's counts beside its caps (what the coordinator's crowd settings show). */
export async function entryUsage(db: Db | Tx, campaignId: number): Promise<EntryUsage> {
  const [row] = rowsOf<EntryUsage>(
    await db.execute(sql`
      select (select count(*) from crowd_workers where campaign_id = ${campaignId})::int as "workers",
        (select count(*) from crowd_sessions where campaign_id = ${campaignId} and stage <> 'ended' and deadline_at > clock_timestamp())::int as "sessionsInProgress"`),
  );
  return row ?? { workers: 0, sessionsInProgress: 0 };
}

/** Per-campaign entries a window allows. */
export function perCampaignLimit(entry: Pick<CrowdEntry, "maxSessionsInProgress">): number {
  return Math.max(ENTRY_LIMITS.perCampaignMin, ENTRY_LIMITS.perCampaignFactor * entry.maxSessionsInProgress);
}

/**
 * Lets an entry through or refuses it: 429 past a rate limit (with `retryAfterSeconds`), 409 when
 * the study is full (`full`: "places" or "sessions"). One short transaction holds the campaign's
 * advisory lock around the counts and, for a newcomer admitted, the making of their account — so
 * parallel entries cannot all pass one count. A newcomer's account then counts as a session in
 * progress until its session is made (just after, in enterCrowd). A worker resuming their open
 * session, or shown their last one again, is never refused by the caps. Attempts past the rate
 * checks are recorded (made or refused); those refused by a rate limit are not, so a flood does not
 * grow the table and Retry-After is exact.
 */
export async function admitEntry(
  db: Db,
  entry: CrowdEntry,
  input: { workerId: string; address: string; newcomers?: boolean },
): Promise<void> {
  const { refusal, attemptId } = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_ENTRY}, ${entry.campaignId % 2_147_483_647}::int)`);
    const rate = await rateRefusal(tx, entry, input.address);
    if (rate) return { refusal: rate, attemptId: 0 };
    const [attempt] = await tx
      .insert(crowdEntryAttempts)
      .values({ campaignId: entry.campaignId, address: input.address, createdAt: sql`clock_timestamp()` })
      .returning({ id: crowdEntryAttempts.id });
    // `newcomers: false` (the entry closed or stopped): no session can start, so no cap applies and no account is made.
    const full = input.newcomers === false ? null : await capRefusal(tx, entry, input.workerId);
    return { refusal: full, attemptId: attempt!.id };
  });
  if (attemptId % ENTRY_LIMITS.pruneEvery === 0 && attemptId > 0) await pruneEntryAttempts(db);
  if (refusal) throw refusal;
}

/** The rate limit an entry from `address` would pass, if any: refused with the seconds until one more fits. */
async function rateRefusal(tx: Tx, entry: CrowdEntry, address: string): Promise<AppError | null> {
  const limits = [
    { limit: ENTRY_LIMITS.perAddress, address, reason: "address", message: "Too many entries into this study from your address" },
    { limit: perCampaignLimit(entry), address: null, reason: "campaign", message: "Too many people are entering this study at once" },
  ];
  for (const l of limits) {
    // The limit-th newest attempt in the window: once it leaves the window, one more fits.
    const [row] = rowsOf<{ wait: number }>(
      await tx.execute(sql`
        select extract(epoch from created_at + make_interval(secs => ${ENTRY_LIMITS.windowSeconds}) - clock_timestamp())::float8 as wait
        from crowd_entry_attempts
        where campaign_id = ${entry.campaignId} and (${l.address}::text is null or address = ${l.address}::text)
          and created_at > clock_timestamp() - make_interval(secs => ${ENTRY_LIMITS.windowSeconds})
        order by created_at desc offset ${l.limit - 1} limit 1`),
    );
    if (row) {
      const seconds = Math.max(1, Math.ceil(Number(row.wait)));
      return new AppError("rate_limited", `${l.message}: try again in ${seconds} s.`, { reason: l.reason, retryAfterSeconds: seconds });
    }
  }
  return null;
}

interface WorkerState {
  found: boolean;
  /** Whether this entry would start a session (a newcomer, or a returning worker with sessions left and none open). */
  starts: boolean;
  workers: number;
  inProgress: number;
}

/** The caps: a newcomer past maxWorkers, or a new session past maxSessionsInProgress, is refused; an admitted newcomer's account is made. */
async function capRefusal(tx: Tx, entry: CrowdEntry, workerId: string): Promise<AppError | null> {
  const s = await workerState(tx, entry, workerId);
  if (!s.starts) return null;
  if (!s.found && s.workers >= entry.maxWorkers) {
    return new AppError(
      "conflict",
      `This study is full: all its ${entry.maxWorkers} places are taken. Return it on the platform you came from; no account was made for you.`,
      {
        full: "places",
      },
    );
  }
  if (s.inProgress >= entry.maxSessionsInProgress) {
    return new AppError(
      "conflict",
      `This study is full right now: ${entry.maxSessionsInProgress} people are working on it. Try again in a few minutes; no account was made for you.`,
      {
        full: "sessions",
        retryAfterSeconds: ENTRY_LIMITS.windowSeconds,
      },
    );
  }
  if (!s.found) await makeCrowdAccount(tx, entry, workerId);
  return null;
}

async function workerState(tx: Tx, entry: CrowdEntry, workerId: string): Promise<WorkerState> {
  const [row] = rowsOf<{ found: boolean; open: boolean; sessions: number; workers: number; in_progress: number }>(
    await tx.execute(sql`
      with me as (
        select w.id from crowd_workers w
        where w.campaign_id = ${entry.campaignId} and w.platform = ${entry.platform} and w.platform_worker_id = ${workerId}
      )
      select exists (select 1 from me) as found,
        exists (select 1 from crowd_sessions s join me on s.worker_id = me.id where s.stage <> 'ended') as open,
        coalesce((select max(s.number) from crowd_sessions s join me on s.worker_id = me.id), 0)::int as sessions,
        (select count(*) from crowd_workers where campaign_id = ${entry.campaignId})::int as workers,
        ((select count(*) from crowd_sessions where campaign_id = ${entry.campaignId} and stage <> 'ended' and deadline_at > clock_timestamp())
          + (select count(*) from crowd_workers w where w.campaign_id = ${entry.campaignId}
              and w.created_at > clock_timestamp() - make_interval(secs => ${ENTRY_LIMITS.pendingSeconds})
              and w.id not in (select id from me) and not exists (select 1 from crowd_sessions s where s.worker_id = w.id)))::int as in_progress`),
  );
  const r = row!;
  return {
    found: r.found,
    starts: !r.found || (!r.open && r.sessions < entry.maxSessionsPerWorker),
    workers: r.workers,
    inProgress: r.in_progress,
  };
}

/** A newcomer's pseudonymous account (role `crowd`) and their crowd_workers row, made under the campaign's lock. */
async function makeCrowdAccount(tx: Tx, entry: CrowdEntry, workerId: string): Promise<void> {
  const user = await insertUser(tx as unknown as Db, {
    username: `crowd-${entry.campaignId}-${randomBytes(6).toString("hex")}`,
    role: "crowd",
    passwordHash: null,
  });
  await tx
    .insert(crowdWorkers)
    .values({ campaignId: entry.campaignId, platform: entry.platform, platformWorkerId: workerId, userId: user.id });
}

/** Deletes attempt rows older than `pruneAfterMinutes`; returns how many. */
export async function pruneEntryAttempts(db: Db): Promise<number> {
  const cutoff = new Date(Date.now() - ENTRY_LIMITS.pruneAfterMinutes * 60_000);
  const deleted = await db
    .delete(crowdEntryAttempts)
    .where(lt(crowdEntryAttempts.createdAt, cutoff))
    .returning({ id: crowdEntryAttempts.id });
  return deleted.length;
}

import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { rowsOf, type Db } from "@/db/client";
import { crowdEntries, crowdEntryAttempts, crowdSessions } from "@/db/schema";
import { anonymous } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import { makeCampaign } from "@/test/campaign-factory";
import { CODES } from "@/test/crowd-entry";
import { describeEachDatabase } from "@/test/databases";
import { ENTRY_LIMITS, entryUsage, perCampaignLimit, pruneEntryAttempts } from "./entry-limits";
import { enterCrowd } from "./sessions";

// The attacker holds the link and makes up ids: every test enters through enterCrowd as the route
// does, and counts what the database holds afterwards (accounts, workers, sessions, attempt rows).

async function crowdCampaign(db: Db, entry: Partial<typeof crowdEntries.$inferInsert>) {
  const c = await makeCampaign(db, { queries: 4, candidates: 1 });
  const key = randomBytes(16).toString("base64url");
  await db
    .insert(crowdEntries)
    .values({ campaignId: c.campaignId, enabled: true, entryKey: key, codes: CODES, trainingItems: 0, ...entry });
  return { campaignId: c.campaignId, key };
}

type Answer = { status: "entered" } | { status: "rate_limited"; retry: number } | { status: "full"; full: string };

async function enter(db: Db, key: string, pid: string, address: string): Promise<Answer> {
  try {
    await enterCrowd(db, anonymous, { key, body: { PROLIFIC_PID: pid, STUDY_ID: "study-1", SESSION_ID: `session-${pid}` }, address });
    return { status: "entered" };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const details = error.details as { full?: string; retryAfterSeconds?: number };
    if (error.code === "rate_limited") return { status: "rate_limited", retry: details.retryAfterSeconds! };
    if (error.code === "conflict" && details.full) return { status: "full", full: details.full };
    throw error;
  }
}

function tally(answers: Answer[]): Record<string, number> {
  const t: Record<string, number> = {};
  for (const a of answers) {
    const k = a.status === "full" ? `full:${a.full}` : a.status;
    t[k] = (t[k] ?? 0) + 1;
  }
  return t;
}

/** What the campaign's entries left in the database: accounts named for it, workers, open sessions, attempt rows. */
async function footprint(db: Db, campaignId: number) {
  const [row] = rowsOf<{ users: number; workers: number; open: number; attempts: number }>(
    await db.execute(sql`
      select (select count(*) from users where username like ${`crowd-${campaignId}-%`})::int as users,
        (select count(*) from crowd_workers where campaign_id = ${campaignId})::int as workers,
        (select count(*) from crowd_sessions where campaign_id = ${campaignId} and stage <> 'ended')::int as open,
        (select count(*) from crowd_entry_attempts where campaign_id = ${campaignId})::int as attempts`),
  );
  return row!;
}

describeEachDatabase("crowd entry limits", ({ db }) => {
  it("600 parallel entries from one address make at most maxWorkers accounts: 120 pass the address limit, 40 enter, 80 find it full", async () => {
    const c = await crowdCampaign(db(), { maxWorkers: 40 });
    const answers = await Promise.all(Array.from({ length: 600 }, (_, i) => enter(db(), c.key, `flood-${i}`, "203.0.113.7")));
    expect(tally(answers)).toEqual({
      entered: 40,
      "full:places": ENTRY_LIMITS.perAddress - 40,
      rate_limited: 600 - ENTRY_LIMITS.perAddress,
    });
    const waits = answers.flatMap((a) => (a.status === "rate_limited" ? [a.retry] : []));
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(1);
    expect(Math.max(...waits)).toBeLessThanOrEqual(ENTRY_LIMITS.windowSeconds);
    // Accounts only for the admitted; attempts past the rate check only (a flood does not grow the table).
    expect(await footprint(db(), c.campaignId)).toEqual({ users: 40, workers: 40, open: 40, attempts: ENTRY_LIMITS.perAddress });
    expect(await entryUsage(db(), c.campaignId)).toEqual({ workers: 40, sessionsInProgress: 40 });
  });

  it("300 parallel entries from 300 addresses: the campaign's limit and the caps hold, whatever the order", async () => {
    const c = await crowdCampaign(db(), { maxWorkers: 40, maxSessionsInProgress: 15 });
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, i) => enter(db(), c.key, `spread-${i}`, `10.1.${i >> 8}.${i & 255}`)),
    );
    const limit = perCampaignLimit({ maxSessionsInProgress: 15 });
    expect(limit).toBe(150);
    expect(tally(answers)).toEqual({ entered: 15, "full:sessions": limit - 15, rate_limited: 300 - limit });
    expect(await footprint(db(), c.campaignId)).toEqual({ users: 15, workers: 15, open: 15, attempts: limit });
  });

  it("a worker resuming their open session is never refused by the caps; an ended session frees its place for a newcomer", async () => {
    const c = await crowdCampaign(db(), { maxWorkers: 4, maxSessionsInProgress: 2 });
    const answers = await Promise.all(["a", "b", "c", "d"].map((pid) => enter(db(), c.key, pid, "192.0.2.1")));
    expect(tally(answers)).toEqual({ entered: 2, "full:sessions": 2 });
    const inside = ["a", "b", "c", "d"].filter((_, i) => answers[i]!.status === "entered");
    const outside = ["a", "b", "c", "d"].filter((_, i) => answers[i]!.status !== "entered");
    expect(await enter(db(), c.key, inside[0]!, "192.0.2.99")).toEqual({ status: "entered" });
    expect((await footprint(db(), c.campaignId)).users).toBe(2);

    // A session past its deadline no longer holds a place, even before anything ends it.
    await db()
      .update(crowdSessions)
      .set({ deadlineAt: new Date(Date.now() - 1000) })
      .where(eq(crowdSessions.campaignId, c.campaignId));
    expect(await enter(db(), c.key, outside[0]!, "192.0.2.1")).toEqual({ status: "entered" });
    expect(await enter(db(), c.key, outside[1]!, "192.0.2.1")).toEqual({ status: "entered" });
    // Four accounts now: a fifth id is refused for good (no place left), and makes none.
    expect(await enter(db(), c.key, "e", "192.0.2.1")).toEqual({ status: "full", full: "places" });
    expect(await footprint(db(), c.campaignId)).toMatchObject({ users: 4, workers: 4 });
    expect(await entryUsage(db(), c.campaignId)).toEqual({ workers: 4, sessionsInProgress: 2 });
  });

  it("the address limit is per campaign: another address, or the same one on another campaign, still enters; the window passes", async () => {
    const c = await crowdCampaign(db(), {});
    const other = await crowdCampaign(db(), {});
    const address = "203.0.113.50";
    // Fill the window with rows of the past 59 s, as many as the limit allows.
    const past = sql`clock_timestamp() - interval '59 seconds'`;
    await db()
      .insert(crowdEntryAttempts)
      .values(Array.from({ length: ENTRY_LIMITS.perAddress }, () => ({ campaignId: c.campaignId, address, createdAt: past })));
    const refused = await enter(db(), c.key, "late", address);
    expect(refused).toMatchObject({ status: "rate_limited" });
    expect((refused as { retry: number }).retry).toBeLessThanOrEqual(2);
    expect(await enter(db(), c.key, "neighbour", "203.0.113.51")).toEqual({ status: "entered" });
    expect(await enter(db(), other.key, "late", address)).toEqual({ status: "entered" });
    expect((await footprint(db(), c.campaignId)).users).toBe(1);

    await db().execute(
      sql`update crowd_entry_attempts set created_at = created_at - interval '2 seconds' where campaign_id = ${c.campaignId}`,
    );
    expect(await enter(db(), c.key, "late", address)).toEqual({ status: "entered" });
  });

  it("prunes attempt rows older than an hour", async () => {
    const c = await crowdCampaign(db(), {});
    const old = new Date(Date.now() - (ENTRY_LIMITS.pruneAfterMinutes + 1) * 60_000);
    await db()
      .insert(crowdEntryAttempts)
      .values([
        { campaignId: c.campaignId, address: "x", createdAt: old },
        { campaignId: c.campaignId, address: "x" },
      ]);
    expect(await pruneEntryAttempts(db())).toBeGreaterThanOrEqual(1);
    expect((await footprint(db(), c.campaignId)).attempts).toBe(1);
  });
});

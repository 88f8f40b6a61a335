import { eq, sql } from "drizzle-orm";
import { afterEach, beforeEach, expect, it } from "vitest";
import { annotatorStandings, apiTokens, batches, campaigns, sessions, users } from "@/db/schema";
import { anonymous, system, type Actor } from "@/lib/auth/actor";
import { createApiToken, revokeApiToken } from "@/lib/auth/api-tokens";
import { setUserPassword } from "@/lib/auth/passwords";
import { resolveActor, signIn, signOut } from "@/lib/auth/sessions";
import { createUser, disableUser } from "@/lib/auth/users";
import { requireActiveAnnotator } from "@/lib/campaign/annotate/annotator-access";
import { nextTask } from "@/lib/campaign/annotate/assignment";
import { changeBatchStatus } from "@/lib/campaign/batches";
import { setCampaignMembers } from "@/lib/campaign/campaigns";
import { pauseAnnotator } from "@/lib/campaign/quality/standings";
import { AppError } from "@/lib/errors";
import { makeAnnotator, makeCampaign } from "@/test/campaign-factory";
import { describeEachDatabase, unique } from "@/test/databases";
import { CACHE_TTL_MS, setCacheClock } from "./hot-cache";

// The per-process caches of db/cache/hot-cache.ts, with a fake clock. "Another process" is a direct
// write to the database: nothing in this process hears of it, so only the cache's age ends the entry.
const password = "password-123";
let clock = 1_000_000;
beforeEach(() => setCacheClock(() => clock));
afterEach(() => setCacheClock(null));
const later = (ms: number) => void (clock += ms);

async function status(promise: Promise<unknown>): Promise<string> {
  try {
    const value = await promise;
    return value && typeof value === "object" && "kind" in value ? (value as Actor).kind : "ok";
  } catch (error) {
    if (error instanceof AppError) return `${error.status}`;
    throw error;
  }
}

describeEachDatabase("hot caches", ({ db }) => {
  async function signedIn(role: "annotator" | "coordinator" = "annotator") {
    const { user } = await createUser(db(), system, { username: unique(role), role, password });
    const { sessionToken } = await signIn(db(), anonymous, { username: user.username, password, address: unique("a") });
    return { user, sessionToken, actor: await resolveActor(db(), { sessionToken }) };
  }

  it("a session revoked, expired or disabled by another process is refused within 1 s", async () => {
    for (const change of [
      (userId: number) => db().update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.userId, userId)),
      (userId: number) =>
        db()
          .update(sessions)
          .set({ expiresAt: new Date(Date.now() - 1000) })
          .where(eq(sessions.userId, userId)),
      (userId: number) => db().update(users).set({ disabledAt: new Date() }).where(eq(users.id, userId)),
    ]) {
      const { user, sessionToken } = await signedIn();
      await change(user.id);
      later(CACHE_TTL_MS - 1);
      const stale = await status(resolveActor(db(), { sessionToken }));
      later(1);
      expect(await status(resolveActor(db(), { sessionToken }))).toBe("anonymous");
      // Within the second the answer may still be the cached one — except an expiry, checked on every call.
      expect(["user", "anonymous"]).toContain(stale);
    }
  });

  it("an expired session is refused at once even while cached", async () => {
    const { user, sessionToken } = await signedIn();
    await db()
      .update(sessions)
      .set({ expiresAt: sql`now() + interval '200 milliseconds'` })
      .where(eq(sessions.userId, user.id));
    later(CACHE_TTL_MS);
    expect(await status(resolveActor(db(), { sessionToken }))).toBe("user"); // cached again, with its expiry
    await new Promise((r) => setTimeout(r, 300));
    expect(await status(resolveActor(db(), { sessionToken }))).toBe("anonymous");
  });

  it("sign-out, password change and disabling by this process refuse the cookie at once", async () => {
    const a = await signedIn();
    await signOut(db(), a.actor);
    expect(await status(resolveActor(db(), { sessionToken: a.sessionToken }))).toBe("anonymous");

    const coord = await signedIn("coordinator");
    const b = await signedIn();
    await setUserPassword(db(), coord.actor, b.user.id, { password: "another-password-456" });
    expect(await status(resolveActor(db(), { sessionToken: b.sessionToken }))).toBe("anonymous");

    const c = await signedIn();
    await disableUser(db(), coord.actor, c.user.id);
    expect(await status(resolveActor(db(), { sessionToken: c.sessionToken }))).toBe("anonymous");
  });

  it("a token revoked here is refused at once, one revoked or expired elsewhere within 1 s; last_used_at is written once a minute", async () => {
    const coord = await signedIn("coordinator");
    const here = await createApiToken(db(), coord.actor, { name: "here" });
    expect(await status(resolveActor(db(), { bearerToken: here.token }))).toBe("user");
    await revokeApiToken(db(), coord.actor, here.id);
    expect(await status(resolveActor(db(), { bearerToken: here.token }))).toBe("401");

    const elsewhere = await createApiToken(db(), coord.actor, { name: "elsewhere" });
    const expiring = await createApiToken(db(), coord.actor, { name: "expiring" });
    expect(await status(resolveActor(db(), { bearerToken: elsewhere.token }))).toBe("user");
    expect(await status(resolveActor(db(), { bearerToken: expiring.token }))).toBe("user");
    await db().update(apiTokens).set({ revokedAt: new Date() }).where(eq(apiTokens.id, elsewhere.id));
    await db()
      .update(apiTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiTokens.id, expiring.id));
    later(CACHE_TTL_MS);
    expect(await status(resolveActor(db(), { bearerToken: elsewhere.token }))).toBe("401");
    expect(await status(resolveActor(db(), { bearerToken: expiring.token }))).toBe("401");

    const used = await createApiToken(db(), coord.actor, { name: "used" });
    const lastUsed = async () => (await db().select({ at: apiTokens.lastUsedAt }).from(apiTokens).where(eq(apiTokens.id, used.id)))[0]!.at;
    await resolveActor(db(), { bearerToken: used.token });
    expect(await lastUsed()).toBeInstanceOf(Date);
    await db().update(apiTokens).set({ lastUsedAt: null }).where(eq(apiTokens.id, used.id));
    later(30_000);
    await resolveActor(db(), { bearerToken: used.token });
    expect(await lastUsed()).toBeNull(); // no write per request
    later(30_001);
    await resolveActor(db(), { bearerToken: used.token });
    expect(await lastUsed()).toBeInstanceOf(Date);
  });

  it("an annotator paused or removed here is refused at once, by another process within 1 s; batch pauses at once", async () => {
    const c = await makeCampaign(db(), { queries: 2, candidates: 2 });
    const a = await makeAnnotator(db());
    expect(await status(nextTask(db(), a, { campaignId: c.campaignId }))).toBe("ok");
    await pauseAnnotator(db(), system, c.campaignId, a.id);
    expect(await status(nextTask(db(), a, { campaignId: c.campaignId }))).toBe("403");

    const b = await makeAnnotator(db());
    expect(await status(requireActiveAnnotator(db(), b, c.campaignId))).toBe("ok");
    await db().insert(annotatorStandings).values({ campaignId: c.campaignId, userId: b.id, status: "paused", pauseReason: "coordinator" });
    later(CACHE_TTL_MS);
    expect(await status(requireActiveAnnotator(db(), b, c.campaignId))).toBe("403");
    expect(await status(requireActiveAnnotator(db(), b, c.campaignId, { fresh: true }))).toBe("403");

    const d = await makeAnnotator(db());
    const e = await makeAnnotator(db());
    expect(await status(requireActiveAnnotator(db(), d, c.campaignId))).toBe("ok");
    expect(await status(requireActiveAnnotator(db(), e, c.campaignId))).toBe("ok");
    await setCampaignMembers(db(), system, c.campaignId, { allAnnotators: false, userIds: [e.id] });
    expect(await status(requireActiveAnnotator(db(), d, c.campaignId))).toBe("404");
    await db().update(campaigns).set({ allAnnotators: true }).where(eq(campaigns.id, c.campaignId));
    await db().execute(sql`delete from campaign_members where campaign_id = ${c.campaignId}`);
    await db().update(campaigns).set({ allAnnotators: false }).where(eq(campaigns.id, c.campaignId));
    later(CACHE_TTL_MS);
    expect(await status(requireActiveAnnotator(db(), e, c.campaignId))).toBe("404");

    // A batch's status is read by the claiming statement itself: no cache in between.
    await db().update(campaigns).set({ allAnnotators: true }).where(eq(campaigns.id, c.campaignId));
    later(CACHE_TTL_MS);
    const f = await makeAnnotator(db());
    expect(await nextTask(db(), f, { campaignId: c.campaignId })).not.toBeNull();
    await db().update(batches).set({ status: "paused" }).where(eq(batches.id, c.batchId)); // as another process would
    expect(await nextTask(db(), f, { campaignId: c.campaignId, after: "x".repeat(22) })).not.toBeNull(); // the live claim resumes
    await changeBatchStatus(db(), system, c.batchId, "launch");
    await changeBatchStatus(db(), system, c.batchId, "pause"); // ends the claims
    expect(await nextTask(db(), f, { campaignId: c.campaignId })).toBeNull();
  });
});

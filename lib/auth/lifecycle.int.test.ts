import { and, eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { apiTokens, auditLog, invites, judgments, passages } from "@/db/schema";
import { nextTask } from "@/lib/campaign/annotate/assignment";
import { submitJudgment } from "@/lib/campaign/annotate/judgments";
import { AppError } from "@/lib/errors";
import { judgmentOf, makeCampaign } from "@/test/campaign-factory";
import { describeEachDatabase, unique } from "@/test/databases";
import { anonymous, system, type Actor, type UserActor } from "./actor";
import { createApiToken, listApiTokens } from "./api-tokens";
import { sha256 } from "./crypto";
import { acceptInvite } from "./invites";
import { SIGN_IN_LIMITS } from "./sign-in-limits";
import { changeOwnPassword, createPasswordResetLink, setUserPassword } from "./passwords";
import { resolveActor, signIn, signOutEverywhere } from "./sessions";
import { createUser, disableUser, enableUser } from "./users";

async function expectAppError(promise: Promise<unknown>, code: AppError["code"], message?: RegExp) {
  await expect(promise).rejects.toSatisfy(
    (e: unknown) => e instanceof AppError && e.code === code && (!message || message.test(e.message)),
  );
}

describeEachDatabase("account lifecycle", ({ db }) => {
  const password = "correct horse battery";

  async function account(role: "coordinator" | "annotator"): Promise<{ id: number; username: string }> {
    const { user } = await createUser(db(), system, { username: unique(role), role, password });
    return user;
  }

  async function session(username: string, pw = password): Promise<{ token: string; actor: UserActor }> {
    const { sessionToken } = await signIn(db(), anonymous, { username, password: pw, address: unique("addr") });
    const actor = await resolveActor(db(), { sessionToken, address: "203.0.113.7" });
    if (actor.kind !== "user") throw new Error("not signed in");
    return { token: sessionToken, actor };
  }

  const kindOf = async (sessionToken: string) => (await resolveActor(db(), { sessionToken })).kind;
  const auditOf = (actionName: string, targetId: number) =>
    db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, actionName), eq(auditLog.targetId, String(targetId))));

  it("disabling ends the user's sessions and tokens at once, refuses sign-in, and is audited with the address", async () => {
    const coord = await session((await account("coordinator")).username);
    const target = await account("coordinator");
    const theirs = await session(target.username);
    const token = await createApiToken(db(), theirs.actor, { name: "script" });
    expect((await resolveActor(db(), { bearerToken: token.token })).kind).toBe("user");

    const disabled = await disableUser(db(), coord.actor, target.id);
    expect(disabled.disabledAt).toBeInstanceOf(Date);
    expect(await kindOf(theirs.token)).toBe("anonymous");
    await expectAppError(resolveActor(db(), { bearerToken: token.token }), "unauthorized");
    await expectAppError(signIn(db(), anonymous, { username: target.username, password, address: unique("a") }), "unauthorized");
    const [entry] = await auditOf("user.disable", target.id);
    expect(entry).toMatchObject({
      actorId: coord.actor.id,
      actorUsername: coord.actor.username,
      targetType: "user",
      address: "203.0.113.7",
    });
    expect(entry?.details).toMatchObject({ username: target.username, sessionsEnded: 1, tokensRevoked: 1 });

    await enableUser(db(), coord.actor, target.id);
    expect((await session(target.username)).actor.id).toBe(target.id);
    expect(await kindOf(theirs.token)).toBe("anonymous"); // ended sessions stay ended
    expect(await auditOf("user.enable", target.id)).toHaveLength(1);
  });

  it("lets only coordinators disable, never themselves, and answers 404 for an unknown user", async () => {
    const coord = await session((await account("coordinator")).username);
    const ann = await session((await account("annotator")).username);
    await expectAppError(disableUser(db(), coord.actor, coord.actor.id), "conflict", /your own account/);
    await expectAppError(disableUser(db(), ann.actor, coord.actor.id), "forbidden");
    await expectAppError(disableUser(db(), anonymous, coord.actor.id), "unauthorized");
    await expectAppError(enableUser(db(), ann.actor, coord.actor.id), "forbidden");
    await expectAppError(disableUser(db(), coord.actor, 987654321), "not_found");
  });

  it("keeps a disabled annotator's judgments, still counted", async () => {
    const coord = await session((await account("coordinator")).username);
    const { campaignId } = await makeCampaign(db(), { queries: 1, candidates: 1 });
    const ann = await session((await account("annotator")).username);
    const task = await nextTask(db(), ann.actor, { campaignId });
    await submitJudgment(db(), ann.actor, task!.claim.handle, judgmentOf(task!, "sufficient"));
    await disableUser(db(), coord.actor, ann.actor.id);
    const [row] = await db()
      .select({ counted: passages.judgmentCount })
      .from(judgments)
      .innerJoin(passages, eq(passages.id, judgments.passageId))
      .where(eq(judgments.userId, ann.actor.id));
    expect(row?.counted).toBe(1);
  });

  it("changes one's own password with the current one only, ending the other sessions", async () => {
    const me = await account("annotator");
    const here = await session(me.username);
    const elsewhere = await session(me.username);
    await expectAppError(
      changeOwnPassword(db(), here.actor, { currentPassword: "not my password", newPassword: "a new password 1" }),
      "invalid",
      /currentPassword: is not your current password/,
    );
    await expectAppError(
      changeOwnPassword(db(), anonymous, { currentPassword: password, newPassword: "a new password 1" }),
      "unauthorized",
    );
    expect(await changeOwnPassword(db(), here.actor, { currentPassword: password, newPassword: "a new password 1" })).toEqual({
      sessionsEnded: 1,
    });
    expect(await kindOf(here.token)).toBe("user");
    expect(await kindOf(elsewhere.token)).toBe("anonymous");
    await expectAppError(signIn(db(), anonymous, { username: me.username, password, address: unique("a") }), "unauthorized");
    expect((await session(me.username, "a new password 1")).actor.id).toBe(me.id);
    expect(await auditOf("user.password_change", me.id)).toHaveLength(1);
  });

  it("limits guesses at the current password like sign-in attempts (per account and address)", async () => {
    const me = await account("annotator");
    const here = await session(me.username);
    const actor = { ...here.actor, address: unique("198.51.100.") };
    const guess = () => changeOwnPassword(db(), actor, { currentPassword: "not my password", newPassword: "a new password 1" });
    for (let i = 0; i < SIGN_IN_LIMITS.pairFree; i++) await expectAppError(guess(), "invalid", /currentPassword/);
    await expectAppError(guess(), "rate_limited", /Wait \d+ seconds/);
    // The right password is refused too while the pair waits: the limit is checked before the password.
    await expectAppError(changeOwnPassword(db(), actor, { currentPassword: password, newPassword: "a new password 1" }), "rate_limited");
  });
  it("lets a coordinator set another user's password, ending that user's sessions (not their own)", async () => {
    const coord = await session((await account("coordinator")).username);
    const target = await account("annotator");
    const theirs = await session(target.username);
    await setUserPassword(db(), coord.actor, target.id, { password: "set by coordinator" });
    expect(await kindOf(theirs.token)).toBe("anonymous");
    expect((await session(target.username, "set by coordinator")).actor.id).toBe(target.id);
    await expectAppError(setUserPassword(db(), coord.actor, coord.actor.id, { password: "x".repeat(10) }), "conflict");
    await expectAppError(
      setUserPassword(db(), (await session(target.username, "set by coordinator")).actor, coord.actor.id, { password: "x".repeat(10) }),
      "forbidden",
    );
    expect(await auditOf("user.password_set", target.id)).toHaveLength(1);
  });

  it("issues a reset link that works once, sets the password, ends sessions, and expires", async () => {
    const coord = await session((await account("coordinator")).username);
    const target = await account("annotator");
    const theirs = await session(target.username);
    const link = await createPasswordResetLink(db(), coord.actor, target.id, { expiresInHours: 24 });
    expect(link.username).toBe(target.username);
    expect(await kindOf(theirs.token)).toBe("user"); // nothing changes until the link is used
    const user = await acceptInvite(db(), anonymous, { token: link.token, password: "reset password 1", address: "203.0.113.24" });
    expect(user.id).toBe(target.id);
    expect(await kindOf(theirs.token)).toBe("anonymous");
    expect((await session(target.username, "reset password 1")).actor.id).toBe(target.id);
    await expectAppError(
      acceptInvite(db(), anonymous, { token: link.token, password: "again password", address: "203.0.113.24" }),
      "not_found",
    );

    const stale = await createPasswordResetLink(db(), coord.actor, target.id, { expiresInHours: 1 });
    await db()
      .update(invites)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invites.tokenHash, sha256(stale.token)));
    await expectAppError(
      acceptInvite(db(), anonymous, { token: stale.token, password: "late password", address: "203.0.113.24" }),
      "not_found",
    );
    expect(await auditOf("user.reset_link", target.id)).toHaveLength(2);
  });

  it("signs out everywhere: every session of the caller ends", async () => {
    const me = await account("annotator");
    const a = await session(me.username);
    const b = await session(me.username);
    expect(await signOutEverywhere(db(), a.actor)).toEqual({ sessionsEnded: 2 });
    expect(await kindOf(a.token)).toBe("anonymous");
    expect(await kindOf(b.token)).toBe("anonymous");
    await expectAppError(signOutEverywhere(db(), anonymous), "unauthorized");
  });

  it("gives tokens a 90-day default expiry, or none, and refuses an expired token with a message", async () => {
    const coord = await session((await account("coordinator")).username);
    const byDefault = await createApiToken(db(), coord.actor, { name: "default" });
    const days = (byDefault.expiresAt!.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(89.9);
    expect(days).toBeLessThan(90.1);
    const forever = await createApiToken(db(), coord.actor, { name: "forever", expiresInDays: null });
    expect(forever.expiresAt).toBeNull();
    const listed = (await listApiTokens(db(), coord.actor, { limit: 50 })).rows;
    expect(listed.find((t) => t.id === byDefault.id)?.expiresAt).toEqual(byDefault.expiresAt);

    await db()
      .update(apiTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiTokens.id, byDefault.id));
    await expectAppError(resolveActor(db(), { bearerToken: byDefault.token }), "unauthorized", /expired at .*create a new one/);
    expect((await resolveActor(db(), { bearerToken: forever.token })).kind).toBe("user");
    const used = (await listApiTokens(db(), coord.actor, { limit: 50 })).rows.find((t) => t.id === forever.id);
    expect(used?.lastUsedAt).toBeInstanceOf(Date);
  });

  it("records no audit entry for the app's own start-up work", async () => {
    const username = unique("system-made");
    const { user } = await createUser(db(), system as Actor, { username, role: "annotator", password });
    expect(await auditOf("user.create", user.id)).toHaveLength(0);
  });
});

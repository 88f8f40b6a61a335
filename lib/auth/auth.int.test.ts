import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { invites, sessions } from "@/db/schema";
import { describeEachDatabase, unique } from "@/test/databases";
import { AppError } from "@/lib/errors";
import { anonymous, system, type Actor } from "./actor";
import { createApiToken, listApiTokens, revokeApiToken } from "./api-tokens";
import { acceptInvite, acceptInviteAndSignIn, createInvite, getOpenInvite } from "./invites";
import { resolveActor, signIn, signOut } from "./sessions";
import { createUser, ensureAdmin, listUsers } from "./users";

async function expectAppError(promise: Promise<unknown>, code: AppError["code"]) {
  await expect(promise).rejects.toSatisfy((e: unknown) => e instanceof AppError && e.code === code);
}

describeEachDatabase("accounts", ({ db }) => {
  const password = "correct horse battery";

  async function coordinator(): Promise<Actor> {
    const { user } = await createUser(db(), system, { username: unique("coord"), role: "coordinator", password });
    const session = await signIn(db(), anonymous, { username: user.username, password, address: unique("addr") });
    return resolveActor(db(), { sessionToken: session.sessionToken });
  }

  async function annotator(): Promise<{ actor: Actor; username: string }> {
    const { user } = await createUser(db(), system, { username: unique("ann"), role: "annotator", password });
    const session = await signIn(db(), anonymous, { username: user.username, password, address: unique("addr") });
    return { actor: await resolveActor(db(), { sessionToken: session.sessionToken }), username: user.username };
  }

  it("lets a coordinator create accounts, and refuses annotators (403) and anonymous callers (401)", async () => {
    const coord = await coordinator();
    const { actor: ann } = await annotator();
    const username = unique("new");
    const { user, invite } = await createUser(db(), coord, { username, role: "annotator", password });
    expect(user).toMatchObject({ username, role: "annotator", hasPassword: true });
    expect(invite).toBeUndefined();
    await expectAppError(createUser(db(), ann, { username: unique("x"), role: "annotator" }), "forbidden");
    await expectAppError(createUser(db(), anonymous, { username: unique("x"), role: "annotator" }), "unauthorized");
    await expectAppError(listUsers(db(), ann, { limit: 1 }), "forbidden");
  });

  it("refuses a username taken in another letter case (409)", async () => {
    const coord = await coordinator();
    const username = unique("Case");
    await createUser(db(), coord, { username, role: "annotator", password });
    await expectAppError(createUser(db(), coord, { username: username.toUpperCase(), role: "annotator", password }), "conflict");
  });

  it("signs in with the right password only, and stores the session hashed", async () => {
    const { username } = await annotator();
    await expectAppError(signIn(db(), anonymous, { username, password: "wrong password", address: unique("a") }), "unauthorized");
    await expectAppError(signIn(db(), anonymous, { username: unique("nobody"), password, address: unique("a") }), "unauthorized");
    const ok = await signIn(db(), anonymous, { username: username.toUpperCase(), password, address: unique("a") });
    expect(ok.user.username).toBe(username);
    const stored = await db().select().from(sessions).where(eq(sessions.id, ok.sessionToken));
    expect(stored).toHaveLength(0); // the raw cookie value is never a key
  });

  it("refuses a signed-out session at once", async () => {
    const { username } = await annotator();
    const { sessionToken } = await signIn(db(), anonymous, { username, password, address: unique("a") });
    const actor = await resolveActor(db(), { sessionToken });
    expect(actor.kind).toBe("user");
    await signOut(db(), actor);
    expect((await resolveActor(db(), { sessionToken })).kind).toBe("anonymous");
  });

  it("refuses an expired session", async () => {
    const { username } = await annotator();
    const { sessionToken, user } = await signIn(db(), anonymous, { username, password, address: unique("a") });
    await db()
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, user.id));
    expect((await resolveActor(db(), { sessionToken })).kind).toBe("anonymous");
  });

  it("creates API tokens shown once and stored hashed; revoked tokens are refused at once", async () => {
    const coord = await coordinator();
    const created = await createApiToken(db(), coord, { name: "ci" });
    expect(created.token).toMatch(/^kps_/);
    const listed = await listApiTokens(db(), coord, { limit: 50 });
    expect(listed.rows.map((t) => t.id)).toContain(created.id);
    expect(JSON.stringify(listed)).not.toContain(created.token);
    const viaToken = await resolveActor(db(), { bearerToken: created.token });
    expect(viaToken).toMatchObject({ kind: "user", role: "coordinator", via: "token" });
    await revokeApiToken(db(), coord, created.id);
    await expectAppError(resolveActor(db(), { bearerToken: created.token }), "unauthorized");
    await expectAppError(resolveActor(db(), { bearerToken: "kps_made_up" }), "unauthorized");
    const { actor: ann } = await annotator();
    await expectAppError(createApiToken(db(), ann, { name: "x" }), "forbidden");
    await expectAppError(revokeApiToken(db(), coord, 987654321), "not_found");
  });

  it("invites: an account without password gets a single-use link that sets it", async () => {
    const coord = await coordinator();
    const username = unique("invited");
    const { invite } = await createUser(db(), coord, { username, role: "annotator" });
    expect(invite?.username).toBe(username);
    await expectAppError(signIn(db(), anonymous, { username, password, address: unique("a") }), "unauthorized");
    const view = await getOpenInvite(db(), anonymous, invite!.token);
    expect(view).toMatchObject({ role: "annotator", username });
    await acceptInvite(db(), anonymous, { token: invite!.token, password, address: unique("a") });
    expect((await signIn(db(), anonymous, { username, password, address: unique("a") })).user.username).toBe(username);
    await expectAppError(
      acceptInvite(db(), anonymous, { token: invite!.token, password: "another password", address: unique("a") }),
      "not_found",
    );
    await expectAppError(getOpenInvite(db(), anonymous, invite!.token), "not_found");
  });

  it("invites: an open invite creates an account of its role; expired links are refused", async () => {
    const coord = await coordinator();
    const open = await createInvite(db(), coord, { role: "coordinator", expiresInHours: 1 });
    await expectAppError(acceptInvite(db(), anonymous, { token: open.token, password, address: unique("a") }), "invalid");
    const username = unique("joined");
    const user = await acceptInvite(db(), anonymous, { token: open.token, username, password, address: unique("a") });
    expect(user).toMatchObject({ username, role: "coordinator" });

    // Accepted through the API, the invite signs the account in: a session like sign-in's.
    const second = await createInvite(db(), coord, { role: "annotator", expiresInHours: 1 });
    const newcomer = unique("signed-in");
    const signedIn = await acceptInviteAndSignIn(db(), anonymous, {
      token: second.token,
      username: newcomer,
      password,
      address: unique("a"),
      userAgent: "test browser",
    });
    expect(signedIn.user).toMatchObject({ username: newcomer, role: "annotator" });
    expect(signedIn.expiresAt.getTime()).toBeGreaterThan(Date.now() + 13 * 24 * 3600 * 1000);
    expect(await resolveActor(db(), { sessionToken: signedIn.sessionToken })).toMatchObject({
      kind: "user",
      username: newcomer,
      role: "annotator",
    });

    const stale = await createInvite(db(), coord, { role: "annotator", expiresInHours: 1 });
    await db()
      .update(invites)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invites.id, stale.id));
    await expectAppError(
      acceptInvite(db(), anonymous, { token: stale.token, username: unique("late"), password, address: unique("a") }),
      "not_found",
    );
    const { actor: ann } = await annotator();
    await expectAppError(createInvite(db(), ann, { role: "annotator", expiresInHours: 1 }), "forbidden");
  });

  it("creates the admin from the environment once and never overwrites it", async () => {
    const username = unique("admin");
    expect(await ensureAdmin(db(), system, { username, password })).toBe(true);
    expect(await ensureAdmin(db(), system, { username, password: "a different one" })).toBe(false);
    const ok = await signIn(db(), anonymous, { username, password, address: unique("a") });
    expect(ok.user.role).toBe("coordinator");
    await expectAppError(ensureAdmin(db(), await coordinator(), { username: unique("admin"), password }), "forbidden");
    await expectAppError(ensureAdmin(db(), anonymous, { username: unique("admin"), password }), "forbidden");
    // The password policy of every account holds for the admin from the environment too.
    await expectAppError(ensureAdmin(db(), system, { username: unique("admin"), password: "short" }), "invalid");
  });
});

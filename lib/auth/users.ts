import "server-only";
import { and, count, eq, isNotNull, isNull, ne, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { apiTokens, campaignMembers, users } from "@/db/schema";
import { recordAudit } from "@/lib/audit/audit";
import { AppError, invalidField } from "@/lib/errors";
import { likePattern, pageOf, type Page, type UserListQuery } from "@/lib/list-options.contract";
import { newestFirst } from "@/db/keyset";
import { requireCoordinator, requireSystem, requireUser, type Actor } from "./actor";
import { hashPassword, newPseudonym } from "./crypto";
import { createInvite, type CreatedInvite } from "./invites";
import { passwordSchema, type CreateUserInput } from "./schemas";
import { revokeSessionsOf } from "./sessions";
import { insertUser, publicColumns, type PublicUser } from "./user-rows";

export { insertUser, type PublicUser };
import { attemptSucceeded, recordAttempt } from "./sign-in-limits";

/** Creates an account. Without a password, the result carries an invite link to set one. */
export async function createUser(db: Db, actor: Actor, input: CreateUserInput): Promise<{ user: PublicUser; invite?: CreatedInvite }> {
  const { userId: createdBy } = requireCoordinator(actor);
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  return db.transaction(async (tx) => {
    const inserted = await insertUser(tx, { username: input.username, role: input.role, passwordHash, createdBy });
    const invite = passwordHash ? undefined : await createInvite(tx, actor, { role: input.role, expiresInHours: 72 }, inserted.id);
    const details = { username: inserted.username, role: inserted.role, with: passwordHash ? "password" : "invite link" };
    await recordAudit(tx, actor, { action: "user.create", targetType: "user", targetId: inserted.id, details });
    return { user: inserted, invite };
  });
}

/**
 * Accounts newest first, a page at a time (keyset on the id), optionally only those whose username
 * contains `q`, of one role, or members of one campaign (coordinators).
 */
export async function listUsers(db: Db, actor: Actor, query: UserListQuery): Promise<Page<PublicUser>> {
  requireCoordinator(actor);
  const conditions = [
    query.q ? sql`${users.username} ilike ${likePattern(query.q)}` : undefined,
    // Crowd accounts (one per platform worker) are listed with their campaign's workers, not here.
    query.role ? eq(users.role, query.role) : ne(users.role, "crowd"),
    query.memberOf === undefined
      ? undefined
      : sql`exists (select 1 from ${campaignMembers} where ${campaignMembers.campaignId} = ${query.memberOf} and ${campaignMembers.userId} = ${users.id})`,
  ];
  return pageOf(await newestFirst(db.select(publicColumns).from(users).$dynamic(), users.id, and(...conditions), query), query.limit);
}

/** How many accounts exist. Anyone may ask: the sign-in and set-up pages decide with it whether set-up is open. */
export async function countUsers(db: Db, _actor: Actor): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users);
  return row?.n ?? 0;
}

/**
 * The setup page: creates the first coordinator, only while there is no user at all. Rate-limited
 * per address; once a user exists it is refused before any password is hashed.
 */
export async function createFirstCoordinator(
  db: Db,
  _actor: Actor,
  input: { username: string; password: string; address: string },
): Promise<PublicUser> {
  const key = { username: ":setup", address: input.address } as const;
  const attemptId = await recordAttempt(db, key);
  const setUpAlready = () => new AppError("conflict", "Set-up is done: a user exists already. Sign in instead.");
  const [before] = await db.select({ n: count() }).from(users);
  if ((before?.n ?? 0) > 0) throw setUpAlready();
  const passwordHash = await hashPassword(input.password);
  const user = await db.transaction(async (tx) => {
    // Serialise concurrent set-ups: only the first one finds the table empty.
    await tx.execute(sql`lock table ${users} in exclusive mode`);
    const [existing] = await tx.select({ n: count() }).from(users);
    if ((existing?.n ?? 0) > 0) throw setUpAlready();
    return insertUser(tx, { username: input.username, role: "coordinator", passwordHash });
  });
  await attemptSucceeded(db, attemptId, key);
  return user;
}

/**
 * Start-up (the system only): makes sure the coordinator named by KPS_ADMIN_USERNAME exists (never
 * overwrites it). The password must meet the policy of every account (passwordSchema).
 */
export async function ensureAdmin(db: Db, actor: Actor, input: { username: string; password: string }): Promise<boolean> {
  requireSystem(actor);
  const policy = passwordSchema.safeParse(input.password);
  if (!policy.success) throw invalidField("password", policy.error.issues.map((i) => i.message).join("; "));
  const [existing] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.username}) = lower(${input.username})`);
  if (existing) return false;
  const passwordHash = await hashPassword(input.password);
  const inserted = await db
    .insert(users)
    .values({ username: input.username, role: "coordinator", passwordHash, pseudonym: newPseudonym() })
    .onConflictDoNothing()
    .returning({ id: users.id });
  return inserted.length > 0;
}

/**
 * Disables an account (coordinators; never their own): it can no longer sign in, every session
 * ends and every API token is revoked at once. Its judgments stay and keep counting.
 */
export async function disableUser(db: Db, actor: Actor, userId: number): Promise<PublicUser> {
  requireCoordinator(actor);
  if (requireUser(actor).id === userId) throw new AppError("conflict", "You cannot disable your own account; ask another coordinator.");
  return db.transaction(async (tx) => {
    const [user] = await tx
      .update(users)
      .set({ disabledAt: new Date() })
      .where(and(eq(users.id, userId), isNull(users.disabledAt)))
      .returning(publicColumns);
    if (!user) return getUserRow(tx, userId); // already so (a repeat is harmless), or not found
    const sessionsEnded = await revokeSessionsOf(tx, userId);
    const tokens = await tx
      .update(apiTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
      .returning({ id: apiTokens.id });
    const details = { username: user.username, sessionsEnded, tokensRevoked: tokens.length };
    await recordAudit(tx, actor, { action: "user.disable", targetType: "user", targetId: userId, details });
    return user;
  });
}

/** Re-enables a disabled account (coordinators): it may sign in again (its old sessions and tokens stay ended). */
export async function enableUser(db: Db, actor: Actor, userId: number): Promise<PublicUser> {
  requireCoordinator(actor);
  return db.transaction(async (tx) => {
    const [user] = await tx
      .update(users)
      .set({ disabledAt: null })
      .where(and(eq(users.id, userId), isNotNull(users.disabledAt)))
      .returning(publicColumns);
    if (!user) return getUserRow(tx, userId); // already so (a repeat is harmless), or not found
    await recordAudit(tx, actor, { action: "user.enable", targetType: "user", targetId: userId, details: { username: user.username } });
    return user;
  });
}

/** One account by id, not found when there is none. Internal: callers authorize first. */
export async function getUserRow(db: Db, userId: number): Promise<PublicUser> {
  const [user] = await db.select(publicColumns).from(users).where(eq(users.id, userId));
  if (!user) throw new AppError("not_found", `No user with id ${userId}.`);
  return user;
}

import { and, eq, gt, isNull, ne, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { apiTokens, sessions, users } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { anonymous, requireUser, type Actor } from "./actor";
import { randomSecret, sha256, verifyAgainstDummy, verifyPassword } from "./crypto";
import type { SignInInput } from "./schemas";
import { attemptSucceeded, recordAttempt } from "./sign-in-limits";

export const SESSION_COOKIE = "kps_session";
export const SESSION_DAYS = 14;
export const TOKEN_PREFIX = "kps_";

export interface SignInResult {
  /** The cookie value; only its hash is stored. */
  sessionToken: string;
  expiresAt: Date;
  user: { id: number; username: string; role: "coordinator" | "annotator" };
}

/**
 * Checks a password and opens a server-side session. The attempt is recorded (and refused when a
 * limit is reached, lib/auth/sign-in-limits.ts) before the password is checked.
 */
export async function signIn(
  db: Db,
  _actor: Actor,
  input: SignInInput & { address: string; userAgent?: string | null },
): Promise<SignInResult> {
  const key = { username: input.username, address: input.address };
  const attemptId = await recordAttempt(db, key);
  const [user] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = lower(${input.username})`)
    .limit(1);
  const ok =
    user && user.passwordHash && !user.disabledAt
      ? await verifyPassword(user.passwordHash, input.password)
      : await verifyAgainstDummy(input.password);
  if (!ok || !user) throw new AppError("unauthorized", "Wrong username or password.");
  await attemptSucceeded(db, attemptId, key);
  const sessionToken = randomSecret();
  const expiresAt = new Date(Date.now() + SESSION_DAYS * 24 * 3600 * 1000);
  await db.insert(sessions).values({
    id: sha256(sessionToken),
    userId: user.id,
    expiresAt,
    userAgent: input.userAgent?.slice(0, 300) ?? null,
  });
  return { sessionToken, expiresAt, user: { id: user.id, username: user.username, role: user.role } };
}

/** Ends the caller's session (a no-op for tokens and anonymous callers). */
export async function signOut(db: Db, actor: Actor): Promise<void> {
  if (actor.kind === "user" && actor.sessionId) {
    await db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, actor.sessionId));
  }
}

/** Resolves the caller from a bearer token or a session cookie; anonymous when neither is valid. */
export async function resolveActor(
  db: Db,
  credentials: { bearerToken?: string | null; sessionToken?: string | null; address?: string },
): Promise<Actor> {
  const now = new Date();
  const address = credentials.address ? { address: credentials.address } : {};
  if (credentials.bearerToken) {
    const [row] = await db
      .select({ tokenId: apiTokens.id, expiresAt: apiTokens.expiresAt, id: users.id, username: users.username, role: users.role })
      .from(apiTokens)
      .innerJoin(users, eq(users.id, apiTokens.userId))
      .where(and(eq(apiTokens.tokenHash, sha256(credentials.bearerToken)), isNull(apiTokens.revokedAt), isNull(users.disabledAt)))
      .limit(1);
    if (!row) throw new AppError("unauthorized", "The API token is unknown or revoked, or its account is disabled.");
    if (row.expiresAt && row.expiresAt <= now) {
      throw new AppError("unauthorized", `The API token expired at ${row.expiresAt.toISOString()}; create a new one.`);
    }
    await db.update(apiTokens).set({ lastUsedAt: now }).where(eq(apiTokens.id, row.tokenId));
    const { tokenId, id, username, role } = row;
    return { kind: "user", id, username, role, via: "token", tokenId, ...address };
  }
  if (credentials.sessionToken) {
    const sessionId = sha256(credentials.sessionToken);
    const [row] = await db
      .select({ id: users.id, username: users.username, role: users.role })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now), isNull(users.disabledAt)))
      .limit(1);
    if (row) return { kind: "user", ...row, via: "session", sessionId, ...address };
  }
  return anonymous;
}

/** "Sign out everywhere": ends every session of the caller, this one included (tokens stay). */
export async function signOutEverywhere(db: Db, actor: Actor): Promise<{ sessionsEnded: number }> {
  const user = requireUser(actor);
  return { sessionsEnded: await revokeSessionsOf(db, user.id) };
}

/**
 * Ends a user's live sessions, except `keepSessionId` (the caller's own, after a password change).
 * Internal: no authorization of its own; called by domain functions after theirs.
 */
export async function revokeSessionsOf(db: Db, userId: number, keepSessionId?: string): Promise<number> {
  const ended = await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), keepSessionId ? ne(sessions.id, keepSessionId) : undefined))
    .returning({ id: sessions.id });
  return ended.length;
}

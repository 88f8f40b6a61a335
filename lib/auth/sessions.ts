import "server-only";
import { and, eq, gt, isNull, ne, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { apiTokens, sessions, users } from "@/db/schema";
import { cacheNow, cachedOrLoad, invalidate } from "@/db/cache/hot-cache";
import { preparedFor } from "@/db/cache/prepared";
import { AppError } from "@/lib/errors";
import { formatTime } from "@/lib/format";
import { anonymous, requireUser, type Actor } from "./actor";
import { randomSecret, sha256, verifyAgainstDummy, verifyPassword } from "./crypto";
import type { AccountRole } from "./roles.contract";
import type { SignInInput } from "./schemas";
import { attemptSucceeded, recordAttempt } from "./sign-in-limits";

export const SESSION_COOKIE = "kps_session";
export const SESSION_DAYS = 14;
export const TOKEN_PREFIX = "kps_";
/**
 * A crowd worker's session credential (lib/crowd/): a session row like a cookie's, but sent as
 * `Authorization: Bearer kpsw_…` because MTurk frames the page cross-site, where cookies are not sent.
 */
export const CROWD_TOKEN_PREFIX = "kpsw_";

export interface SignInResult {
  /** The cookie value; only its hash is stored. */
  sessionToken: string;
  expiresAt: Date;
  user: { id: number; username: string; role: AccountRole };
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
  const user_ = { id: user.id, username: user.username, role: user.role };
  return { ...(await startSession(db, user_.id, input.userAgent)), user: user_ };
}

/**
 * Opens a server-side session for a user whose credentials were just checked (sign-in, an accepted
 * invite): the cookie value, of which only the hash is stored, and its expiry.
 */
export async function startSession(db: Db, userId: number, userAgent: string | null | undefined): Promise<Omit<SignInResult, "user">> {
  const sessionToken = randomSecret();
  const expiresAt = new Date(Date.now() + SESSION_DAYS * 24 * 3600 * 1000);
  await db.insert(sessions).values({ id: sha256(sessionToken), userId, expiresAt, userAgent: userAgent?.slice(0, 300) ?? null });
  return { sessionToken, expiresAt };
}

/** Ends the caller's session (a no-op for tokens and anonymous callers). */
export async function signOut(db: Db, actor: Actor): Promise<void> {
  if (actor.kind === "user" && actor.sessionId) {
    await db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, actor.sessionId));
    credentialsChanged();
  }
}

/** What a credential resolves to, cached (db/cache/hot-cache.ts, 1 s) without the request's address. */
type Resolved = { actor: Extract<Actor, { kind: "user" }>; expiresAt: Date | null };

/**
 * Resolves the caller from a bearer token or a session cookie; anonymous when neither is valid.
 * A valid credential is remembered for at most 1 s per process (revocations by this process forget
 * it at once, by another process within that second); expiry is checked on every call.
 */
export async function resolveActor(
  db: Db,
  credentials: { bearerToken?: string | null; sessionToken?: string | null; address?: string },
): Promise<Actor> {
  const now = new Date();
  const address = credentials.address ? { address: credentials.address } : {};
  if (credentials.bearerToken?.startsWith(CROWD_TOKEN_PREFIX)) {
    const found = await resolveSession(db, credentials.bearerToken, now);
    if (!found || found.role !== "crowd")
      throw new AppError("unauthorized", "This crowd session is unknown or over; open the study link again.");
    return { ...found, ...address };
  }
  if (credentials.bearerToken) {
    const tokenHash = sha256(credentials.bearerToken);
    const found = await cachedOrLoad<Resolved | null>(db, "credentials", `t:${tokenHash}`, async () => {
      const value = await loadToken(db, tokenHash);
      return { value, keep: value !== null };
    });
    if (!found) throw new AppError("unauthorized", "The API token is unknown or revoked, or its account is disabled.");
    if (found.expiresAt && found.expiresAt <= now) {
      throw new AppError("unauthorized", `The API token expired at ${formatTime(found.expiresAt)}; create a new one.`);
    }
    await touchToken(db, (found.actor as { tokenId: number }).tokenId, now);
    return { ...found.actor, ...address };
  }
  if (credentials.sessionToken) {
    const found = await resolveSession(db, credentials.sessionToken, now);
    // A crowd account never signs in with a cookie: its session is only for the Bearer header.
    if (found && found.role !== "crowd") return { ...found, ...address };
  }
  return anonymous;
}

async function resolveSession(db: Db, token: string, now: Date): Promise<Resolved["actor"] | null> {
  const sessionId = sha256(token);
  const found = await cachedOrLoad<Resolved | null>(db, "credentials", `s:${sessionId}`, async () => {
    const value = await loadSession(db, sessionId);
    return { value, keep: value !== null };
  });
  return found && found.expiresAt! > now ? found.actor : null;
}

// Prepared (named statements on PostgreSQL): neither drizzle nor the server rebuilds them per request.
const byTokenHash = (db: Db) =>
  db
    .select({ tokenId: apiTokens.id, expiresAt: apiTokens.expiresAt, id: users.id, username: users.username, role: users.role })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(and(eq(apiTokens.tokenHash, sql.placeholder("hash")), isNull(apiTokens.revokedAt), isNull(users.disabledAt)))
    .limit(1)
    .prepare("kps_token_by_hash");

const bySessionId = (db: Db) =>
  db
    .select({ id: users.id, username: users.username, role: users.role, expiresAt: sessions.expiresAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(eq(sessions.id, sql.placeholder("id")), isNull(sessions.revokedAt), gt(sessions.expiresAt, sql`now()`), isNull(users.disabledAt)),
    )
    .limit(1)
    .prepare("kps_session_by_id");

async function loadToken(db: Db, tokenHash: string): Promise<Resolved | null> {
  const [row] = await preparedFor(db, "token", byTokenHash).execute({ hash: tokenHash });
  if (!row) return null;
  const { tokenId, id, username, role } = row;
  return { actor: { kind: "user", id, username, role, via: "token", tokenId }, expiresAt: row.expiresAt };
}

async function loadSession(db: Db, sessionId: string): Promise<Resolved | null> {
  const [row] = await preparedFor(db, "session", bySessionId).execute({ id: sessionId });
  if (!row) return null;
  const { id, username, role } = row;
  return { actor: { kind: "user", id, username, role, via: "session", sessionId }, expiresAt: row.expiresAt };
}

/** `last_used_at` is written at most once a minute per token and process, not on every request. */
const TOUCH_EVERY_MS = 60_000;
const touchedBy: WeakMap<object, Map<number, number>> = ((globalThis as unknown as Record<symbol, WeakMap<object, Map<number, number>>>)[
  Symbol.for("kps.tokenTouched")
] ??= new WeakMap());

async function touchToken(db: Db, tokenId: number, now: Date): Promise<void> {
  let touched = touchedBy.get(db);
  if (!touched) touchedBy.set(db, (touched = new Map()));
  const at = cacheNow();
  if (at - (touched.get(tokenId) ?? -Infinity) < TOUCH_EVERY_MS) return;
  if (touched.size >= 10_000) touched.clear();
  touched.set(tokenId, at);
  await db.update(apiTokens).set({ lastUsedAt: now }).where(eq(apiTokens.id, tokenId));
}

/** Forgets the cached credentials of this process: called by every change that ends sessions or tokens. */
export function credentialsChanged(): void {
  invalidate("credentials");
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
  credentialsChanged();
  return ended.length;
}

import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { users } from "@/db/schema";
import { recordAudit } from "@/lib/audit/audit";
import { AppError, invalidField } from "@/lib/errors";
import { requireCoordinator, requireUser, type Actor } from "./actor";
import { hashPassword, verifyPassword } from "./crypto";
import { createInvite } from "./invites";
import type { ChangePasswordInput } from "./schemas";
import { revokeSessionsOf } from "./sessions";
import { attemptSucceeded, recordAttempt } from "./sign-in-limits";
import { getUserRow } from "./users";

/**
 * A signed-in user changes their own password; the current one is required (422 on `currentPassword`
 * when wrong). Every other session of theirs ends; the one making the change stays.
 */
export async function changeOwnPassword(db: Db, actor: Actor, input: ChangePasswordInput): Promise<{ sessionsEnded: number }> {
  const me = requireUser(actor);
  if (me.role === "crowd") throw new AppError("conflict", "A crowd worker's account has no password.");
  // A guess at the current password is a sign-in attempt: a stolen session cannot try it faster.
  const key = { username: me.username, address: me.address ?? "unknown" };
  const attemptId = await recordAttempt(db, key);
  const [row] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, me.id));
  const ok = row?.passwordHash ? await verifyPassword(row.passwordHash, input.currentPassword) : false;
  if (!ok) throw invalidField("currentPassword", "is not your current password");
  await attemptSucceeded(db, attemptId, key);
  if (input.newPassword === input.currentPassword) throw invalidField("newPassword", "must differ from the current password");
  return replacePassword(db, actor, { userId: me.id, password: input.newPassword, keepSessionId: me.sessionId }, "user.password_change");
}

/** A coordinator sets another user's password; every session of that user ends (the caller's own stays). */
export async function setUserPassword(
  db: Db,
  actor: Actor,
  userId: number,
  input: { password: string },
): Promise<{ sessionsEnded: number }> {
  requireCoordinator(actor);
  const me = requireUser(actor);
  if (me.id === userId) throw new AppError("conflict", "Change your own password on your account page: it asks for the current one.");
  const target = await getUserRow(db, userId);
  if (target.role === "crowd") throw new AppError("conflict", `${target.username} is a crowd worker's account: it has no password.`);
  const change = { userId, password: input.password, keepSessionId: me.sessionId };
  return replacePassword(db, actor, change, "user.password_set", { username: target.username });
}

/**
 * Stores a new password's hash and ends every session of its user but `keepSessionId` (the caller's
 * own), with the audit entry, in one transaction.
 */
async function replacePassword(
  db: Db,
  actor: Actor,
  change: { userId: number; password: string; keepSessionId: string | undefined },
  action: "user.password_change" | "user.password_set",
  details: Record<string, unknown> = {},
): Promise<{ sessionsEnded: number }> {
  const passwordHash = await hashPassword(change.password);
  return db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, change.userId));
    const sessionsEnded = await revokeSessionsOf(tx, change.userId, change.keepSessionId);
    await recordAudit(tx, actor, { action, targetType: "user", targetId: change.userId, details: { ...details, sessionsEnded } });
    return { sessionsEnded };
  });
}

/**
 * A coordinator issues a password reset link for another user: a single-use, expiring invite that
 * completes the existing account (the /invite page sets the password; using it ends the user's
 * sessions). The account keeps its current password until the link is used.
 */
export async function createPasswordResetLink(
  db: Db,
  actor: Actor,
  userId: number,
  input: { expiresInHours: number },
): Promise<{ token: string; username: string; expiresAt: Date }> {
  requireCoordinator(actor);
  const target = await getUserRow(db, userId);
  if (target.disabledAt)
    throw new AppError("conflict", `${target.username} is disabled; enable the account before resetting its password.`);
  const role = target.role;
  if (role === "crowd") throw new AppError("conflict", `${target.username} is a crowd worker's account: it has no password.`);
  return db.transaction(async (tx) => {
    const invite = await createInvite(tx, actor, { role, expiresInHours: input.expiresInHours }, userId);
    const details = { username: target.username, inviteId: invite.id, expiresAt: invite.expiresAt };
    await recordAudit(tx, actor, { action: "user.reset_link", targetType: "user", targetId: userId, details });
    return { token: invite.token, username: target.username, expiresAt: invite.expiresAt };
  });
}

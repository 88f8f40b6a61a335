import "server-only";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { invites, users, type UserRole } from "@/db/schema";
import { recordAudit } from "@/lib/audit/audit";
import { AppError, invalidField } from "@/lib/errors";
import { requireCoordinator, type Actor } from "./actor";
import { hashPassword, randomSecret, sha256 } from "./crypto";
import type { AcceptInviteInput, CreateInviteInput } from "./schemas";
import { revokeSessionsOf, startSession, type SignInResult } from "./sessions";
import { attemptSucceeded, recordAttempt } from "./sign-in-limits";
import { insertUser } from "./user-rows";

export interface CreatedInvite {
  id: number;
  /** The secret of the link (`/invite/<token>`); shown once. */
  token: string;
  role: UserRole;
  /** The account the invite completes, when it was made for one. */
  username: string | null;
  expiresAt: Date;
}

/** A single-use, expiring invite link. With `forUserId`, it sets that account's password. */
export async function createInvite(db: Db, actor: Actor, input: CreateInviteInput, forUserId?: number): Promise<CreatedInvite> {
  const { userId } = requireCoordinator(actor);
  if (userId === null) throw new AppError("forbidden", "Invites are made by a coordinator.");
  const token = randomSecret();
  const expiresAt = new Date(Date.now() + input.expiresInHours * 3600 * 1000);
  const [row] = await db
    .insert(invites)
    .values({ tokenHash: sha256(token), role: input.role, userId: forUserId ?? null, createdBy: userId, expiresAt })
    .returning({ id: invites.id });
  if (!row) throw new Error("insert returned no row");
  if (forUserId === undefined)
    await recordAudit(db, actor, {
      action: "invite.create",
      targetType: "invite",
      targetId: row.id,
      details: { role: input.role, expiresAt },
    });
  let username: string | null = null;
  if (forUserId !== undefined) {
    const [u] = await db.select({ username: users.username }).from(users).where(eq(users.id, forUserId));
    username = u?.username ?? null;
  }
  return { id: row.id, token, role: input.role, username, expiresAt };
}

export interface InviteView {
  role: UserRole;
  /** Set when the invite is for an existing account: the username is fixed. */
  username: string | null;
  expiresAt: Date;
}

/** What the invite page shows; not found when the link is unknown, used or expired. */
export async function getOpenInvite(db: Db, _actor: Actor, token: string): Promise<InviteView> {
  const [row] = await db
    .select({ role: invites.role, username: users.username, expiresAt: invites.expiresAt })
    .from(invites)
    .leftJoin(users, eq(users.id, invites.userId))
    .where(and(eq(invites.tokenHash, sha256(token)), isNull(invites.usedAt), gt(invites.expiresAt, new Date())));
  if (!row) throw new AppError("not_found", "This invite link is unknown, already used, or expired. Ask your coordinator for a new one.");
  return row;
}

/**
 * Uses an invite once: sets the password (and creates the account when the invite is open).
 * Rate-limited per address; an unknown, used or expired link (or a missing or taken username) is
 * refused before the password is hashed.
 */
export async function acceptInvite(
  db: Db,
  _actor: Actor,
  input: AcceptInviteInput & { address: string },
): Promise<{ id: number; username: string; role: UserRole }> {
  const key = { username: ":invite", address: input.address } as const;
  const attemptId = await recordAttempt(db, key);
  await assertInviteUsable(db, input);
  const passwordHash = await hashPassword(input.password);
  const user = await db.transaction(async (tx) => {
    // Claim the invite first: of two concurrent uses, only one updates the row.
    const [invite] = await tx.update(invites).set({ usedAt: new Date() }).where(openInvite(input.token)).returning();
    if (!invite) throw inviteGone();

    if (invite.userId !== null) {
      const [user] = await tx
        .update(users)
        .set({ passwordHash })
        .where(eq(users.id, invite.userId))
        .returning({ id: users.id, username: users.username, role: users.role });
      if (!user) throw new AppError("not_found", "The account of this invite no longer exists.");
      await revokeSessionsOf(tx, user.id); // a reset link: the password changed, so every session ends
      await tx.update(invites).set({ usedBy: user.id }).where(eq(invites.id, invite.id));
      return user;
    }
    if (!input.username) throw usernameRequired();
    const user = await insertUser(tx, { username: input.username, role: invite.role, passwordHash, createdBy: invite.createdBy });
    await tx.update(invites).set({ usedBy: user.id }).where(eq(invites.id, invite.id));
    return { id: user.id, username: user.username, role: user.role };
  });
  await attemptSucceeded(db, attemptId, key);
  return user;
}

/**
 * Uses an invite link (acceptInvite) and signs the account in, as sign-in does: a new session for
 * the cookie. A reset link ended the account's other sessions first.
 */
export async function acceptInviteAndSignIn(
  db: Db,
  actor: Actor,
  input: AcceptInviteInput & { address: string; userAgent: string | null },
): Promise<SignInResult> {
  const user = await acceptInvite(db, actor, input);
  return { ...(await startSession(db, user.id, input.userAgent)), user };
}

const openInvite = (token: string) => and(eq(invites.tokenHash, sha256(token)), isNull(invites.usedAt), gt(invites.expiresAt, new Date()));
const inviteGone = () =>
  new AppError("not_found", "This invite link is unknown, already used, or expired. Ask your coordinator for a new one.");
const usernameRequired = () => invalidField("username", "is required for this invite");

/** The cheap checks of acceptInvite, before any hashing (the transaction checks again). */
async function assertInviteUsable(db: Db, input: AcceptInviteInput): Promise<void> {
  const [invite] = await db.select({ userId: invites.userId }).from(invites).where(openInvite(input.token));
  if (!invite) throw inviteGone();
  if (invite.userId !== null) return;
  if (!input.username) throw usernameRequired();
  const [taken] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.username}) = lower(${input.username})`)
    .limit(1);
  if (taken) throw new AppError("conflict", `The username '${input.username}' is taken.`, { field: "username" });
}

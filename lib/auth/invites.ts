import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { invites, users, type UserRole } from "@/db/schema";
import { recordAudit } from "@/lib/audit/audit";
import { AppError, invalidField } from "@/lib/errors";
import { requireCoordinator, type Actor } from "./actor";
import { hashPassword, randomSecret, sha256 } from "./crypto";
import type { AcceptInviteInput, CreateInviteInput } from "./schemas";
import { revokeSessionsOf } from "./sessions";
import { insertUser } from "./users";

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
export async function createInvite(
  db: Db,
  actor: Actor,
  input: CreateInviteInput,
  forUserId?: number,
): Promise<CreatedInvite> {
  const { userId } = requireCoordinator(actor);
  if (userId === null) throw new AppError("forbidden", "Invites are made by a coordinator.");
  const token = randomSecret();
  const expiresAt = new Date(Date.now() + input.expiresInHours * 3600 * 1000);
  const [row] = await db
    .insert(invites)
    .values({ tokenHash: sha256(token), role: input.role, userId: forUserId ?? null, createdBy: userId, expiresAt })
    .returning({ id: invites.id });
  if (!row) throw new Error("insert returned no row");
  if (forUserId === undefined) await recordAudit(db, actor, { action: "invite.create", targetType: "invite", targetId: row.id, details: { role: input.role, expiresAt } });
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

/** Uses an invite once: sets the password (and creates the account when the invite is open). */
export async function acceptInvite(
  db: Db,
  _actor: Actor,
  input: AcceptInviteInput,
): Promise<{ id: number; username: string; role: UserRole }> {
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    // Claim the invite first: of two concurrent uses, only one updates the row.
    const [invite] = await tx
      .update(invites)
      .set({ usedAt: new Date() })
      .where(and(eq(invites.tokenHash, sha256(input.token)), isNull(invites.usedAt), gt(invites.expiresAt, new Date())))
      .returning();
    if (!invite) throw new AppError("not_found", "This invite link is unknown, already used, or expired. Ask your coordinator for a new one.");

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
    if (!input.username) {
      throw invalidField("username", "is required for this invite");
    }
    const user = await insertUser(tx, { username: input.username, role: invite.role, passwordHash, createdBy: invite.createdBy });
    await tx.update(invites).set({ usedBy: user.id }).where(eq(invites.id, invite.id));
    return { id: user.id, username: user.username, role: user.role };
  });
}

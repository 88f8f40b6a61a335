import { asc, count, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { users, type UserRole } from "@/db/schema";
import { AppError, invalidField, isUniqueViolation } from "@/lib/errors";
import { requireCoordinator, requireSystem, type Actor } from "./actor";
import { hashPassword, newPseudonym } from "./crypto";
import { createInvite, type CreatedInvite } from "./invites";
import { passwordSchema, type CreateUserInput } from "./schemas";
import { attemptSucceeded, recordAttempt } from "./sign-in-limits";

export interface PublicUser {
  id: number;
  username: string;
  role: UserRole;
  hasPassword: boolean;
  createdAt: Date;
}

const publicColumns = {
  id: users.id,
  username: users.username,
  role: users.role,
  hasPassword: sql<boolean>`${users.passwordHash} is not null`,
  createdAt: users.createdAt,
};

/** Creates an account. Without a password, the result carries an invite link to set one. */
export async function createUser(
  db: Db,
  actor: Actor,
  input: CreateUserInput,
): Promise<{ user: PublicUser; invite?: CreatedInvite }> {
  const { userId: createdBy } = requireCoordinator(actor);
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  return db.transaction(async (tx) => {
    const inserted = await insertUser(tx, { username: input.username, role: input.role, passwordHash, createdBy });
    const invite = passwordHash ? undefined : await createInvite(tx, actor, { role: input.role, expiresInHours: 72 }, inserted.id);
    return { user: inserted, invite };
  });
}

export async function listUsers(db: Db, actor: Actor): Promise<PublicUser[]> {
  requireCoordinator(actor);
  return db.select(publicColumns).from(users).orderBy(asc(users.username));
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
 * Inserts one account; a taken username (in any letter case) is a conflict on `username`. Internal:
 * no authorization of its own, called only by domain functions that did theirs (createUser,
 * acceptInvite, seedDemo).
 */
export async function insertUser(
  db: Db,
  values: { username: string; role: UserRole; passwordHash: string | null; createdBy?: number | null },
): Promise<PublicUser> {
  try {
    const [user] = await db
      .insert(users)
      .values({ ...values, pseudonym: newPseudonym() })
      .returning(publicColumns);
    if (!user) throw new Error("insert returned no row");
    return user;
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("conflict", `The username '${values.username}' is taken.`, { field: "username" });
    throw error;
  }
}

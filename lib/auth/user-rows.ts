// The account row as the domain shows it, and the one insert every account goes through. Split from
// users.ts so that invites.ts and users.ts both use it without importing each other.
import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { users, type UserRole } from "@/db/schema";
import { AppError, isUniqueViolation } from "@/lib/errors";
import { newPseudonym } from "./crypto";

export interface PublicUser {
  id: number;
  username: string;
  role: UserRole;
  hasPassword: boolean;
  createdAt: Date;
  /** Set while the account is disabled: it cannot sign in, and its sessions and tokens are refused. */
  disabledAt: Date | null;
}

export const publicColumns = {
  id: users.id,
  username: users.username,
  role: users.role,
  hasPassword: sql<boolean>`${users.passwordHash} is not null`,
  createdAt: users.createdAt,
  disabledAt: users.disabledAt,
};

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

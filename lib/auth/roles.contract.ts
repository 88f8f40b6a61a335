import type { UserRole as StoredRole } from "@/db/schema";

/**
 * The roles of an account, in the order of the database enum: the one list the zod schemas and
 * the People page's pickers read. A pure module (a type-only import of the schema), so client
 * components may use it.
 */
export const ROLES = ["coordinator", "annotator"] as const satisfies readonly StoredRole[];

export type UserRole = (typeof ROLES)[number];

/** Where a signed-in account starts: coordinators at the campaigns, annotators at their work. */
export function homeFor(role: AccountRole): string {
  return role === "coordinator" ? "/campaigns" : "/annotate";
}

/**
 * Every stored role: the ones above, which coordinators give, and `crowd`, an account the app makes
 * for a platform worker on entering one campaign (lib/crowd/): never given, never signed in with a password.
 */
export type AccountRole = UserRole | "crowd";

// The reverse check: a role added to the database enum but not here fails to compile.
const everyStoredRole: Exclude<StoredRole, AccountRole> extends never ? true : never = true;
void everyStoredRole;

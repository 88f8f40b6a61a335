import "server-only";
import type { Db, Tx } from "@/db/client";
import { requireUser, type Actor, type UserActor } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import { latestSessionOf, settleSession, type SessionContext } from "./session-state";

/** The caller's own crowd session (crowd workers only), settled: one whose time ran out ends now. */
export async function requireCrowdSession(db: Db | Tx, actor: Actor): Promise<{ user: UserActor; ctx: SessionContext }> {
  const user = requireUser(actor);
  if (user.role !== "crowd") throw new AppError("forbidden", "Only crowd workers have a crowd session.");
  const found = await latestSessionOf(db as Db, user.id);
  if (!found) throw new AppError("not_found", "You have no crowd session; open the study link again.");
  return { user, ctx: await settleSession(db as Db, found) };
}

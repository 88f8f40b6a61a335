import "server-only";
import { AppError } from "@/lib/errors";
import type { UserRole } from "@/db/schema";

/** Who is asking. Every domain function takes one; it is never optional. */
export type Actor =
  /** `ignored`: why a credential sent was not one (a malformed Authorization header), for the 401. */
  | { kind: "anonymous"; ignored?: string }
  /** The app itself: start-up bootstrap and demo seeding. */
  | { kind: "system" }
  | UserActor;

export interface UserActor {
  kind: "user";
  id: number;
  username: string;
  role: UserRole;
  via: "session" | "token";
  sessionId?: string;
  tokenId?: number;
  /** The caller's network address (as the edge read it), written in the audit log. */
  address?: string;
}

export const anonymous: Actor = { kind: "anonymous" };
export const system: Actor = { kind: "system" };

export function requireUser(actor: Actor): UserActor {
  if (actor.kind === "anonymous" && actor.ignored) throw new AppError("unauthorized", `Sign in first. ${actor.ignored}`);
  if (actor.kind !== "user") throw new AppError("unauthorized", "Sign in first (or send an API token as 'Authorization: Bearer <token>').");
  return actor;
}

/** A coordinator, or the app itself. Returns the user id to record as creator (null for the system). */
export function requireCoordinator(actor: Actor): { userId: number | null } {
  if (actor.kind === "system") return { userId: null };
  const user = requireUser(actor);
  if (user.role !== "coordinator") throw new AppError("forbidden", "Only coordinators may do this.");
  return { userId: user.id };
}

/** The app itself (start-up work); nobody signed in or signed out may do this. */
export function requireSystem(actor: Actor): void {
  if (actor.kind !== "system") throw new AppError("forbidden", "Only the app itself may do this.");
}

import "server-only";
import { and, asc, desc, eq, gt, gte, lt, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { auditLog } from "@/db/schema";
import { requireCoordinator, type Actor } from "@/lib/auth/actor";
import type { AuditAction, AuditTarget } from "./audit.contract";
import type { AuditQuery } from "./schemas";

export type { AuditAction, AuditTarget } from "./audit.contract";

export interface AuditRecord {
  action: AuditAction;
  targetType: AuditTarget;
  targetId: number | string | null;
  details?: Record<string, unknown>;
}

/**
 * Writes one audit entry for a signed-in caller's change (the app's own start-up work is not
 * recorded). Internal: no authorization of its own; domain functions call it after theirs, with
 * their transaction where they have one, so the entry and the change commit together.
 */
export async function recordAudit(db: Db, actor: Actor, record: AuditRecord): Promise<void> {
  if (actor.kind !== "user") return;
  await db.insert(auditLog).values({
    actorId: actor.id,
    actorUsername: actor.username,
    action: record.action,
    targetType: record.targetType,
    targetId: record.targetId === null ? null : String(record.targetId),
    details: record.details ?? {},
    address: actor.address ?? null,
  });
}

export interface AuditEntryView {
  id: number;
  at: Date;
  actorId: number | null;
  actorUsername: string;
  action: string;
  targetType: string;
  targetId: string | null;
  details: unknown;
  address: string | null;
}

type AuditFilters = Pick<AuditQuery, "action" | "actor" | "target" | "from" | "to">;

export interface AuditPage {
  entries: AuditEntryView[];
  /** Pass as `cursor` for the next page; null on the last one. */
  nextCursor: number | null;
}

/** The filters' conditions: the action, the actor's username (any case), the target kind, the days from and to (both included). */
function auditFilters(query: AuditFilters): SQL[] {
  const where: SQL[] = [];
  if (query.action) where.push(eq(auditLog.action, query.action));
  if (query.actor) where.push(sql`lower(${auditLog.actorUsername}) = lower(${query.actor})`);
  if (query.target) where.push(eq(auditLog.targetType, query.target));
  if (query.from) where.push(gte(auditLog.createdAt, query.from));
  if (query.to) where.push(lt(auditLog.createdAt, new Date(query.to.getTime() + 24 * 3600 * 1000)));
  return where;
}

/**
 * A page of the audit log (coordinators): newest first by default, or oldest first (`order=asc`,
 * what the JSONL export walks). `cursor` is the last id of the previous page; `since` an instant.
 */
export async function listAudit(db: Db, actor: Actor, query: AuditQuery): Promise<AuditPage> {
  requireCoordinator(actor);
  const ascending = query.order === "asc";
  const where: SQL[] = [];
  if (query.cursor !== undefined) where.push(ascending ? gt(auditLog.id, query.cursor) : lt(auditLog.id, query.cursor));
  if (query.since) where.push(gte(auditLog.createdAt, query.since));
  where.push(...auditFilters(query));
  const rows = await db
    .select({
      id: auditLog.id,
      at: auditLog.createdAt,
      actorId: auditLog.actorId,
      actorUsername: auditLog.actorUsername,
      action: auditLog.action,
      targetType: auditLog.targetType,
      targetId: auditLog.targetId,
      details: auditLog.details,
      address: auditLog.address,
    })
    .from(auditLog)
    .where(where.length ? and(...where) : undefined)
    .orderBy(ascending ? asc(auditLog.id) : desc(auditLog.id))
    .limit(query.limit + 1);
  const entries = rows.slice(0, query.limit);
  const last = entries[entries.length - 1];
  return { entries, nextCursor: rows.length > query.limit && last ? last.id : null };
}

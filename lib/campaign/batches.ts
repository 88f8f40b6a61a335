import "server-only";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { batches } from "@/db/schema";
import { recordAudit } from "@/lib/audit/audit";
import { requireCoordinator, type Actor } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import { likePattern, pageOf, type BatchListQuery, type Page } from "@/lib/list-options.contract";
import { newestFirst } from "@/db/keyset";
import { transitions, type BatchAction, type BatchView } from "./batches.contract";
import { endClaimsOfBatch } from "./claims.internal";
import { sealBatch } from "./seal.internal";

const batchColumns = {
  id: batches.id,
  campaignId: batches.campaignId,
  name: batches.name,
  status: batches.status,
  taskKind: batches.taskKind,
  dataset: batches.dataset,
  queries: batches.queryCount,
  passages: batches.passageCount,
  goldPassages: batches.goldPassageCount,
  pages: batches.pageCount,
  createdAt: batches.createdAt,
  launchedAt: batches.launchedAt,
  closedAt: batches.closedAt,
};

/** A campaign's batches with their counts, newest first (id descending), a page at a time; `q` a part of the name (coordinators). */
export async function listBatches(db: Db, actor: Actor, campaignId: number, query: BatchListQuery): Promise<Page<BatchView>> {
  requireCoordinator(actor);
  const named = query.q ? sql`${batches.name} ilike ${likePattern(query.q)}` : undefined;
  const where = and(eq(batches.campaignId, campaignId), named);
  return pageOf(await newestFirst(db.select(batchColumns).from(batches).$dynamic(), batches.id, where, query), query.limit);
}

export async function getBatch(db: Db, actor: Actor, id: number): Promise<BatchView> {
  requireCoordinator(actor);
  const [row] = await db.select(batchColumns).from(batches).where(eq(batches.id, id));
  if (!row) throw new AppError("not_found", `No batch with id ${id}.`);
  return row;
}

/**
 * Launches, pauses or closes a batch; a move the lifecycle does not allow is a conflict. Pausing and
 * closing end the live claims on the batch (their slots reopen, as when a lease runs out), and its
 * passages then take no judgment (submitJudgment: 409). Closing also seals the batch (`sealBatch`),
 * so its exports stay the same byte for byte.
 */
export async function changeBatchStatus(db: Db, actor: Actor, id: number, action: BatchAction): Promise<BatchView> {
  requireCoordinator(actor);
  const { from, to } = transitions[action];
  const now = new Date();
  const updated = await db.transaction(async (tx) => {
    const rows = await tx
      .update(batches)
      .set({
        status: to,
        ...(to === "launched" ? { launchedAt: sql`coalesce(${batches.launchedAt}, now())` } : {}),
        ...(to === "closed" ? { closedAt: now } : {}),
      })
      .where(and(eq(batches.id, id), inArray(batches.status, from)))
      .returning({ id: batches.id });
    if (rows.length && to !== "launched") await endClaimsOfBatch(tx, id);
    if (rows.length && to === "closed") await sealBatch(tx, id);
    return rows;
  });
  if (!updated.length) {
    const current = await getBatch(db, actor, id);
    throw new AppError("conflict", `Batch ${id} is ${current.status}: only a ${from.join(" or ")} batch can be ${to}.`, {
      status: current.status,
      allowedFrom: from,
    });
  }
  await recordAudit(db, actor, { action: `batch.${action}`, targetType: "batch", targetId: id, details: { status: to } });
  return getBatch(db, actor, id);
}

// Internal: no authorization of its own. Only changeBatchStatus (which checked the caller) calls it.
import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf, type Db, type Tx } from "@/db/client";
import { countedJudgmentsOf } from "./quality/counted-judgments";

/**
 * Seals a batch that is being closed, inside the closing transaction: R and T of its campaign, its
 * passages' counters, and which of its judgments count are copied as they are now. The exports of a
 * closed batch read these copies, so nothing done later — a change of T, an annotator paused or
 * resumed (which recounts passages), the gold rule — changes them.
 *
 * Sealing the passages locks them: a judgment that waits for one of those locks finds the passage
 * sealed once it gets it and is refused (submitJudgment), so no judgment lands after the seal.
 */
export async function sealBatch(tx: Db | Tx, batchId: number): Promise<void> {
  const [c] = rowsOf<{ r: number; t: number }>(
    await tx.execute(sql`
      update batches b set sealed_judgments_per_passage = c.judgments_per_passage, sealed_endorsement_threshold = c.endorsement_threshold
      from campaigns c where c.id = b.campaign_id and b.id = ${batchId}
      returning c.judgments_per_passage as r, c.endorsement_threshold as t`),
  );
  if (!c) throw new Error(`sealBatch: no batch ${batchId}`);
  const ids = rowsOf<{ id: number }>(
    await tx.execute(sql`
      update passages set sealed_judgment_count = judgment_count, sealed_sufficient_count = sufficient_count, sealed_is_decided = is_decided
      where batch_id = ${batchId} returning id`),
  ).map((p) => Number(p.id));
  // A new statement sees every judgment committed before the passages were locked above.
  await tx.execute(sql`update judgments set counted_at_close = false where batch_id = ${batchId}`);
  if (ids.length) {
    await tx.execute(sql`
      update judgments set counted_at_close = true
      where id in (select id from ${countedJudgmentsOf(ids, c.r)})`);
  }
}

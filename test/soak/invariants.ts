import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import type { Ack } from "./harness";

export interface InvariantReport {
  acked: number;
  ackedMissing: number;
  judgments: number;
  passages: number;
  overR: number;
  counterMismatches: number;
  incomplete: number;
}

/**
 * The invariants after a fault, read from the database itself: every acknowledged judgment is
 * stored, no passage has more than R judgments, and every passage's counters agree with its rows
 * (judgments, live claims, open slots). With `complete`, every passage has exactly R and no claim.
 */
export async function checkInvariants(db: Db, campaignId: number, acked: Ack[], r = 3): Promise<InvariantReport> {
  const keys = new Set(
    rowsOf<{ idempotency_key: string }>(await db.execute(sql`select idempotency_key from judgments where campaign_id = ${campaignId}`)).map(
      (k) => k.idempotency_key,
    ),
  );
  const rows = rowsOf<{ id: string; judgment_count: number; claim_count: number; open_slots: number; n: number; live: number }>(
    await db.execute(sql`
      select p.id, p.judgment_count, p.claim_count, p.open_slots,
        (select count(*)::int from judgments j where j.passage_id = p.id) as n,
        (select count(*)::int from claims c where c.passage_id = p.id and c.ended_at is null) as live
      from passages p where p.campaign_id = ${campaignId}`),
  );
  return {
    acked: acked.length,
    ackedMissing: acked.filter((a) => !keys.has(a.idempotencyKey)).length,
    judgments: keys.size,
    passages: rows.length,
    overR: rows.filter((p) => p.n > r).length,
    counterMismatches: rows.filter(
      (p) => p.judgment_count !== p.n || p.claim_count !== p.live || p.open_slots !== Math.max(0, r - p.n - p.live),
    ).length,
    incomplete: rows.filter((p) => p.n !== r || p.live !== 0).length,
  };
}

import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";

/**
 * Lets `ms` pass for one user, without waiting: moves their claims, judgments, crowd sessions and
 * training answers that far into the past (not a claim's expiry, nor a session's deadline), as if
 * they had done everything so much earlier. The server times a judgment from its task's hand-out
 * (the claim's `created_at`) or the user's previous judgment, so the next one it receives took `ms`
 * more than it really did: a careful annotator without real waits.
 */
export async function letTimePass(db: Db, userId: number, ms: number): Promise<void> {
  const by = sql`(${ms}::int * interval '1 millisecond')`;
  await db.execute(sql`update claims set created_at = created_at - ${by} where user_id = ${userId}`);
  await db.execute(sql`update judgments set created_at = created_at - ${by}, revised_at = revised_at - ${by} where user_id = ${userId}`);
  await db.execute(sql`update training_answers set created_at = created_at - ${by} where user_id = ${userId}`);
  await db.execute(sql`
    update crowd_sessions set started_at = started_at - ${by}, work_started_at = work_started_at - ${by}, ended_at = ended_at - ${by}
    where user_id = ${userId}`);
}

import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { claims } from "@/db/schema";

/**
 * The database ids behind a task's claim handle. The annotator API shows neither (issue 12: passage
 * ids run gold first); tests and benchmarks that play an all-knowing annotator look them up here.
 */
export async function idsOfTask(db: Db, task: { claim: { handle: string } }): Promise<{ claimId: number; passageId: number }> {
  const [c] = await db.select({ claimId: claims.id, passageId: claims.passageId }).from(claims).where(eq(claims.handle, task.claim.handle));
  if (!c) throw new Error(`no claim with handle ${task.claim.handle}`);
  return c;
}

import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { rowsOf, type Db } from "@/db/client";
import { judgmentOf, makeAnnotator, makeCampaign } from "@/test/campaign-factory";
import { describeEachDatabase } from "@/test/databases";
import { letTimePass } from "@/test/elapse";
import { nextTask } from "./assignment";
import { MAX_DURATION_MS, submitJudgment } from "./judgments";

// A judgment's duration_ms is the time the server measured: from handing out its task (the claim's
// created_at) or, if later, the annotator's previous judgment in the campaign, to receiving it;
// clamped to [0, 24 h]. The client's durationMs is stored as client_duration_ms, a hint.

async function rowOf(db: Db, handle: string) {
  const [row] = rowsOf<{ duration_ms: number; client_duration_ms: number; created_at: string; claimed_at: string }>(
    await db.execute(sql`
      select j.duration_ms, j.client_duration_ms, to_char(j.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_at,
        to_char(c.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as claimed_at
      from judgments j join claims c on c.id = j.claim_id where c.handle = ${handle}`),
  );
  return row!;
}

/** Milliseconds between two times as the SQL gives them (microseconds), rounded as the statement rounds. */
async function msBetween(db: Db, from: string, to: string): Promise<number> {
  const [r] = rowsOf<{ ms: number }>(
    await db.execute(sql`select round(extract(epoch from (${to}::timestamptz - ${from}::timestamptz)) * 1000)::int as ms`),
  );
  return r!.ms;
}

describeEachDatabase("the time a judgment took, as the server measured it", ({ db }) => {
  it("counts from the hand-out of the task, or from the previous judgment when a prefetched task was handed out before it", async () => {
    const c = await makeCampaign(db(), { queries: 2, candidates: 1 });
    const a = await makeAnnotator(db());
    const first = (await nextTask(db(), a, { campaignId: c.campaignId }))!;
    await letTimePass(db(), a.id, 2500);
    // The client prefetches the next task while the first is on screen: handed out before the first judgment.
    const second = (await nextTask(db(), a, { campaignId: c.campaignId, after: first.claim.handle }))!;
    await letTimePass(db(), a.id, 1000);
    const one = await submitJudgment(db(), a, first.claim.handle, judgmentOf(first, "insufficient", 50));
    await letTimePass(db(), a.id, 4000);
    const two = await submitJudgment(db(), a, second.claim.handle, judgmentOf(second, "insufficient", 60_000));

    const r1 = await rowOf(db(), first.claim.handle);
    const r2 = await rowOf(db(), second.claim.handle);
    // The first: from its hand-out (3.5 s before); the client's 50 ms is a hint.
    expect(r1).toMatchObject({ client_duration_ms: 50, duration_ms: await msBetween(db(), r1.claimed_at, r1.created_at) });
    expect(r1.duration_ms).toBeGreaterThanOrEqual(3500);
    // The second: its task was handed out 1 s before the first judgment, so it counts from that judgment (4 s), not from its hand-out (5 s).
    expect(r2).toMatchObject({ client_duration_ms: 60_000, duration_ms: await msBetween(db(), r1.created_at, r2.created_at) });
    expect(r2.duration_ms).toBeGreaterThanOrEqual(4000);
    expect(r2.duration_ms).toBeLessThan(await msBetween(db(), r2.claimed_at, r2.created_at));
    // The annotator is answered with the server's time, the same on a replay.
    expect(one.judgment.durationMs).toBe(r1.duration_ms);
    expect(two.judgment.durationMs).toBe(r2.duration_ms);
    const replay = await submitJudgment(db(), a, second.claim.handle, {
      ...judgmentOf(second, "insufficient", 60_000),
      idempotencyKey: await keyOf(db(), second.claim.handle),
    });
    expect(replay).toMatchObject({ replayed: true, judgment: { durationMs: r2.duration_ms } });
  });

  it("measures per campaign, and clamps a task held past a day to 24 h", async () => {
    const [c1, c2] = [await makeCampaign(db(), { queries: 1, candidates: 1 }), await makeCampaign(db(), { queries: 1, candidates: 1 })];
    const a = await makeAnnotator(db());
    const t1 = (await nextTask(db(), a, { campaignId: c1.campaignId }))!;
    const t2 = (await nextTask(db(), a, { campaignId: c2.campaignId }))!;
    await db().execute(
      sql`update claims set created_at = now() - interval '2 days', expires_at = now() + interval '10 minutes' where handle = ${t1.claim.handle}`,
    );
    await db().execute(sql`update claims set created_at = now() - interval '5 seconds' where handle = ${t2.claim.handle}`);
    await submitJudgment(db(), a, t1.claim.handle, judgmentOf(t1, "insufficient", 1000));
    // A judgment in another campaign does not cut this one's time short.
    await submitJudgment(db(), a, t2.claim.handle, judgmentOf(t2, "insufficient", 1000));
    expect(await rowOf(db(), t1.claim.handle)).toMatchObject({ duration_ms: MAX_DURATION_MS, client_duration_ms: 1000 });
    expect((await rowOf(db(), t2.claim.handle)).duration_ms).toBeGreaterThanOrEqual(5000);
  });
});

async function keyOf(db: Db, handle: string): Promise<string> {
  const [r] = rowsOf<{ k: string }>(
    await db.execute(sql`select j.idempotency_key as k from judgments j join claims c on c.id = j.claim_id where c.handle = ${handle}`),
  );
  return r!.k;
}

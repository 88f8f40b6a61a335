import { eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { rowsOf, type Db } from "@/db/client";
import { annotatorStandings } from "@/db/schema";
import { system } from "@/lib/auth/actor";
import { nextTaskFor } from "./work";
import { submitJudgment } from "@/lib/campaign/annotate/judgments";
import { listAnnotatorWarnings } from "@/lib/campaign/report/annotator-detail";
import { judgmentOf, makeCampaign } from "@/test/campaign-factory";
import { sessionEndOf, workingCrowdWorker } from "@/test/crowd-entry";
import { describeEachDatabase } from "@/test/databases";
import { letTimePass } from "@/test/elapse";
import { listWorkerSessions } from "./workers-report";
import { workerListQuerySchema } from "./workers-report.contract";

// Issue 26: the speed rule, the warnings and the payment report use the time the server measured,
// never the client's `durationMs` (kept as client_duration_ms, a hint). A bot that claims 7 s per
// judgment while answering 100 ms apart is flagged and paused; a careful worker who claims to be
// fast but takes 3 s per judgment is neither.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A crowd campaign (no training, the speed rule on, warnings after 3 judgments, no gold pause) and one worker in it, working. */
async function crowdWorker(db: Db) {
  const c = await makeCampaign(db, {
    queries: 6,
    candidates: 1,
    settings: { goldMinJudgments: 100, warnMinJudgments: 3, warnFastShare: 0.5 },
  });
  return { ...c, ...(await workingCrowdWorker(db, c.campaignId, { quota: 50, pauseFastWorkers: true })) };
}

/** The worker's judgments in order: the server's time, the client's hint, and the time the definition gives from the rows. */
async function timesOf(db: Db, userId: number) {
  return rowsOf<{ duration_ms: number; client_duration_ms: number; expected: number }>(
    await db.execute(sql`
      select j.duration_ms, j.client_duration_ms,
        least(greatest(round(extract(epoch from (j.created_at - greatest(c.created_at,
          (select max(p.created_at) from judgments p where p.user_id = j.user_id and p.campaign_id = j.campaign_id and p.created_at < j.created_at)))) * 1000), 0), 86400000)::int as expected
      from judgments j join claims c on c.id = j.claim_id
      where j.user_id = ${userId} order by j.created_at`),
  );
}

async function warningsOf(db: Db, campaignId: number, userId: number) {
  return (await listAnnotatorWarnings(db, system, campaignId)).flagged.find((f) => f.userId === userId)?.warnings ?? [];
}

async function activeSecondsOf(db: Db, campaignId: number, userId: number): Promise<number> {
  const rows = (await listWorkerSessions(db, system, campaignId, workerListQuerySchema.parse({}))).rows;
  const [session] = rowsOf<{ id: string | number }>(await db.execute(sql`select id from crowd_sessions where user_id = ${userId}`));
  return rows.find((r) => r.id === Number(session!.id))!.activeSeconds;
}

describeEachDatabase("server-measured time (issue 26)", ({ db }) => {
  it("flags and pauses a bot that claims 7000 ms while answering 100 ms apart, and pays it for its real seconds", async () => {
    const w = await crowdWorker(db());
    for (let i = 0; i < 3; i++) {
      const t = (await nextTaskFor(db(), w.actor, { campaignId: w.campaignId }))!;
      await sleep(100);
      const { judgment } = await submitJudgment(db(), w.actor, t.claim.handle, judgmentOf(t, "insufficient", 7000));
      // The annotator is answered with the time the server measured, not the claim.
      expect(judgment.durationMs).toBeGreaterThanOrEqual(100);
      expect(judgment.durationMs).toBeLessThan(7000);
    }
    const wallSeconds = (Date.now() - w.startedAt) / 1000;

    const times = await timesOf(db(), w.userId);
    expect(times).toHaveLength(3);
    for (const t of times) {
      expect(t.client_duration_ms).toBe(7000); // the claim, kept as a hint
      expect(t.duration_ms).toBe(t.expected); // hand-out (or the previous judgment) to receipt
      expect(t.duration_ms).toBeGreaterThanOrEqual(100); // the bot's real wait is in it
    }
    expect(times.every((t) => t.duration_ms < 2000)).toBe(true);

    // The dashboard's warning: every judgment under 2 s by the server's clock.
    expect(await warningsOf(db(), w.campaignId, w.userId)).toContainEqual({ kind: "fast", shareUnder2s: 1 });
    // The crowd speed rule (median under 2 s after warnMinJudgments): paused, the session ends as paused.
    expect(await sessionEndOf(db(), w.actor, w.campaignId)).toMatchObject({ sessionEnded: true, outcome: "paused" });
    const [standing] = await db().select().from(annotatorStandings).where(eq(annotatorStandings.userId, w.userId));
    expect(standing).toMatchObject({ status: "paused", pauseReason: "speed_rule" });

    // The payment report: the server's time (about its real seconds), not 3 × 7 s.
    const active = await activeSecondsOf(db(), w.campaignId, w.userId);
    expect(active).toBeCloseTo(times.reduce((s, t) => s + t.duration_ms, 0) / 1000, 6);
    expect(active).toBeGreaterThanOrEqual(0.3);
    expect(active).toBeLessThanOrEqual(wallSeconds);
  });

  it("neither flags nor pauses a careful worker taking 3 s a judgment, even one whose client claims 500 ms", async () => {
    const w = await crowdWorker(db());
    for (let i = 0; i < 4; i++) {
      const t = (await nextTaskFor(db(), w.actor, { campaignId: w.campaignId }))!;
      await letTimePass(db(), w.userId, 3000); // reading and deciding, without a real wait
      const { judgment } = await submitJudgment(db(), w.actor, t.claim.handle, judgmentOf(t, "insufficient", 500));
      expect(judgment.durationMs).toBeGreaterThanOrEqual(3000);
    }
    const times = await timesOf(db(), w.userId);
    expect(times.map((t) => t.client_duration_ms)).toEqual([500, 500, 500, 500]);
    for (const t of times) {
      expect(t.duration_ms).toBe(t.expected);
      expect(t.duration_ms).toBeGreaterThanOrEqual(3000);
    }
    expect(await warningsOf(db(), w.campaignId, w.userId)).toEqual([]);
    // Not paused: the next passage comes.
    expect(await nextTaskFor(db(), w.actor, { campaignId: w.campaignId })).not.toBeNull();
    const [standing] = await db().select().from(annotatorStandings).where(eq(annotatorStandings.userId, w.userId));
    expect(standing?.status ?? "active").toBe("active");
    // Paid for about 4 × 3 s: the server's stretches, never the client's 4 × 0.5 s.
    const active = await activeSecondsOf(db(), w.campaignId, w.userId);
    expect(active).toBeCloseTo(times.reduce((s, t) => s + t.duration_ms, 0) / 1000, 6);
    expect(active).toBeGreaterThanOrEqual(12);
    expect(active).toBeLessThanOrEqual(12 + (Date.now() - w.startedAt) / 1000);
  });
});

import { and, eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { rowsOf, type Db } from "@/db/client";
import { annotatorStandings, campaigns, crowdEntries, passages } from "@/db/schema";
import { system } from "@/lib/auth/actor";
import { pauseAnnotator } from "@/lib/campaign/quality/standings";
import type { Task } from "@/lib/campaign/annotate/judging.contract";
import { nextTaskFor } from "./work";
import { submitJudgment } from "@/lib/campaign/annotate/judgments";
import { AppError } from "@/lib/errors";
import { judgmentOf, makeCampaign } from "@/test/campaign-factory";
import { CODES, sessionEndOf, workingCrowdWorker } from "@/test/crowd-entry";
import { describeEachDatabase } from "@/test/databases";
import { getMyCrowdSession } from "./sessions";

async function working(
  db: Db,
  options: {
    queries: number;
    candidates: number;
    entry: Partial<typeof crowdEntries.$inferInsert>;
    campaign?: Partial<typeof campaigns.$inferInsert>;
  },
) {
  const c = await makeCampaign(db, { queries: options.queries, candidates: options.candidates });
  if (options.campaign) await db.update(campaigns).set(options.campaign).where(eq(campaigns.id, c.campaignId));
  return { ...c, ...(await workingCrowdWorker(db, c.campaignId, options.entry)) };
}

async function isGold(db: Db, campaignId: number, t: Task): Promise<boolean> {
  const [p] = await db
    .select({ isGold: passages.isGold })
    .from(passages)
    .where(
      and(
        eq(passages.campaignId, campaignId),
        eq(passages.wikipediaId, t.passage.wikipediaId),
        eq(passages.startParagraphId, t.passage.paragraphs[0]!.id),
      ),
    );
  return p!.isGold;
}

async function liveClaims(db: Db, userId: number): Promise<number> {
  return rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from claims where user_id = ${userId} and ended_at is null`),
  )[0]!.n;
}

describeEachDatabase("crowd session rules", ({ db }) => {
  it("pauses a worker whose median is under 2 s (the speed rule, when on) and ends the session as paused", async () => {
    const w = await working(db(), {
      queries: 4,
      candidates: 1,
      entry: { pauseFastWorkers: true, quota: 50 },
      campaign: { warnMinJudgments: 3 },
    });
    for (let i = 0; i < 3; i++) {
      const t = (await nextTaskFor(db(), w.actor, { campaignId: w.campaignId }))!;
      await submitJudgment(db(), w.actor, t.claim.handle, judgmentOf(t, "insufficient", 400));
    }
    expect(await sessionEndOf(db(), w.actor, w.campaignId)).toMatchObject({ sessionEnded: true, outcome: "paused" });
    const [standing] = await db().select().from(annotatorStandings).where(eq(annotatorStandings.userId, w.userId));
    expect(standing).toMatchObject({ status: "paused", pauseReason: "speed_rule" });
    expect((await getMyCrowdSession(db(), w.actor)).code).toBe(CODES.paused);
  });

  it("leaves a fast worker alone when the speed rule is off", async () => {
    const w = await working(db(), { queries: 4, candidates: 1, entry: { quota: 3 }, campaign: { warnMinJudgments: 2 } });
    for (let i = 0; i < 3; i++) {
      const t = (await nextTaskFor(db(), w.actor, { campaignId: w.campaignId }))!;
      await submitJudgment(db(), w.actor, t.claim.handle, judgmentOf(t, "insufficient", 400));
    }
    expect(await sessionEndOf(db(), w.actor, w.campaignId)).toMatchObject({ outcome: "completed" });
  });

  it("ends the session as paused when the gold rule pauses the worker, and frees their claims", async () => {
    const w = await working(db(), {
      queries: 6,
      candidates: 1,
      entry: { quota: 50 },
      campaign: { goldMinJudgments: 1, goldAccuracyThreshold: 0.7 },
    });
    for (;;) {
      const t = await nextTaskFor(db(), w.actor, { campaignId: w.campaignId }).catch((e: unknown) => e);
      if (t instanceof AppError) {
        expect(t.details).toMatchObject({ sessionEnded: true, outcome: "paused" });
        break;
      }
      const task = t as Task;
      // Gold passages expect "sufficient" here: answering them "insufficient" fails them.
      await submitJudgment(
        db(),
        w.actor,
        task.claim.handle,
        judgmentOf(task, (await isGold(db(), w.campaignId, task)) ? "insufficient" : "sufficient", 3000),
      );
    }
    expect(await liveClaims(db(), w.userId)).toBe(0);
  });

  it("lets a coordinator pause a crowd worker like an annotator: the session ends as paused", async () => {
    const w = await working(db(), { queries: 2, candidates: 1, entry: { quota: 50 } });
    const t = (await nextTaskFor(db(), w.actor, { campaignId: w.campaignId }))!;
    await submitJudgment(db(), w.actor, t.claim.handle, judgmentOf(t, "insufficient", 3000));
    await pauseAnnotator(db(), system, w.campaignId, w.userId);
    expect(await sessionEndOf(db(), w.actor, w.campaignId)).toMatchObject({ outcome: "paused" });
  });

  it("with a quota of questions, gives back a passage of the next question and ends the session", async () => {
    const w = await working(db(), { queries: 3, candidates: 2, entry: { quota: 1, quotaUnit: "questions" } });
    const seen = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const t = (await nextTaskFor(db(), w.actor, { campaignId: w.campaignId }))!;
      seen.add(t.query.id);
      await submitJudgment(db(), w.actor, t.claim.handle, judgmentOf(t, "insufficient", 3000));
    }
    expect(seen.size).toBe(1); // the three passages of the question the worker is on come first
    expect(await sessionEndOf(db(), w.actor, w.campaignId)).toMatchObject({ outcome: "completed" });
    expect((await getMyCrowdSession(db(), w.actor)).work).toEqual({ judged: 1, quota: 1, unit: "questions" });
    expect(await liveClaims(db(), w.userId)).toBe(0);
  });

  it("refuses a prefetch past the quota without ending the session, which ends after the last judgment", async () => {
    const w = await working(db(), { queries: 4, candidates: 1, entry: { quota: 2 } });
    const first = (await nextTaskFor(db(), w.actor, { campaignId: w.campaignId }))!;
    const second = (await nextTaskFor(db(), w.actor, { campaignId: w.campaignId, after: first.claim.handle }))!;
    expect(second.claim.handle).not.toBe(first.claim.handle);
    await submitJudgment(db(), w.actor, first.claim.handle, judgmentOf(first, "insufficient", 3000));
    expect(await nextTaskFor(db(), w.actor, { campaignId: w.campaignId, after: second.claim.handle })).toBeNull();
    expect((await getMyCrowdSession(db(), w.actor)).stage).toBe("working");
    await submitJudgment(db(), w.actor, second.claim.handle, judgmentOf(second, "insufficient", 3000));
    expect(await sessionEndOf(db(), w.actor, w.campaignId)).toMatchObject({ outcome: "completed" });
  });
});

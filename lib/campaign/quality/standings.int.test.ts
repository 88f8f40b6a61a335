import { eq, inArray } from "drizzle-orm";
import { expect, it } from "vitest";
import { annotatorStandings, passages, users } from "@/db/schema";
import { system } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import { judgmentOf, makeAnnotator, makeCampaign } from "@/test/campaign-factory";
import { describeEachDatabase } from "@/test/databases";
import { nextTask } from "../annotate/assignment";
import type { Task } from "../annotate/judging.contract";
import { submitJudgment } from "../annotate/judgments";
import { exportJudgments } from "../report/export-judgments";
import { exportedLines } from "@/test/exported";
import { getQuestionView } from "../report/question-view";
import { listStandings, pauseAnnotator, resumeAnnotator } from "./standings";
import type { UserActor } from "@/lib/auth/actor";

async function drain(
  db: Parameters<typeof nextTask>[0],
  a: UserActor,
  campaignId: number,
  verdict: (t: Task) => "sufficient" | "insufficient",
) {
  for (let t = await nextTask(db, a, { campaignId }); t; t = await nextTask(db, a, { campaignId })) {
    await submitJudgment(db, a, t.claim.handle, judgmentOf(t, verdict(t)));
  }
}

describeEachDatabase("standing: pause, resume, gold rule", ({ db }) => {
  it("a paused annotator's judgments stop counting and their slots reopen; resuming restores them up to R", async () => {
    const c = await makeCampaign(db(), { queries: 1, candidates: 1 });
    const [a, b, d, e] = [await makeAnnotator(db()), await makeAnnotator(db()), await makeAnnotator(db()), await makeAnnotator(db())];
    for (const who of [a, b, d]) await drain(db(), who, c.campaignId, () => "sufficient");
    const ids = (await db().select({ id: passages.id }).from(passages).where(eq(passages.campaignId, c.campaignId))).map((p) => p.id);
    const counts = async () => db().select().from(passages).where(inArray(passages.id, ids));
    expect((await counts()).every((p) => p.judgmentCount === 3 && p.sufficientCount === 3 && p.openSlots === 0)).toBe(true);
    expect(await nextTask(db(), e, { campaignId: c.campaignId })).toBeNull();

    await pauseAnnotator(db(), system, c.campaignId, a.id);
    expect((await counts()).every((p) => p.judgmentCount === 2 && p.sufficientCount === 2 && p.openSlots === 1)).toBe(true);
    await expect(nextTask(db(), a, { campaignId: c.campaignId })).rejects.toBeInstanceOf(AppError);

    // The reopened slots go to e; resuming a then finds R counted already: a's older judgments count, e's newest not.
    await drain(db(), e, c.campaignId, () => "insufficient");
    expect((await counts()).every((p) => p.judgmentCount === 3 && p.sufficientCount === 2 && p.openSlots === 0)).toBe(true);
    await resumeAnnotator(db(), system, c.campaignId, a.id);
    expect((await counts()).every((p) => p.judgmentCount === 3 && p.sufficientCount === 3 && p.openSlots === 0)).toBe(true);

    const standings = (await listStandings(db(), system, c.campaignId, { sort: "username", dir: "asc", limit: 50 })).rows;
    expect(standings.find((s) => s.userId === a.id)).toMatchObject({ status: "active", judgments: 2 });
  });

  it("a claim taken while its passage's judge was paused, judged after the resume, never pushes the tallies past R", async () => {
    const c = await makeCampaign(db(), { queries: 1, candidates: 1 });
    const [a, b, d, e] = [await makeAnnotator(db()), await makeAnnotator(db()), await makeAnnotator(db()), await makeAnnotator(db())];
    for (const who of [a, b, d]) await drain(db(), who, c.campaignId, () => "sufficient");
    await pauseAnnotator(db(), system, c.campaignId, a.id);
    const task = await nextTask(db(), e, { campaignId: c.campaignId });
    expect(task).not.toBeNull();
    await resumeAnnotator(db(), system, c.campaignId, a.id);
    await submitJudgment(db(), e, task!.claim.handle, judgmentOf(task!, "insufficient"));

    const ps = await db().select().from(passages).where(eq(passages.campaignId, c.campaignId));
    const counted = new Map<string, boolean>();
    const names = new Map(
      (await db().select({ username: users.username, pseudonym: users.pseudonym }).from(users)).map((u) => [u.pseudonym, u.username]),
    );
    for (const line of await exportedLines(exportJudgments(db(), system, c.campaignId))) {
      const row = JSON.parse(line) as { passage_id: number; annotator: string; counted: boolean; verdict: string };
      if (row.counted) counted.set(`${row.passage_id}:${names.get(row.annotator)}`, row.verdict === "sufficient");
    }
    for (const p of ps) {
      const mine = [...counted].filter(([k]) => k.startsWith(`${p.id}:`));
      expect(p.judgmentCount).toBe(mine.length);
      expect(p.judgmentCount).toBeLessThanOrEqual(3);
      expect(p.sufficientCount).toBe(mine.filter(([, s]) => s).length);
      expect(p.claimCount).toBe(0);
      expect(p.openSlots).toBe(0);
    }
    // The tallies the triggers keep agree with a recount from the raw rows.
    await pauseAnnotator(db(), system, c.campaignId, b.id);
    await resumeAnnotator(db(), system, c.campaignId, b.id);
    const again = await db().select().from(passages).where(eq(passages.campaignId, c.campaignId));
    const tally = (rows: typeof ps) =>
      rows.map((p) => [p.id, p.judgmentCount, p.sufficientCount, p.openSlots]).sort((x, y) => x[0]! - y[0]!);
    expect(tally(again)).toEqual(tally(ps));
  });

  it("the recount, the judgments export and the question view agree on which judgments count", async () => {
    const c = await makeCampaign(db(), { queries: 2, candidates: 1 });
    const [a, b, d, e] = [await makeAnnotator(db()), await makeAnnotator(db()), await makeAnnotator(db()), await makeAnnotator(db())];
    for (const who of [a, b, d]) await drain(db(), who, c.campaignId, () => "sufficient");
    await pauseAnnotator(db(), system, c.campaignId, a.id);
    await drain(db(), e, c.campaignId, () => "insufficient");
    await resumeAnnotator(db(), system, c.campaignId, a.id);
    await pauseAnnotator(db(), system, c.campaignId, b.id);
    // Active now: a, d (first judgments) and e (fourth); b paused. Counted: a, d, e.
    const expected = new Set([a.username, d.username, e.username]);

    const ps = await db().select().from(passages).where(eq(passages.campaignId, c.campaignId));
    const names = new Map(
      (await db().select({ username: users.username, pseudonym: users.pseudonym }).from(users)).map((u) => [u.pseudonym, u.username]),
    );
    const exported = new Map<string, boolean>();
    for (const line of await exportedLines(exportJudgments(db(), system, c.campaignId))) {
      const row = JSON.parse(line) as { passage_id: number; annotator: string; counted: boolean };
      exported.set(`${row.passage_id}:${names.get(row.annotator)}`, row.counted);
    }
    const viewed = new Map<string, boolean>();
    for (const queryId of new Set(ps.map((p) => p.queryId))) {
      const view = await getQuestionView(db(), system, c.campaignId, queryId);
      for (const p of view.passages) for (const j of p.judgments) viewed.set(`${p.id}:${j.username}`, j.counted);
    }
    expect(exported.size).toBe(ps.length * 4);
    expect(viewed).toEqual(exported);
    for (const p of ps) {
      const counted = [a, b, d, e].filter((u) => exported.get(`${p.id}:${u.username}`)).map((u) => u.username);
      expect(new Set(counted)).toEqual(expected);
      expect(p.judgmentCount).toBe(counted.length);
      expect(p.sufficientCount).toBe(2);
    }
  });

  it("pauses an annotator automatically when smoothed gold accuracy falls below the threshold", async () => {
    // Every question has one gold passage (expected: sufficient). Judging all "insufficient" fails gold.
    const c = await makeCampaign(db(), { queries: 4, candidates: 0, settings: { goldMinJudgments: 3, goldAccuracyThreshold: 0.5 } });
    const careless = await makeAnnotator(db());
    let judged = 0;
    for (
      let t = await nextTask(db(), careless, { campaignId: c.campaignId }).catch(() => null);
      t;
      t = await nextTask(db(), careless, { campaignId: c.campaignId }).catch(() => null)
    ) {
      await submitJudgment(db(), careless, t.claim.handle, judgmentOf(t, "insufficient"));
      judged++;
    }
    // After 3 wrong gold judgments: (0.5 + 0) / (1 + 3) = 0.125 < 0.5 → paused; the fourth is never served.
    expect(judged).toBe(3);
    const [standing] = await db().select().from(annotatorStandings).where(eq(annotatorStandings.userId, careless.id));
    expect(standing).toMatchObject({ status: "paused", pauseReason: "gold_rule", goldJudged: 3, goldCorrect: 0 });
    const ps = await db().select().from(passages).where(eq(passages.campaignId, c.campaignId));
    expect(ps.every((p) => p.judgmentCount === 0 && p.openSlots === 3)).toBe(true);

    const careful = await makeAnnotator(db());
    await drain(db(), careful, c.campaignId, () => "sufficient");
    const [good] = await db().select().from(annotatorStandings).where(eq(annotatorStandings.userId, careful.id));
    expect(good).toMatchObject({ status: "active", goldJudged: 4, goldCorrect: 4 });
  });
});

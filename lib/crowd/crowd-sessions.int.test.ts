import { eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import type { Db } from "@/db/client";
import { crowdEntries, crowdSessions, passages } from "@/db/schema";
import { anonymous, type Actor } from "@/lib/auth/actor";
import { nextTaskFor } from "./work";
import { submitJudgment } from "@/lib/campaign/annotate/judgments";
import { listMyCampaigns } from "@/lib/campaign/campaigns";
import { AppError } from "@/lib/errors";
import { judgmentOf, makeCampaign } from "@/test/campaign-factory";
import { crowdCampaign, enter, refusal } from "@/test/crowd-entry";
import { describeEachDatabase, unique } from "@/test/databases";
import { consentToCrowdSession, enterCrowd, getCrowdEntryInfo, getMyCrowdSession } from "./sessions";
import { answerTraining, getTrainingItem } from "./training";
import type { TrainingItemView } from "./session.contract";

/** The expected answer of a training item, read from the passage (the test knows what the worker cannot). */
async function rightAnswer(db: Db, campaignId: number, item: TrainingItemView, right: boolean) {
  const [p] = await db
    .select()
    .from(passages)
    .where(
      sql`${passages.campaignId} = ${campaignId} and ${passages.wikipediaId} = ${item.passage.wikipediaId} and ${passages.isTraining}`,
    );
  const para = item.passage.paragraphs[0]!;
  const word = para.text.split(" ")[0]!;
  const span = { startParagraphId: para.id, startCharacter: 0, endParagraphId: para.id, endCharacter: Array.from(word).length, text: word };
  const verdict = right ? p!.expectedVerdict! : p!.expectedVerdict === "sufficient" ? "insufficient" : "sufficient";
  return { position: item.position, verdict, unreadable: false, span: verdict === "sufficient" ? span : null, durationMs: 3000 };
}

async function train(db: Db, actor: Actor, campaignId: number, rights: boolean[]) {
  let last;
  for (const right of rights) {
    const { item } = await getTrainingItem(db, actor);
    expect(item).not.toBeNull();
    last = await answerTraining(db, actor, (await rightAnswer(db, campaignId, item!, right)) as never);
    expect(last.correct).toBe(right);
  }
  return last!;
}

describeEachDatabase("crowd sessions", ({ db }) => {
  it("enters, consents, trains with feedback, works a quota of 4 and ends with the completion code; the same id resumes", async () => {
    const c = await crowdCampaign(db(), { queries: 8, training: 3 });
    const info = await getCrowdEntryInfo(db(), anonymous, c.key);
    expect(info.example).toBe("");

    const pid = unique("pid");
    const first = await enter(db(), c.key, pid);
    expect(first.token.startsWith("kpsw_")).toBe(true);
    expect(first.session).toMatchObject({ stage: "consent", number: 1, training: { total: 3, answered: 0 } });
    const again = await enter(db(), c.key, pid);
    expect(again.actor).toMatchObject({ kind: "user", role: "crowd", id: (first.actor as { id: number }).id });
    expect(await refusal(nextTaskFor(db(), first.actor, { campaignId: c.campaignId }))).toMatchObject({ code: "conflict" });

    expect((await consentToCrowdSession(db(), first.actor)).stage).toBe("training");
    const { item } = await getTrainingItem(db(), first.actor);
    const wrong = await answerTraining(db(), first.actor, (await rightAnswer(db(), c.campaignId, item!, false)) as never);
    expect(wrong).toMatchObject({ correct: false, explanation: "The first paragraph names the year." });
    expect(wrong.expected.verdict).not.toBe(wrong.given.verdict);
    expect(wrong.expected.span).toMatchObject({ startCharacter: 0, endCharacter: 4, text: "Para" });
    // A double submit of the same position is refused; the next item comes.
    expect((await refusal(answerTraining(db(), first.actor, (await rightAnswer(db(), c.campaignId, item!, true)) as never))).code).toBe(
      "conflict",
    );
    const passed = await train(db(), first.actor, c.campaignId, [true, true]);
    expect(passed.session).toMatchObject({ stage: "working", training: { answered: 3, correct: 2 } });

    const trainingPages = new Set(
      (
        await db()
          .select()
          .from(passages)
          .where(sql`${passages.campaignId} = ${c.campaignId} and ${passages.isTraining}`)
      ).map((p) => `${p.wikipediaId}:${p.startParagraphId}`),
    );
    for (let i = 0; i < 4; i++) {
      const task = await nextTaskFor(db(), first.actor, { campaignId: c.campaignId });
      expect(task).not.toBeNull();
      expect(trainingPages.has(`${task!.passage.wikipediaId}:${task!.passage.paragraphs[0]!.id}`)).toBe(false);
      await submitJudgment(db(), first.actor, task!.claim.handle, judgmentOf(task!, "insufficient", 3000));
    }
    const over = await refusal(nextTaskFor(db(), first.actor, { campaignId: c.campaignId }));
    expect(over.details).toMatchObject({ sessionEnded: true, outcome: "completed" });
    const view = await getMyCrowdSession(db(), first.actor);
    expect(view).toMatchObject({ stage: "ended", outcome: "completed", code: "DONE1", work: { judged: 4, quota: 4 } });
    expect(view.completion).toEqual({ kind: "redirect", url: "https://app.prolific.com/submissions/complete?cc=DONE1" });
    // Returning after the one allowed session shows its code again, and gives no more work.
    const back = await enter(db(), c.key, pid);
    expect(back.session).toMatchObject({ stage: "ended", code: "DONE1", number: 1 });
  });

  it("ends a session that fails training with the other code, and never lets a crowd account reach another campaign", async () => {
    const c = await crowdCampaign(db(), { queries: 4, training: 3 });
    const other = await makeCampaign(db(), { queries: 1, candidates: 0 });
    const w = await enter(db(), c.key, unique("pid"));
    await consentToCrowdSession(db(), w.actor);
    const failed = await train(db(), w.actor, c.campaignId, [false, true, false]);
    expect(failed.session).toMatchObject({ stage: "ended", outcome: "training_failed", code: "FAIL1" });
    expect(failed.session.message).toContain("1 of 3 right; 2 needed");
    expect(await refusal(nextTaskFor(db(), w.actor, { campaignId: other.campaignId }))).toMatchObject({ code: "not_found" });
    const mine = await listMyCampaigns(db(), w.actor, { limit: 50 });
    expect(mine.rows.map((r) => r.id)).toEqual([c.campaignId]);
  });

  it("skips training when there is none, ends on time and when the queue is empty", async () => {
    const c = await crowdCampaign(db(), { queries: 2, training: 0, entry: { quota: 50 } });
    const a = await enter(db(), c.key, unique("pid"));
    expect((await consentToCrowdSession(db(), a.actor)).stage).toBe("working");
    let judged = 0;
    for (;;) {
      const task = await nextTaskFor(db(), a.actor, { campaignId: c.campaignId }).catch((e: AppError) => e);
      if (task instanceof AppError) {
        expect(task.details).toMatchObject({ sessionEnded: true, outcome: "queue_empty" });
        break;
      }
      await submitJudgment(db(), a.actor, task!.claim.handle, judgmentOf(task!, "sufficient", 2500));
      judged++;
    }
    expect(judged).toBe(4);
    expect((await getMyCrowdSession(db(), a.actor)).code).toBe("EMPTY1");

    const b = await enter(db(), c.key, unique("pid"));
    await db()
      .update(crowdSessions)
      .set({ deadlineAt: new Date(Date.now() - 1000) })
      .where(eq(crowdSessions.userId, (b.actor as { id: number }).id));
    expect(await getMyCrowdSession(db(), b.actor)).toMatchObject({ stage: "ended", outcome: "timed_out", code: "TIME1" });
  });

  it("refuses bad entries with the field named, and an entry that is off", async () => {
    const c = await crowdCampaign(db(), { queries: 1, training: 0 });
    const bad = await refusal(enterCrowd(db(), anonymous, { key: c.key, body: { PROLIFIC_PID: "<script>", STUDY_ID: "s" } }));
    expect(bad.code).toBe("invalid");
    expect(JSON.stringify(bad.details)).toMatch(/PROLIFIC_PID/);
    expect(JSON.stringify(bad.details)).toMatch(/SESSION_ID/);
    await db().update(crowdEntries).set({ enabled: false }).where(eq(crowdEntries.campaignId, c.campaignId));
    expect(
      (await refusal(enterCrowd(db(), anonymous, { key: c.key, body: { PROLIFIC_PID: "p", STUDY_ID: "s", SESSION_ID: "x" } }))).code,
    ).toBe("not_found");
  });
});

import { and, eq, isNull, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import type { Db } from "@/db/client";
import { rowsOf } from "@/db/client";
import { claims, crowdEntries, crowdSessions } from "@/db/schema";
import { anonymous, type Actor } from "@/lib/auth/actor";
import { renewClaim } from "@/lib/campaign/annotate/assignment";
import { getMyProgress } from "@/lib/campaign/annotate/my-progress";
import { submitJudgment } from "@/lib/campaign/annotate/judgments";
import { reviseJudgment } from "@/lib/campaign/annotate/revise-judgment";
import { judgmentOf } from "@/test/campaign-factory";
import { crowdCampaign, enter, refusal } from "@/test/crowd-entry";
import { describeEachDatabase, unique } from "@/test/databases";
import { endExpiredCrowdSessions } from "./reaper";
import { consentToCrowdSession, enterCrowd, getCrowdEntryInfo, getMyCrowdSession } from "./sessions";
import { requireCrowdWorkOpen, nextTaskFor } from "./work";

// Issue 27, "no hoarding" and "nothing after the end": what a crowd worker's requests meet once their
// session's time ran out or its entry was stopped, the two-claim bound, the reaper, and a re-entry
// with another platform session id (the takeover). The routes call requireCrowdWorkOpen before the
// annotation function, as `route` below does.

const userIdOf = (a: Actor) => (a as { id: number }).id;

/** A request as the claim, judgment and progress routes make it: the session settled, then the domain call. */
async function route<T>(db: Db, actor: Actor, call: () => Promise<T>): Promise<T> {
  await requireCrowdWorkOpen(db, actor);
  return call();
}

async function liveClaims(db: Db, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(claims)
    .where(and(eq(claims.userId, userId), isNull(claims.endedAt)));
  return row!.n;
}

/** The claim handles that parallel requests got; a request may instead be told to try again (409 `busy`), never anything else. */
async function handlesOf(requests: Promise<{ claim: { handle: string } } | null>[]): Promise<Set<string>> {
  const handles = new Set<string>();
  for (const r of await Promise.allSettled(requests)) {
    if (r.status === "fulfilled") handles.add(r.value!.claim.handle);
    else expect(r.reason).toMatchObject({ code: "conflict", details: { busy: true } });
  }
  return handles;
}

/** A worker entered and working (no training), holding a claim on screen and a prefetched one. */
async function working(db: Db, options: Parameters<typeof crowdCampaign>[1]) {
  const c = await crowdCampaign(db, options);
  const pid = unique("pid");
  const w = await enter(db, c.key, pid);
  expect((await consentToCrowdSession(db, w.actor)).stage).toBe("working");
  const shown = (await nextTaskFor(db, w.actor, { campaignId: c.campaignId }))!;
  const prefetched = (await nextTaskFor(db, w.actor, { campaignId: c.campaignId, after: shown.claim.handle }))!;
  expect(prefetched.claim.handle).not.toBe(shown.claim.handle);
  return { c, pid, w, shown, prefetched };
}

describeEachDatabase("crowd sessions that end", ({ db }) => {
  it("past its deadline every request ends the session (timed_out, its code), frees its claims and is refused with 409", async () => {
    const { c, w, shown } = await working(db(), { queries: 4, training: 0, entry: { quota: 10 } });
    await db()
      .update(crowdSessions)
      .set({ deadlineAt: new Date(Date.now() - 1000) })
      .where(eq(crowdSessions.userId, userIdOf(w.actor)));
    const attempts: (() => Promise<unknown>)[] = [
      () => renewClaim(db(), w.actor, shown.claim.handle),
      () => submitJudgment(db(), w.actor, shown.claim.handle, judgmentOf(shown, "insufficient", 3000)),
      () => getMyProgress(db(), w.actor, c.campaignId),
      () => nextTaskFor(db(), w.actor, { campaignId: c.campaignId }),
    ];
    for (const attempt of attempts) {
      const refused = await refusal(route(db(), w.actor, attempt));
      expect(refused).toMatchObject({ code: "conflict", details: { sessionEnded: true, outcome: "timed_out" } });
      expect(refused.message).toContain("ran out");
    }
    expect(await liveClaims(db(), userIdOf(w.actor))).toBe(0);
    expect(await getMyCrowdSession(db(), w.actor)).toMatchObject({
      stage: "ended",
      outcome: "timed_out",
      code: "TIME1",
      work: { judged: 0 },
    });
  });

  it("a stopped entry ends sessions in progress at their next request (stopped, its own code); a closed one lets them finish", async () => {
    const closed = await working(db(), { queries: 4, training: 0, entry: { quota: 10 } });
    await db().update(crowdEntries).set({ enabled: false }).where(eq(crowdEntries.campaignId, closed.c.campaignId));
    // Closed to newcomers: the session in progress goes on, and a reload (the same ids) resumes it.
    await route(db(), closed.w.actor, () =>
      submitJudgment(db(), closed.w.actor, closed.shown.claim.handle, judgmentOf(closed.shown, "insufficient", 3000)),
    );
    const { pid } = closed;
    expect((await enter(db(), closed.c.key, pid)).session).toMatchObject({ stage: "working", number: 1 });
    expect((await refusal(enter(db(), closed.c.key, unique("pid")))).status).toBe(404);
    expect((await refusal(getCrowdEntryInfo(db(), anonymous, closed.c.key))).status).toBe(404);

    // Stopped: the next judgment, renewal or revision is refused, the session ends with the stopped code.
    await db().update(crowdEntries).set({ stopped: true }).where(eq(crowdEntries.campaignId, closed.c.campaignId));
    const refused = await refusal(route(db(), closed.w.actor, () => renewClaim(db(), closed.w.actor, closed.prefetched.claim.handle)));
    expect(refused).toMatchObject({ code: "conflict", details: { sessionEnded: true, outcome: "stopped" } });
    expect(refused.message).toBe("The researchers stopped this study. Thank you: your work counts.");
    expect(await getMyCrowdSession(db(), closed.w.actor)).toMatchObject({
      stage: "ended",
      outcome: "stopped",
      code: "STOP1",
      work: { judged: 1 },
    });
    expect(await liveClaims(db(), userIdOf(closed.w.actor))).toBe(0);
    // Coming back shows the stopped session and its code; no newcomer gets in.
    expect((await enter(db(), closed.c.key, pid)).session).toMatchObject({ stage: "ended", code: "STOP1" });
    expect((await refusal(enter(db(), closed.c.key, unique("pid")))).status).toBe(404);
  });

  it("refuses a revision once the quota is reached, even before the worker asked for their code", async () => {
    const c = await crowdCampaign(db(), { queries: 3, training: 0, entry: { quota: 1 } });
    const w = await enter(db(), c.key, unique("pid"));
    await consentToCrowdSession(db(), w.actor);
    const task = (await nextTaskFor(db(), w.actor, { campaignId: c.campaignId }))!;
    await route(db(), w.actor, () => submitJudgment(db(), w.actor, task.claim.handle, judgmentOf(task, "insufficient", 3000)));
    const revision = { ...judgmentOf(task, "sufficient", 3000), revision: 0 };
    const refused = await refusal(route(db(), w.actor, () => reviseJudgment(db(), w.actor, task.claim.handle, revision)));
    expect(refused).toMatchObject({ code: "conflict", details: { sessionEnded: true, outcome: "completed" } });
    expect(await getMyCrowdSession(db(), w.actor)).toMatchObject({ outcome: "completed", code: "DONE1" });
  });

  it("gives a crowd worker at most two live claims, whatever `after` their parallel requests send", async () => {
    const { c, w, shown, prefetched } = await working(db(), { queries: 12, training: 0, entry: { quota: 50 } });
    const afters = [undefined, shown.claim.handle, prefetched.claim.handle, "A".repeat(22), "stale-handle-000000000"];
    const tasks = await handlesOf(
      Array.from({ length: 20 }, (_, i) => nextTaskFor(db(), w.actor, { campaignId: c.campaignId, after: afters[i % afters.length] })),
    );
    expect([...tasks].every((h) => h === shown.claim.handle || h === prefetched.claim.handle)).toBe(true);
    expect(await liveClaims(db(), userIdOf(w.actor))).toBe(2);

    // A worker with nothing in hand asking 10 times at once: unserialized, these statements each saw no claim and took one (5 of 10 on PostgreSQL).
    const other = await enter(db(), c.key, unique("pid"));
    await consentToCrowdSession(db(), other.actor);
    const got = await handlesOf(
      Array.from({ length: 10 }, () => nextTaskFor(db(), other.actor, { campaignId: c.campaignId, after: "B".repeat(22) })),
    );
    expect(got.size).toBeLessThanOrEqual(2);
    expect(await liveClaims(db(), userIdOf(other.actor))).toBeLessThanOrEqual(2);
  });

  it("the reaper ends sessions past their deadline and those of a stopped entry, with their codes, and frees their claims", async () => {
    const late = await working(db(), { queries: 3, training: 0, entry: { quota: 10 } });
    const stopped = await working(db(), { queries: 3, training: 0, entry: { quota: 10 } });
    const onTime = await working(db(), { queries: 3, training: 0, entry: { quota: 10 } });
    await db()
      .update(crowdSessions)
      .set({ deadlineAt: new Date(Date.now() - 1000) })
      .where(eq(crowdSessions.userId, userIdOf(late.w.actor)));
    await db().update(crowdEntries).set({ enabled: false, stopped: true }).where(eq(crowdEntries.campaignId, stopped.c.campaignId));
    // Rounds of at most 500 until none is left (tests share the database and leave their sessions behind).
    let ended = 0;
    for (let n = -1; n !== 0; ended += n) n = await endExpiredCrowdSessions(db());
    expect(ended).toBeGreaterThanOrEqual(2);
    const rows = await db()
      .select()
      .from(crowdSessions)
      .where(sql`${crowdSessions.userId} in (${userIdOf(late.w.actor)}, ${userIdOf(stopped.w.actor)}, ${userIdOf(onTime.w.actor)})`);
    const byUser = new Map(rows.map((r) => [r.userId, r]));
    expect(byUser.get(userIdOf(late.w.actor))).toMatchObject({ stage: "ended", outcome: "timed_out", code: "TIME1" });
    expect(byUser.get(userIdOf(stopped.w.actor))).toMatchObject({ stage: "ended", outcome: "stopped", code: "STOP1" });
    expect(byUser.get(userIdOf(onTime.w.actor))).toMatchObject({ stage: "working", outcome: null });
    expect([
      await liveClaims(db(), userIdOf(late.w.actor)),
      await liveClaims(db(), userIdOf(stopped.w.actor)),
      await liveClaims(db(), userIdOf(onTime.w.actor)),
    ]).toEqual([0, 0, 2]);
    const [slots] = rowsOf<{ claimed: number }>(
      await db().execute(sql`select coalesce(sum(claim_count), 0)::int as claimed from passages where campaign_id = ${late.c.campaignId}`),
    );
    expect(slots!.claimed).toBe(0);
  });

  it("fixes a session's platform ids at entry: another SESSION_ID or assignmentId is refused, the completion goes to the session's own", async () => {
    const c = await crowdCampaign(db(), { queries: 3, training: 0, entry: { quota: 1 } });
    const pid = unique("pid");
    const victim = await enter(db(), c.key, pid);
    const takeover = await refusal(enter(db(), c.key, pid, { PROLIFIC_PID: pid, STUDY_ID: "study-1", SESSION_ID: "attacker" }));
    expect(takeover).toMatchObject({ code: "conflict", details: { sessionInProgress: true, field: "SESSION_ID" } });
    expect(takeover.message).toContain("SESSION_ID");
    const [row] = await db()
      .select()
      .from(crowdSessions)
      .where(eq(crowdSessions.userId, userIdOf(victim.actor)));
    expect(row).toMatchObject({ platformSessionId: `s-${pid}`, studyId: "study-1", number: 1 });

    const m = await crowdCampaign(db(), { queries: 3, training: 0, entry: { quota: 1, platform: "mturk", mturkSite: "sandbox" } });
    const ids = { workerId: unique("W"), assignmentId: unique("A"), hitId: "HIT1" };
    const mine = await enterCrowd(db(), anonymous, { key: m.key, body: { ...ids, turkSubmitTo: "https://evil.example.org" } });
    const hijack = await refusal(
      enterCrowd(db(), anonymous, { key: m.key, body: { ...ids, assignmentId: "ATTACKER", turkSubmitTo: "https://evil.example.org" } }),
    );
    expect(hijack).toMatchObject({ code: "conflict", details: { sessionInProgress: true, field: "assignmentId" } });
    const worker = await enter(db(), m.key, "", { ...ids, turkSubmitTo: "https://www.mturk.com" });
    expect(worker.session.number).toBe(mine.session.number);
    await consentToCrowdSession(db(), worker.actor);
    const task = (await nextTaskFor(db(), worker.actor, { campaignId: m.campaignId }))!;
    await submitJudgment(db(), worker.actor, task.claim.handle, judgmentOf(task, "insufficient", 3000));
    await refusal(nextTaskFor(db(), worker.actor, { campaignId: m.campaignId }));
    // The site is the campaign's (the sandbox), never the request's; the assignment the session's own.
    expect((await getMyCrowdSession(db(), worker.actor)).completion).toEqual({
      kind: "mturk",
      action: "https://workersandbox.mturk.com/mturk/externalSubmit",
      fields: { assignmentId: ids.assignmentId, outcome: "completed", code: "DONE1" },
    });
  });

  it("shows the example the settings hold on the public entry page, never a passage of the campaign", async () => {
    const c = await crowdCampaign(db(), { queries: 2, training: 2, entry: { example: "A *made-up* question and passage." } });
    const info = await getCrowdEntryInfo(db(), anonymous, c.key);
    expect(info.example).toBe("A *made-up* question and passage.");
    expect(JSON.stringify(info)).not.toMatch(/paragraphs|wikipedia/i);
  });
});

import { sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { rowsOf, type Db } from "@/db/client";
import { system, type UserActor } from "@/lib/auth/actor";
import { nextTaskFor } from "./work";
import { pauseByGoldRule, submitJudgment } from "@/lib/campaign/annotate/judgments";
import { AppError } from "@/lib/errors";
import { judgmentOf, makeAnnotator, makeCampaign } from "@/test/campaign-factory";
import { idsOfTask } from "@/test/claims";
import {
  addTrainingAnswer,
  codeOf,
  endCrowdSession,
  makeCrowdEntry,
  makeCrowdWorker,
  startCrowdSession,
  type TestCrowdWorker,
} from "@/test/crowd";
import { describeEachDatabase, unique } from "@/test/databases";
import { letTimePass } from "@/test/elapse";
import { exportedLines } from "@/test/exported";
import { exportWorkerSessions, listWorkerSessions } from "./workers-report";
import { WORKER_REPORT_COLUMNS, workerListQuerySchema, type WorkerSessionRow } from "./workers-report.contract";

const pause = () => new Promise((r) => setTimeout(r, 3));
const query = (q: Record<string, unknown> = {}) => workerListQuerySchema.parse(q);

/** What a session's worker submitted in it: the passages and the durations. */
interface Submitted {
  passages: number[];
  ms: number[];
}

/** Claims and judges `n` passages (sufficient, `ms` each); a claim is taken before `beforeSubmit` runs, the judgment after it. */
async function judge(
  db: Db,
  who: UserActor,
  campaignId: number,
  n: number,
  ms: number,
  into: Submitted,
  beforeSubmit?: () => Promise<void>,
) {
  for (let i = 0; i < n; i++) {
    const t = await nextTaskFor(db, who, { campaignId });
    if (!t) throw new Error("the queue ran dry");
    if (beforeSubmit) await beforeSubmit();
    await submitJudgment(db, who, t.claim.handle, judgmentOf(t, "sufficient", ms + i));
    into.passages.push((await idsOfTask(db, t)).passageId);
    into.ms.push(ms + i);
    await pause();
  }
}

describeEachDatabase("crowd payment report", ({ db }) => {
  let campaignId: number;
  const sessions: Record<string, { id: number; submitted: Submitted; worker: TestCrowdWorker }> = {};
  const formulaId = `=HYPERLINK("http://evil"),"x"`;

  // Four workers on six passages (R = 2): A (Prolific) judges 4 in session 1 — the last one claimed
  // before the session ended and submitted after — and 2 in session 2, still open; C (generic) 3,
  // which finish those passages; D (MTurk) 2, then is paused by the gold rule (their judgments stop
  // counting); B (MTurk, a formula for an id) fails training and never works.
  beforeAll(async () => {
    const c = await makeCampaign(db(), { queries: 3, candidates: 1, settings: { judgmentsPerPassage: 2, endorsementThreshold: 1 } });
    campaignId = c.campaignId;
    await makeCrowdEntry(db(), campaignId);
    const a = await makeCrowdWorker(db(), campaignId, "prolific", unique("PID-a"));
    const b = await makeCrowdWorker(db(), campaignId, "mturk", formulaId + unique(""));
    const cw = await makeCrowdWorker(db(), campaignId, "generic", unique("gen-c"));
    const d = await makeCrowdWorker(db(), campaignId, "mturk", unique("turk-d"));
    const track = (key: string, id: number, worker: TestCrowdWorker) =>
      (sessions[key] = { id, worker, submitted: { passages: [], ms: [] } }).submitted;

    const a1 = await startCrowdSession(db(), a, campaignId, { studyId: "STUDY-1", platformSessionId: "SESS-a1" });
    const a1s = track("a1", a1, a);
    await judge(db(), a.actor, campaignId, 3, 1000, a1s);
    await judge(db(), a.actor, campaignId, 1, 4000, a1s, async () => {
      await endCrowdSession(db(), a1, "completed");
      await pause();
    });
    const a2 = await startCrowdSession(db(), a, campaignId, { studyId: "STUDY-1", platformSessionId: "SESS-a2" });
    await judge(db(), a.actor, campaignId, 2, 2000, track("a2", a2, a));

    const b1 = await startCrowdSession(db(), b, campaignId, { working: false, studyId: "HIT-1", platformSessionId: "ASSIGN-b1" });
    track("b1", b1, b);
    const passageIds = rowsOf<{ id: string | number }>(
      await db().execute(sql`select id from passages where campaign_id = ${campaignId} order by id limit 2`),
    );
    await addTrainingAnswer(db(), b1, b.actor.id, Number(passageIds[0]!.id), 0, true, 1500);
    await letTimePass(db(), b.actor.id, 2000); // B takes 2 s on its second item (its client claims 2.5 s)
    await addTrainingAnswer(db(), b1, b.actor.id, Number(passageIds[1]!.id), 1, false, 2500);
    await endCrowdSession(db(), b1, "training_failed", { judged: 2, correct: 1 });

    const c1 = await startCrowdSession(db(), cw, campaignId);
    await judge(db(), cw.actor, campaignId, 3, 3000, track("c1", c1, cw));
    await endCrowdSession(db(), c1, "timed_out");

    const d1 = await startCrowdSession(db(), d, campaignId, { platformSessionId: "ASSIGN-d1" });
    await judge(db(), d.actor, campaignId, 2, 500, track("d1", d1, d));
    await pauseByGoldRule(db(), campaignId, d.actor.id);
    await endCrowdSession(db(), d1, "paused");
  });

  /** The agreement figures of a session's judgments, read from the judgments themselves. */
  async function agreementOf(key: string) {
    const s = sessions[key]!;
    if (!s.submitted.passages.length) return { agreed: 0, compared: 0 };
    const rows = rowsOf<{ agrees: boolean | null }>(
      await db().execute(
        sql`select agrees from judgments where user_id = ${s.worker.actor.id} and passage_id = any(${sql.param(s.submitted.passages)}::bigint[])`,
      ),
    );
    return { agreed: rows.filter((r) => r.agrees === true).length, compared: rows.filter((r) => r.agrees !== null).length };
  }

  /**
   * The session's active time by the server's clock, read from the rows: its judgments' duration_ms
   * (never the client's durationMs, kept as client_duration_ms), and its training from the session's
   * start to its last training answer.
   */
  async function serverSecondsOf(key: string): Promise<number> {
    const s = sessions[key]!;
    const [r] = rowsOf<{ judged: number | null; trained: number | null; hint: number | null }>(
      await db().execute(sql`
        select (select sum(duration_ms)::float8 from judgments where user_id = ${s.worker.actor.id} and passage_id = any(${sql.param(s.submitted.passages)}::bigint[])) as judged,
          (select sum(client_duration_ms)::float8 from judgments where user_id = ${s.worker.actor.id} and passage_id = any(${sql.param(s.submitted.passages)}::bigint[])) as hint,
          (select round(extract(epoch from (max(a.created_at) - cs.started_at)) * 1000)::float8 from training_answers a join crowd_sessions cs on cs.id = a.session_id
           where a.session_id = ${s.id} group by cs.started_at) as trained`),
    );
    expect(r!.hint ?? 0, key).toBe(s.submitted.ms.reduce((x, y) => x + y, 0)); // the client's claims, kept as hints
    return ((r!.judged ?? 0) + (r!.trained ?? 0)) / 1000;
  }

  async function goldOf(key: string) {
    const [g] = rowsOf<{ gold_judged: number; gold_correct: number }>(
      await db().execute(
        sql`select gold_judged, gold_correct from annotator_standings where campaign_id = ${campaignId} and user_id = ${sessions[key]!.worker.actor.id}`,
      ),
    );
    return { goldJudged: g?.gold_judged ?? 0, goldCorrect: g?.gold_correct ?? 0 };
  }

  it("lists one row per session, newest first, with the platform's ids, outcome and code", async () => {
    const page = await listWorkerSessions(db(), system, campaignId, query());
    expect(page.next).toBeNull();
    expect(page.rows.map((r) => r.id)).toEqual(["d1", "c1", "b1", "a2", "a1"].map((k) => sessions[k]!.id));
    const byId = new Map(page.rows.map((r) => [r.id, r]));
    const a1 = byId.get(sessions.a1!.id)!;
    expect(a1).toMatchObject({
      platform: "prolific",
      workerId: sessions.a1!.worker.platformWorkerId,
      session: 1,
      studyId: "STUDY-1",
      platformSessionId: "SESS-a1",
    });
    expect(a1).toMatchObject({ stage: "ended", outcome: "completed", code: codeOf("completed"), paused: false, pauseReason: null });
    expect(a1.endedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Date.parse(a1.startedAt)).toBeLessThanOrEqual(Date.parse(a1.endedAt!));
    const a2 = byId.get(sessions.a2!.id)!;
    expect(a2).toMatchObject({ session: 2, stage: "working", outcome: null, code: null, endedAt: null, platformSessionId: "SESS-a2" });
    expect(byId.get(sessions.b1!.id)).toMatchObject({
      platform: "mturk",
      outcome: "training_failed",
      code: codeOf("training_failed"),
      studyId: "HIT-1",
    });
    expect(byId.get(sessions.c1!.id)).toMatchObject({ platform: "generic", outcome: "timed_out", studyId: null, platformSessionId: null });
    expect(byId.get(sessions.d1!.id)).toMatchObject({ outcome: "paused", code: codeOf("paused"), paused: true, pauseReason: "gold_rule" });
    const [pseudonym] = rowsOf<{ pseudonym: string }>(
      await db().execute(sql`select pseudonym from users where id = ${sessions.c1!.worker.actor.id}`),
    );
    expect(byId.get(sessions.c1!.id)!.pseudonym).toBe(pseudonym!.pseudonym);
  });

  it("splits a worker's judgments by session (a late submission stays in its session), with counted, time, gold and agreement", async () => {
    const rows = new Map((await listWorkerSessions(db(), system, campaignId, query())).rows.map((r) => [r.id, r]));
    const expected: Record<string, { judgments: number; counted: number }> = {
      a1: { judgments: 4, counted: 4 },
      a2: { judgments: 2, counted: 2 },
      b1: { judgments: 0, counted: 0 },
      c1: { judgments: 3, counted: 3 },
      d1: { judgments: 2, counted: 0 }, // paused: none counts
    };
    let compared = 0;
    for (const [key, e] of Object.entries(expected)) {
      const s = sessions[key]!;
      const row = rows.get(s.id)!;
      const gold = await goldOf(key);
      const agreement = await agreementOf(key);
      compared += agreement.compared;
      expect(row, key).toMatchObject({ judgments: e.judgments, countedJudgments: e.counted, ...gold, ...agreement });
      expect(row.activeSeconds, key).toBeCloseTo(await serverSecondsOf(key), 6);
      expect(row.goldAccuracy, key).toBe(gold.goldJudged ? (0.5 + gold.goldCorrect) / (1 + gold.goldJudged) : null);
      expect(row.agreement, key).toBe(agreement.compared ? agreement.agreed / agreement.compared : null);
    }
    expect(compared).toBeGreaterThan(0); // C finished three passages
    expect(Math.max(...[...rows.values()].map((r) => r.goldJudged))).toBeGreaterThan(0);
    // B trained for about 2 s by the server's clock, whatever the 1.5 s + 2.5 s its client claimed.
    expect(rows.get(sessions.b1!.id)).toMatchObject({ trainingJudged: 2, trainingCorrect: 1 });
    expect(rows.get(sessions.b1!.id)!.activeSeconds).toBeGreaterThanOrEqual(2);
    expect(rows.get(sessions.b1!.id)!.activeSeconds).toBeLessThan(4);
    // A's two sessions share the worker's standing.
    expect(rows.get(sessions.a1!.id)!.goldJudged).toBe(rows.get(sessions.a2!.id)!.goldJudged);
  });

  it("pages by keyset, searches the platform worker id and filters by outcome", async () => {
    const all = (await listWorkerSessions(db(), system, campaignId, query())).rows;
    const first = await listWorkerSessions(db(), system, campaignId, query({ limit: 2 }));
    expect(first.rows).toEqual(all.slice(0, 2));
    expect(first.next).toBe(all[1]!.id);
    const second = await listWorkerSessions(db(), system, campaignId, query({ limit: 2, after: first.next }));
    expect(second.rows).toEqual(all.slice(2, 4));
    const third = await listWorkerSessions(db(), system, campaignId, query({ limit: 2, after: second.next }));
    expect(third).toEqual({ rows: all.slice(4), next: null });

    const a = sessions.a1!.worker.platformWorkerId;
    const found = await listWorkerSessions(db(), system, campaignId, query({ q: a.slice(2, 9) }));
    expect(found.rows.map((r) => r.id)).toEqual([sessions.a2!.id, sessions.a1!.id]);
    expect((await listWorkerSessions(db(), system, campaignId, query({ q: "%" }))).rows).toEqual([]);
    expect((await listWorkerSessions(db(), system, campaignId, query({ outcome: "open" }))).rows.map((r) => r.id)).toEqual([
      sessions.a2!.id,
    ]);
    expect((await listWorkerSessions(db(), system, campaignId, query({ outcome: "training_failed" }))).rows.map((r) => r.id)).toEqual([
      sessions.b1!.id,
    ]);
  });

  it("exports every row as CSV (quoted, formulas guarded) and as JSONL, a page at a time", async () => {
    const all = (await listWorkerSessions(db(), system, campaignId, query())).rows;
    const csv = await exportedLines(exportWorkerSessions(db(), system, campaignId, { format: "csv", pageRows: 2 }));
    expect(csv).toHaveLength(all.length + 1);
    expect(csv[0]).toBe(WORKER_REPORT_COLUMNS.join(",") + "\r\n");
    const b = all.find((r) => r.id === sessions.b1!.id)!;
    const bLine = csv[1 + all.indexOf(b)]!;
    expect(bLine.startsWith(`mturk,"'${b.workerId.replace(/"/g, '""')}",`)).toBe(true);
    expect(bLine).toContain(
      `,HIT-1,ASSIGN-b1,ended,training_failed,${codeOf("training_failed")},${b.startedAt},${b.endedAt},0,0,${b.activeSeconds},2,1,`,
    );
    const a2Line = csv[1 + all.findIndex((r) => r.id === sessions.a2!.id)]!;
    expect(a2Line).toMatch(/,working,,,/); // no outcome, no code yet: empty cells

    const jsonl = await exportedLines(exportWorkerSessions(db(), system, campaignId, { format: "jsonl", pageRows: 2 }));
    expect(jsonl.map((l) => JSON.parse(l))).toEqual(all.map(({ id: _id, ...rest }: WorkerSessionRow) => rest));
    expect(Object.keys(JSON.parse(jsonl[0]!))).toEqual([...WORKER_REPORT_COLUMNS]);
    const filtered = await exportedLines(exportWorkerSessions(db(), system, campaignId, { format: "jsonl", outcome: "paused" }));
    expect(filtered.map((l) => JSON.parse(l).platformSessionId)).toEqual(["ASSIGN-d1"]);
  });

  it("is for coordinators only, and 404 for an unknown campaign", async () => {
    const annotator = await makeAnnotator(db());
    await expect(listWorkerSessions(db(), annotator, campaignId, query())).rejects.toMatchObject({ code: "forbidden" });
    await expect(exportWorkerSessions(db(), annotator, campaignId, { format: "csv" }).next()).rejects.toMatchObject({ code: "forbidden" });
    await expect(listWorkerSessions(db(), system, 987_654_321, query())).rejects.toBeInstanceOf(AppError);
    await expect(listWorkerSessions(db(), system, 987_654_321, query())).rejects.toMatchObject({ code: "not_found" });
    const empty = await makeCampaign(db(), { queries: 1, candidates: 0 });
    expect(await listWorkerSessions(db(), system, empty.campaignId, query())).toEqual({ rows: [], next: null });
    expect(await exportedLines(exportWorkerSessions(db(), system, empty.campaignId, { format: "csv" }))).toEqual([
      WORKER_REPORT_COLUMNS.join(",") + "\r\n",
    ]);
  });
});

import { eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { rowsOf, type Db } from "@/db/client";
import { system, type UserActor } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import { judgmentOf, makeAnnotators, makeCampaign } from "@/test/campaign-factory";
import { describeEachDatabase, unique } from "@/test/databases";
import { exportedLines } from "@/test/exported";
import { idsOfTask } from "@/test/claims";
import { changeBatchStatus } from "../batches";
import { campaigns } from "@/db/schema";
import { recountPassages } from "../quality/recount.internal";
import { pauseAnnotator } from "../quality/standings";
import { exportJudgments } from "../report/export-judgments";
import { getQuestionView } from "../report/question-view";
import { nextTask } from "./assignment";
import type { Task } from "./judging.contract";
import { submitJudgment } from "./judgments";
import { listMyJudgments } from "./my-judgments";
import { reviseJudgment, type RevisionInput } from "./revise-judgment";

type Counters = {
  id: number;
  judgment_count: number;
  sufficient_count: number;
  claim_count: number;
  open_slots: number;
  is_decided: boolean;
};

/** The passages' counters as kept, and as a recount from the rows gives them (rolled back). */
async function countersBothWays(db: Db, campaignId: number): Promise<{ kept: Counters[]; recount: Counters[] }> {
  const read = async (d: Db) =>
    rowsOf<Counters>(
      await d.execute(
        sql`select id::float8 as id, judgment_count, sufficient_count, claim_count, open_slots, is_decided from passages where campaign_id = ${campaignId} order by id`,
      ),
    );
  const kept = await read(db);
  let recount: Counters[] = [];
  const [campaign] = await db.select().from(campaigns).where(eq(campaigns.id, campaignId));
  await db
    .transaction(async (tx) => {
      await recountPassages(
        tx,
        campaign!,
        kept.map((p) => p.id),
      );
      recount = await read(tx as unknown as Db);
      throw new Error("rollback");
    })
    .catch((e: unknown) => {
      if (!(e instanceof Error) || e.message !== "rollback") throw e;
    });
  return { kept, recount };
}

/** The annotators' tallies (kept plus pending deltas) against the judgments' rows. */
async function annotatorTalliesBothWays(db: Db, campaignId: number) {
  const kept = rowsOf(
    await db.execute(sql`select user_id::float8 as u, duration_bucket::int as b, sum(judgments)::int as n from (
      select user_id, duration_bucket, judgments from annotator_tallies where campaign_id = ${campaignId}
      union all select user_id, duration_bucket, judgments from annotator_tally_deltas where campaign_id = ${campaignId}) x
      group by 1, 2 having sum(judgments) <> 0 order by 1, 2`),
  );
  const recount = rowsOf(
    await db.execute(
      sql`select user_id::float8 as u, kps_duration_bucket(duration_ms)::int as b, count(*)::int as n from judgments where campaign_id = ${campaignId} group by 1, 2 order by 1, 2`,
    ),
  );
  return { kept, recount };
}

async function expectCountersHold(db: Db, campaignId: number) {
  const c = await countersBothWays(db, campaignId);
  expect(c.kept).toEqual(c.recount);
  expect(c.kept.every((p) => p.judgment_count <= 3)).toBe(true);
  const a = await annotatorTalliesBothWays(db, campaignId);
  expect(a.kept).toEqual(a.recount);
}

function revisionOf(t: Task, verdict: "sufficient" | "insufficient", revision: number, extra: Partial<RevisionInput> = {}): RevisionInput {
  return { ...judgmentOf(t, verdict, 700), revision, ...extra };
}

async function isGoldTask(db: Db, t: Task): Promise<boolean> {
  const { passageId } = await idsOfTask(db, t);
  const [p] = rowsOf<{ is_gold: boolean }>(await db.execute(sql`select is_gold from passages where id = ${passageId}`));
  return p!.is_gold;
}

/** Each annotator takes the first task they get and judges it with `verdicts[i]`; all on one passage (a 1-passage campaign). */
async function judgeOnePassage(db: Db, campaignId: number, team: UserActor[], verdicts: ("sufficient" | "insufficient")[]) {
  const tasks: Task[] = [];
  for (const [i, who] of team.entries()) {
    const t = (await nextTask(db, who, { campaignId }))!;
    await submitJudgment(db, who, t.claim.handle, judgmentOf(t, verdicts[i]!));
    tasks.push(t);
  }
  return tasks;
}

async function refusal(p: Promise<unknown>): Promise<{ status: number; message: string; reason: unknown }> {
  const e = await p.then(
    () => null,
    (error: unknown) => error,
  );
  expect(e).toBeInstanceOf(AppError);
  const a = e as AppError;
  return { status: a.status, message: a.message, reason: (a.details as { reason?: unknown } | undefined)?.reason };
}

describeEachDatabase("revising a judgment", ({ db }) => {
  it("changes the passage's outcome, keeps the old version, and the question view and the export follow", async () => {
    const c = await makeCampaign(db(), { queries: 1, candidates: 0 });
    const [a, b] = await makeAnnotators(db(), 2);
    const [ta] = await judgeOnePassage(db(), c.campaignId, [a!, b!], ["insufficient", "sufficient"]);
    const timeOf = async () =>
      rowsOf<{ duration_ms: number; client_duration_ms: number }>(
        await db().execute(
          sql`select j.duration_ms, j.client_duration_ms from judgments j join claims c on c.id = j.claim_id where c.handle = ${ta!.claim.handle}`,
        ),
      )[0]!;
    const first = await timeOf();
    expect(first.client_duration_ms).toBe(1000);
    const [queryRow] = rowsOf<{ id: number }>(
      await db().execute(sql`select id::float8 as id from queries where campaign_id = ${c.campaignId}`),
    );
    const before = await getQuestionView(db(), system, c.campaignId, queryRow!.id);
    expect(before.passages[0]!.endorsed).toBe(false);

    const body = revisionOf(ta!, "sufficient", 0, { comment: "On second reading: 𐌅 it does say so.", flags: ["broken_text"] });
    const { judgment, replayed } = await reviseJudgment(db(), a!, ta!.claim.handle, body);
    expect(replayed).toBe(false);
    expect(judgment).toMatchObject({
      claim: ta!.claim.handle,
      verdict: "sufficient",
      revision: 1,
      comment: body.comment,
      flags: ["broken_text"],
    });
    // The time the server measured for the first submission stays; the client's hint adds the revision's.
    expect(judgment.durationMs).toBe(first.duration_ms);
    expect(await timeOf()).toEqual({ duration_ms: first.duration_ms, client_duration_ms: 1000 + 700 });

    const after = await getQuestionView(db(), system, c.campaignId, queryRow!.id);
    expect(after.passages[0]).toMatchObject({ sufficientCount: 2, endorsed: true });
    expect(after.passages[0]!.judgments.find((j) => j.verdict === "sufficient" && j.comment)).toMatchObject({
      comment: body.comment,
      flags: ["broken_text"],
      revision: 1,
    });
    await expectCountersHold(db(), c.campaignId);

    const lines = (await exportedLines(exportJudgments(db(), system, c.campaignId))).map((l) => JSON.parse(l) as Record<string, unknown>);
    const revised = lines.find((l) => l.revision === 1)!;
    expect(revised).toMatchObject({ verdict: "sufficient", comment: body.comment, flags: ["broken_text"] });
    expect(typeof revised.revised_at).toBe("string");
    expect(revised.versions).toEqual([
      expect.objectContaining({
        revision: 0,
        verdict: "insufficient",
        span: null,
        comment: null,
        flags: [],
        duration_ms: first.duration_ms,
        client_duration_ms: 1000,
      }),
    ]);
    expect(lines.find((l) => l.revision === 0)).toMatchObject({ versions: [], comment: null, flags: [], revised_at: null });

    // The same key and body again: the stored answer, nothing moves; the same key with another body: a conflict.
    const again = await reviseJudgment(db(), a!, ta!.claim.handle, body);
    expect(again).toMatchObject({ replayed: true, judgment: { revision: 1, verdict: "sufficient" } });
    expect((await refusal(reviseJudgment(db(), a!, ta!.claim.handle, { ...body, comment: "other" }))).status).toBe(409);
    // An older revision's client (revision 0) is refused rather than overwriting revision 1.
    expect(await refusal(reviseJudgment(db(), a!, ta!.claim.handle, revisionOf(ta!, "insufficient", 0)))).toMatchObject({
      status: 409,
      reason: "stale",
    });
    // Someone else's claim handle: not theirs to revise.
    expect((await refusal(reviseJudgment(db(), b!, ta!.claim.handle, revisionOf(ta!, "insufficient", 1)))).status).toBe(404);

    // The history lists it, newest first, without gold or others' work.
    const mine = await listMyJudgments(db(), a!, c.campaignId, { limit: 20 });
    expect(mine.rows).toHaveLength(1);
    expect(mine.rows[0]).toMatchObject({ claim: ta!.claim.handle, verdict: "sufficient", revision: 1, locked: null });
    expect(JSON.stringify(mine)).not.toMatch(/gold|is_gold|sufficient_count|judgment_count/i);
  });

  it("applies early stop: a revision that endorses closes the passage, whose judgments then no longer change", async () => {
    const c = await makeCampaign(db(), { queries: 1, candidates: 0, settings: { earlyStop: true } });
    const [a, b] = await makeAnnotators(db(), 2);
    const [ta, tb] = await judgeOnePassage(db(), c.campaignId, [a!, b!], ["sufficient", "insufficient"]);
    await reviseJudgment(db(), b!, tb!.claim.handle, revisionOf(tb!, "sufficient", 0));
    const [p] = rowsOf<Counters>(await db().execute(sql`select * from passages where campaign_id = ${c.campaignId}`));
    expect(p).toMatchObject({ is_decided: true, open_slots: 0, sufficient_count: 2, judgment_count: 2 });
    await expectCountersHold(db(), c.campaignId);
    expect(await refusal(reviseJudgment(db(), a!, ta!.claim.handle, revisionOf(ta!, "insufficient", 0)))).toEqual({
      status: 409,
      message: "This passage is finished: its judgments can no longer change.",
      reason: "finished",
    });
    expect((await listMyJudgments(db(), a!, c.campaignId, { limit: 5 })).rows[0]!.locked).toMatch(/finished/);
  });

  it("refuses after the passage has R judgments, when the annotator is paused, and when the batch is paused or closed", async () => {
    const full = await makeCampaign(db(), { queries: 1, candidates: 0 });
    const team = await makeAnnotators(db(), 3);
    const [t0] = await judgeOnePassage(db(), full.campaignId, team, ["sufficient", "sufficient", "insufficient"]);
    expect(await refusal(reviseJudgment(db(), team[0]!, t0!.claim.handle, revisionOf(t0!, "insufficient", 0)))).toMatchObject({
      status: 409,
      reason: "finished",
    });

    const c = await makeCampaign(db(), { queries: 1, candidates: 0 });
    const [a, b] = await makeAnnotators(db(), 2);
    const [ta, tb] = await judgeOnePassage(db(), c.campaignId, [a!, b!], ["sufficient", "insufficient"]);
    await pauseAnnotator(db(), system, c.campaignId, a!.id);
    expect(await refusal(reviseJudgment(db(), a!, ta!.claim.handle, revisionOf(ta!, "insufficient", 0)))).toMatchObject({
      status: 409,
      reason: "paused",
    });
    await changeBatchStatus(db(), system, c.batchId, "pause");
    expect(await refusal(reviseJudgment(db(), b!, tb!.claim.handle, revisionOf(tb!, "sufficient", 0)))).toMatchObject({
      status: 409,
      reason: "batch_paused",
    });
    await changeBatchStatus(db(), system, c.batchId, "close");
    const closed = await refusal(reviseJudgment(db(), b!, tb!.claim.handle, revisionOf(tb!, "sufficient", 0)));
    expect(closed).toMatchObject({
      status: 409,
      reason: "closed",
      message: "This passage's batch is closed: its judgments can no longer change.",
    });
    const [j] = rowsOf<{ revision: number; verdict: string }>(
      await db().execute(sql`select revision, verdict::text as verdict from judgments where user_id = ${b!.id}`),
    );
    expect(j).toEqual({ revision: 0, verdict: "insufficient" });
    expect(rowsOf(await db().execute(sql`select 1 from judgment_versions where campaign_id = ${c.campaignId}`))).toHaveLength(0);
  });

  it("takes one of several concurrent revisions of one judgment, beside submissions on its passage; the counters hold", async () => {
    const c = await makeCampaign(db(), { queries: 1, candidates: 0 });
    const [a, b] = await makeAnnotators(db(), 2);
    const [ta] = await judgeOnePassage(db(), c.campaignId, [a!], ["insufficient"]);
    const tb = (await nextTask(db(), b!, { campaignId: c.campaignId }))!;
    const results = await Promise.allSettled([
      ...Array.from({ length: 6 }, (_, i) =>
        reviseJudgment(
          db(),
          a!,
          ta!.claim.handle,
          revisionOf(ta!, i % 2 ? "insufficient" : "sufficient", 0, { idempotencyKey: unique(`r${i}`) }),
        ),
      ),
      submitJudgment(db(), b!, tb.claim.handle, judgmentOf(tb, "sufficient")),
    ]);
    const revisions = results.slice(0, 6);
    expect(revisions.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of revisions) if (r.status === "rejected") expect(r.reason).toMatchObject({ status: 409 });
    expect(results.slice(6).every((r) => r.status === "fulfilled")).toBe(true);
    const [j] = rowsOf<{ revision: number }>(await db().execute(sql`select revision from judgments where user_id = ${a!.id}`));
    expect(j!.revision).toBe(1);
    expect(
      rowsOf(
        await db().execute(sql`select 1 from judgment_versions v join judgments j on j.id = v.judgment_id where j.user_id = ${a!.id}`),
      ),
    ).toHaveLength(1);
    await expectCountersHold(db(), c.campaignId);
  });

  it("moves the annotator's gold score with the revision and pauses them by the gold rule as a new judgment would", async () => {
    const c = await makeCampaign(db(), { queries: 1, candidates: 1, settings: { goldMinJudgments: 1, goldAccuracyThreshold: 0.5 } });
    const [a] = await makeAnnotators(db(), 1);
    let gold: Task | null = null;
    for (let t = await nextTask(db(), a!, { campaignId: c.campaignId }); t; t = await nextTask(db(), a!, { campaignId: c.campaignId })) {
      await submitJudgment(db(), a!, t.claim.handle, judgmentOf(t, "sufficient")); // gold expects sufficient: correct
      if (await isGoldTask(db(), t)) gold = t;
    }
    const standing = async () =>
      rowsOf<{ gold_judged: number; gold_correct: number; status: string; pause_reason: string | null }>(
        await db().execute(
          sql`select gold_judged, gold_correct, status::text as status, pause_reason::text as pause_reason from annotator_standings where campaign_id = ${c.campaignId} and user_id = ${a!.id}`,
        ),
      )[0];
    expect(await standing()).toMatchObject({ gold_judged: 1, gold_correct: 1, status: "active" });
    const { judgment } = await reviseJudgment(db(), a!, gold!.claim.handle, revisionOf(gold!, "insufficient", 0));
    expect(judgment.revision).toBe(1);
    // (0.5 + 0) / (1 + 1) = 0.25 < 0.5 after 1 gold judgment: paused, as a wrong first judgment would have been.
    expect(await standing()).toMatchObject({ gold_judged: 1, gold_correct: 0, status: "paused", pause_reason: "gold_rule" });
    await expectCountersHold(db(), c.campaignId);
  });
});

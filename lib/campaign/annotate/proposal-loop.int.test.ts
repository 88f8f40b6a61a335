import { and, eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { rowsOf, type Db } from "@/db/client";
import { passages, users } from "@/db/schema";
import { system, type UserActor } from "@/lib/auth/actor";
import { makeAnnotators, makeCampaign, type TestCampaign } from "@/test/campaign-factory";
import { failure, judgeAll, proposalOf } from "@/test/ask";
import { describeEachDatabase, unique } from "@/test/databases";
import { exportedLines } from "@/test/exported";
import { setCampaignMembers } from "../campaigns";
import { getDashboard } from "../report/dashboard";
import { exportJudgments } from "../report/export-judgments";
import { exportKilt } from "../report/export-kilt";
import { getQuestionView } from "../report/question-view";
import { nextTask } from "./assignment";
import { listMyJudgments } from "./my-judgments";
import { proposePassage } from "./proposals";
import { reviseJudgment } from "./revise-judgment";

/** One question (gold expected not sufficient, one candidate) worked by exactly `team` annotators, the members of the campaign. */
async function teamCampaign(db: Db, team: number, settings: Record<string, unknown>): Promise<{ c: TestCampaign; people: UserActor[] }> {
  const c = await makeCampaign(db, { queries: 1, candidates: 1, settings: { goldMinJudgments: 10_000, ...settings } });
  const people = await makeAnnotators(db, team);
  await setCampaignMembers(db, system, c.campaignId, { allAnnotators: false, userIds: people.map((p) => p.id) });
  // Gold expected not sufficient: the question stays answerable (a sufficient gold left unendorsed would leave it out of the export).
  await db.execute(sql`update passages set expected_verdict = 'insufficient' where campaign_id = ${c.campaignId} and is_gold`);
  return { c, people };
}

const proposedPassage = async (db: Db, c: TestCampaign) =>
  (
    await db
      .select()
      .from(passages)
      .where(and(eq(passages.campaignId, c.campaignId), eq(passages.startParagraphId, 3)))
  )[0]!;

const pseudonymOf = async (db: Db, id: number) => (await db.select({ p: users.pseudonym }).from(users).where(eq(users.id, id)))[0]!.p;

describeEachDatabase("a proposal's judges", ({ db }) => {
  it("with exactly R annotators a proposal finishes: its proposer's highlight is the first sufficient judgment, R − 1 others judge it", async () => {
    const { c, people } = await teamCampaign(db(), 3, { judgmentsPerPassage: 3, endorsementThreshold: 2 });
    const [a, b, d] = people as [UserActor, UserActor, UserActor];
    await judgeAll(db(), a, c.campaignId);
    expect(await proposePassage(db(), a, c.campaignId, proposalOf(c, 0))).toEqual({ merged: false });
    expect(await proposedPassage(db(), c)).toMatchObject({ judgmentCount: 1, sufficientCount: 1, openSlots: 2, claimCount: 0 });
    expect((await getDashboard(db(), system, c.campaignId)).unfillable).toEqual({ slots: 0, passages: 0, eligible: 3 });

    await judgeAll(db(), b, c.campaignId, () => "sufficient");
    await judgeAll(db(), d, c.campaignId);
    const p = await proposedPassage(db(), c);
    expect(p).toMatchObject({ judgmentCount: 3, sufficientCount: 2, openSlots: 0, claimCount: 0 });
    for (const x of people) expect(await nextTask(db(), x, { campaignId: c.campaignId })).toBeNull();

    const dashboard = await getDashboard(db(), system, c.campaignId);
    expect(dashboard.totals).toMatchObject({ passages: 3, finishedPassages: 3, open: 0, filled: 9 });
    expect(dashboard.unfillable).toEqual({ slots: 0, passages: 0, eligible: 3 });
    const view = await getQuestionView(db(), system, c.campaignId, p.queryId);
    expect(view.passages.find((x) => x.startParagraphId === 3)).toMatchObject({ endorsed: true, finished: true });

    // The KILT export carries the proposal with the consensus of its two sufficient highlights (the proposer's among them).
    const [line] = (await exportedLines(exportKilt(db(), system, c.campaignId, { location: "span" }))).map((l) => JSON.parse(l));
    const provenance = line.output.flatMap((o: { provenance?: { meta?: unknown }[] }) => o.provenance ?? []);
    // The question's original provenance has no meta; the campaign's endorsed passages do.
    expect(provenance.filter((x: { meta?: unknown }) => x.meta)).toEqual([
      expect.objectContaining({
        start_paragraph_id: 3,
        start_character: 0,
        end_paragraph_id: 3,
        end_character: 9,
        meta: expect.objectContaining({ evidence_span: ["Paragraph", "Paragraph"], votes: { sufficient: 2, insufficient: 1 } }),
      }),
    ]);

    // The judgments export: the proposer's highlight is a counted judgment of the passage, beside its proposal line.
    const lines = (await exportedLines(exportJudgments(db(), system, c.campaignId))).map((l) => JSON.parse(l));
    const onIt = lines.filter((l) => l.verdict && l.passage_id === p.id);
    expect(onIt.map((l) => [l.annotator, l.verdict, l.counted])).toEqual([
      [await pseudonymOf(db(), a.id), "sufficient", true],
      [await pseudonymOf(db(), b.id), "sufficient", true],
      [await pseudonymOf(db(), d.id), "insufficient", true],
    ]);
    expect(onIt[0].span).toMatchObject({ start_paragraph_id: 3, text: "Paragraph" });
    expect(lines.filter((l) => l.proposal).map((l) => l.passage_id)).toEqual([p.id]);
  });

  it("a proposer never judges their proposal again, nor endorses it alone: R − 1 others saying not sufficient leave it unendorsed", async () => {
    const { c, people } = await teamCampaign(db(), 3, { judgmentsPerPassage: 3, endorsementThreshold: 2 });
    const [a, b, d] = people as [UserActor, UserActor, UserActor];
    await judgeAll(db(), a, c.campaignId);
    await proposePassage(db(), a, c.campaignId, proposalOf(c, 0));
    // Never handed to its proposer, and their highlight cannot be revised (history or undo): it stands as proposed.
    expect(await nextTask(db(), a, { campaignId: c.campaignId })).toBeNull();
    const [mine] = (await listMyJudgments(db(), a, c.campaignId, { limit: 1 })).rows;
    expect(mine).toMatchObject({ verdict: "sufficient", span: { text: "Paragraph" }, locked: expect.stringContaining("You proposed") });
    const revision = { verdict: "insufficient" as const, span: null, unreadable: false, durationMs: 1000, idempotencyKey: unique("k") };
    expect(await failure(reviseJudgment(db(), a, mine!.claim, { ...revision, revision: 0 }))).toBe("409");
    expect(await failure(reviseJudgment(db(), a, mine!.claim, { ...revision, verdict: "sufficient", span: mine!.span, revision: 0 }))).toBe(
      "409",
    );

    await judgeAll(db(), b, c.campaignId);
    await judgeAll(db(), d, c.campaignId);
    const p = await proposedPassage(db(), c);
    expect(p).toMatchObject({ judgmentCount: 3, sufficientCount: 1, openSlots: 0 });
    const judges = rowsOf<{ user_id: number }>(
      await db().execute(sql`select user_id::float8 as user_id from judgments where passage_id = ${p.id} order by id`),
    );
    expect(judges.map((j) => j.user_id)).toEqual([a.id, b.id, d.id]);
    const view = await getQuestionView(db(), system, c.campaignId, p.queryId);
    expect(view.passages.find((x) => x.startParagraphId === 3)).toMatchObject({ endorsed: false, finished: true });
    expect(await exportedLines(exportKilt(db(), system, c.campaignId, { location: "span" }))).toEqual([]);
  });

  it("with early stop, one other sufficient verdict decides a proposal; with T = 1 it waits for R others, and the dashboard names the slots nobody can fill", async () => {
    const early = await teamCampaign(db(), 3, { judgmentsPerPassage: 3, endorsementThreshold: 2, earlyStop: true });
    const [a, b, d] = early.people as [UserActor, UserActor, UserActor];
    await judgeAll(db(), a, early.c.campaignId);
    await proposePassage(db(), a, early.c.campaignId, proposalOf(early.c, 0));
    await judgeAll(db(), b, early.c.campaignId, () => "sufficient");
    expect(await proposedPassage(db(), early.c)).toMatchObject({ judgmentCount: 2, sufficientCount: 2, isDecided: true, openSlots: 0 });
    await judgeAll(db(), d, early.c.campaignId);
    expect(await proposedPassage(db(), early.c)).toMatchObject({ judgmentCount: 2 });

    // T = 1: one sufficient verdict endorses, so the proposer's own does not count: R judges besides them.
    const one = await teamCampaign(db(), 2, { judgmentsPerPassage: 2, endorsementThreshold: 1 });
    const [x, y] = one.people as [UserActor, UserActor];
    await judgeAll(db(), x, one.c.campaignId);
    await proposePassage(db(), x, one.c.campaignId, proposalOf(one.c, 0));
    expect(await proposedPassage(db(), one.c)).toMatchObject({ judgmentCount: 0, sufficientCount: 0, openSlots: 2 });
    await judgeAll(db(), y, one.c.campaignId);
    expect(await proposedPassage(db(), one.c)).toMatchObject({ judgmentCount: 1, openSlots: 1 });
    expect((await getDashboard(db(), system, one.c.campaignId)).unfillable).toEqual({ slots: 1, passages: 1, eligible: 2 });
    // Another annotator joins: the slot can be filled again.
    const [z] = await makeAnnotators(db(), 1);
    await setCampaignMembers(db(), system, one.c.campaignId, { allAnnotators: false, userIds: [x.id, y.id, z!.id] });
    expect((await getDashboard(db(), system, one.c.campaignId)).unfillable).toEqual({ slots: 0, passages: 0, eligible: 3 });
  });

  it("the dashboard counts slots nobody can fill both when fewer people than R are eligible and when the few left all claimed the passage", async () => {
    const { c, people } = await teamCampaign(db(), 2, { judgmentsPerPassage: 3, endorsementThreshold: 2 });
    // Two people for R = 3: one slot of each passage (the gold and the candidate) is short before anyone starts.
    expect((await getDashboard(db(), system, c.campaignId)).unfillable).toEqual({ slots: 2, passages: 2, eligible: 2 });
    for (const x of people) await judgeAll(db(), x, c.campaignId);
    // Both judged both: one open slot each, and both eligible people claimed them.
    expect((await getDashboard(db(), system, c.campaignId)).unfillable).toEqual({ slots: 2, passages: 2, eligible: 2 });
    const [z] = await makeAnnotators(db(), 1);
    await setCampaignMembers(db(), system, c.campaignId, { allAnnotators: false, userIds: [...people.map((p) => p.id), z!.id] });
    expect((await getDashboard(db(), system, c.campaignId)).unfillable).toEqual({ slots: 0, passages: 0, eligible: 3 });
  });
});

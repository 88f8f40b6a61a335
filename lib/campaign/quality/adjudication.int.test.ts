import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { rowsOf, type Db } from "@/db/client";
import { system, type Actor, type UserActor } from "@/lib/auth/actor";
import { listAudit } from "@/lib/audit/audit";
import { AppError } from "@/lib/errors";
import { makeAnnotators, makeCampaign, type TestCampaign } from "@/test/campaign-factory";
import { describeEachDatabase, unique } from "@/test/databases";
import { expectValidKiltFile } from "@/test/kilt-checks";
import { makeUser } from "@/test/runs";
import { nextTask } from "../annotate/assignment";
import { submitJudgment } from "../annotate/judgments";
import { changeBatchStatus } from "../batches";
import { exportKilt, type ExportReport } from "../report/export-kilt";
import { listQuestions } from "../report/question-list";
import { getLeaderboard } from "../runs/leaderboard";
import { getQuestionView } from "../report/question-view";
import { adjudicatePassage, listAdjudications, revertAdjudication } from "./adjudication";
import { waitingCounts } from "./adjudication-waiting";

/** Verdicts by (question index, paragraph of the passage, annotator index). */
type Plan = (question: number, paragraph: number, who: number) => "sufficient" | "insufficient";

/** Every annotator judges every passage by the plan; a sufficient verdict highlights the paragraph's first four words. */
async function judgeAll(db: Db, c: TestCampaign, annotators: UserActor[], plan: Plan) {
  for (const [who, a] of annotators.entries()) {
    for (let t = await nextTask(db, a, { campaignId: c.campaignId }); t; t = await nextTask(db, a, { campaignId: c.campaignId })) {
      const p = t.passage.paragraphs[0]!;
      const verdict = plan(c.queryIds.indexOf(t.query.id), p.id, who);
      const text = p.text.split(" ").slice(0, 4).join(" ");
      await submitJudgment(db, a, t.claim.handle, {
        verdict,
        span:
          verdict === "sufficient"
            ? { startParagraphId: p.id, startCharacter: 0, endParagraphId: p.id, endCharacter: Array.from(text).length, text }
            : null,
        unreadable: false,
        durationMs: 2000,
        idempotencyKey: unique("k"),
      });
    }
  }
}

async function exportOf(db: Db, campaignId: number) {
  let report: ExportReport | undefined;
  let text = "";
  for await (const line of exportKilt(db, system, campaignId, { location: "span" }, (r) => (report = r))) text += line;
  const rows = text ? expectValidKiltFile(text) : [];
  type Item = {
    start_paragraph_id: number;
    start_character: number;
    end_character: number;
    meta: { adjudicated_by?: { username: string; reason: string } };
  };
  const byId = new Map(rows.map((r) => [r.id as string, (r.output as { provenance?: Item[] }[]).slice(1).map((o) => o.provenance![0]!)]));
  return { text, report: report!, byId };
}

/** The id of question `q`'s passage at `paragraph` (1: its gold; 2, 3: its candidates). */
async function passageAt(db: Db, c: TestCampaign, q: number, paragraph: number): Promise<number> {
  const [row] = rowsOf<{ id: number }>(
    await db.execute(sql`select p.id from passages p join queries q on q.id = p.query_id
      where q.campaign_id = ${c.campaignId} and q.kilt_id = ${c.queryIds[q]!} and p.start_paragraph_id = ${paragraph}`),
  );
  return Number(row!.id);
}

async function queryIdOf(db: Db, c: TestCampaign, q: number): Promise<number> {
  const [row] = rowsOf<{ id: number }>(
    await db.execute(sql`select id from queries where campaign_id = ${c.campaignId} and kilt_id = ${c.queryIds[q]!}`),
  );
  return Number(row!.id);
}

async function auditOf(db: Db, coordinator: UserActor, passageId: number) {
  // The newest 500, oldest first: on a shared PostgreSQL database the oldest 500 are other tests'.
  const { entries } = await listAudit(db, coordinator, { order: "desc", limit: 500 });
  return entries.filter((e) => e.targetType === "passage" && e.targetId === String(passageId)).reverse();
}

const error = async (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => (e instanceof AppError ? { code: e.code, message: e.message } : { code: "other", message: String(e) }),
  );

describeEachDatabase("adjudication", ({ db }) => {
  it("overrides the vote in the export both ways, replaces a live decision, is audited, and a revert restores the vote", async () => {
    const c = await makeCampaign(db(), { queries: 2, candidates: 2, settings: { goldAccuracyThreshold: 0 } });
    const coordinator = await makeUser(db(), "coordinator");
    // q0: gold (¶1) sufficient for all; ¶2 for two of three (endorsed, split); ¶3 for one (split, not endorsed).
    // q1: gold sufficient for two (its only endorsed passage); the rest insufficient.
    await judgeAll(db(), c, await makeAnnotators(db(), 3), (q, par, who) =>
      par === 1
        ? q === 0 || who < 2
          ? "sufficient"
          : "insufficient"
        : q === 0 && ((par === 2 && who < 2) || (par === 3 && who === 0))
          ? "sufficient"
          : "insufficient",
    );
    const before = await exportOf(db(), c.campaignId);
    expect(before.byId.get(c.queryIds[0]!)!.map((i) => i.start_paragraph_id)).toEqual([1, 2]);
    expect(before.byId.get(c.queryIds[1]!)!.map((i) => i.start_paragraph_id)).toEqual([1]);
    expect(before.report.withoutEndorsement).toBe(0);

    const [p2, p3, q1Gold] = [await passageAt(db(), c, 0, 2), await passageAt(db(), c, 0, 3), await passageAt(db(), c, 1, 1)];
    // Reject what the vote endorsed; endorse what it did not, with a span of the coordinator's own.
    await adjudicatePassage(db(), coordinator, c.campaignId, p2, { decision: "reject", reason: "  Names the wrong harbour.  " });
    const pageText = "Paragraph 3 of Page " + c.pageIds[0] + " tells a plain story about harbours.\n";
    const start = Array.from(pageText).length - Array.from("harbours.\n").length;
    const span = { startParagraphId: 3, startCharacter: start, endParagraphId: 3, endCharacter: start + 8, text: "harbours" };
    const endorsed = await adjudicatePassage(db(), coordinator, c.campaignId, p3, {
      decision: "endorse",
      span,
      reason: "The story is the evidence.",
    });
    expect(endorsed).toMatchObject({
      decision: "endorse",
      span,
      reason: "The story is the evidence.",
      by: { id: coordinator.id, username: coordinator.username },
      revertedAt: null,
    });
    await adjudicatePassage(db(), coordinator, c.campaignId, q1Gold, { decision: "reject", reason: "Gold is wrong here." });

    const after = await exportOf(db(), c.campaignId);
    const q0 = after.byId.get(c.queryIds[0]!)!;
    expect(q0.map((i) => i.start_paragraph_id)).toEqual([1, 3]);
    expect(q0[0]!.meta.adjudicated_by).toBeUndefined();
    expect(q0[1]).toMatchObject({ start_character: start, end_character: start + 8 });
    expect(q0[1]!.meta.adjudicated_by).toMatchObject({ username: coordinator.username, reason: "The story is the evidence." });
    // q1's only endorsed passage was rejected: not exported, counted as without endorsement (not unanswerable).
    expect(after.byId.has(c.queryIds[1]!)).toBe(false);
    expect(after.report).toMatchObject({ queriesExported: 1, passagesEndorsed: 2, withoutEndorsement: 1, unanswerable: [] });
    // The leaderboard's endorsed gold is the export's: q1 has left it.
    const board = await getLeaderboard(db(), coordinator, { campaignId: c.campaignId, level: "page", ks: [1] });
    expect(board.golds.endorsed.questions).toBe(1);

    // A new decision replaces the live one: endorse ¶3 with the consensus span (its one highlight).
    const replaced = await adjudicatePassage(db(), coordinator, c.campaignId, p3, {
      decision: "endorse",
      span: null,
      reason: "Consensus is fine.",
    });
    const again = (await exportOf(db(), c.campaignId)).byId.get(c.queryIds[0]!)!;
    expect(again[1]).toMatchObject({ start_paragraph_id: 3, start_character: 0 });
    expect(again[1]!.meta.adjudicated_by!.reason).toBe("Consensus is fine.");
    const history = (await listAdjudications(db(), coordinator, c.campaignId, { reverted: "1" })).filter((a) => a.passageId === p3);
    expect(history.map((a) => [a.id, a.revertedAt === null])).toEqual([
      [replaced.id, true],
      [endorsed.id, false],
    ]);
    expect(history[1]!.revertedBy).toBe(coordinator.id);
    expect(
      (await listAdjudications(db(), coordinator, c.campaignId, { queryId: await queryIdOf(db(), c, 0) })).map((a) => a.passageId).sort(),
    ).toEqual([p2, p3].sort());

    // The question view shows the live decisions.
    const view = await getQuestionView(db(), coordinator, c.campaignId, await queryIdOf(db(), c, 0));
    expect(view.passages.find((p) => p.id === p2)!.adjudication).toMatchObject({ decision: "reject", reason: "Names the wrong harbour." });
    expect(view.passages.find((p) => p.id === p3)!.adjudication).toMatchObject({ id: replaced.id, decision: "endorse", span: null });

    // Revert every decision: the export is the vote's again, byte for byte.
    for (const p of [p2, p3, q1Gold]) await revertAdjudication(db(), coordinator, c.campaignId, p);
    expect((await exportOf(db(), c.campaignId)).text).toBe(before.text);
    expect((await getLeaderboard(db(), coordinator, { campaignId: c.campaignId, level: "page", ks: [1] })).golds.endorsed.questions).toBe(
      2,
    );
    expect(await listAdjudications(db(), coordinator, c.campaignId)).toEqual([]);

    const audit = await auditOf(db(), coordinator, p3);
    expect(audit.map((e) => e.action)).toEqual(["passage.adjudicate", "passage.adjudicate", "passage.adjudication_revert"]);
    expect(audit[1]).toMatchObject({
      actorUsername: coordinator.username,
      details: { campaignId: c.campaignId, decision: "endorse", reason: "Consensus is fine.", replaced: endorsed.id },
    });
    expect(audit[2]!.details).toMatchObject({ adjudicationId: replaced.id });
  });

  it("applies to a closed batch, and settles gold the vote missed", async () => {
    const c = await makeCampaign(db(), { queries: 1, candidates: 1, settings: { goldAccuracyThreshold: 0 } });
    const coordinator = await makeUser(db(), "coordinator");
    // The gold passage gets one sufficient verdict of three: the vote misses it, the question is unanswerable.
    await judgeAll(db(), c, await makeAnnotators(db(), 3), (_q, par, who) => (par === 1 && who === 0 ? "sufficient" : "insufficient"));
    await changeBatchStatus(db(), system, c.batchId, "close");
    expect((await exportOf(db(), c.campaignId)).report.unanswerable).toEqual([c.queryIds[0]]);
    const gold = await passageAt(db(), c, 0, 1);
    await adjudicatePassage(db(), coordinator, c.campaignId, gold, { decision: "endorse", reason: "The gold holds the date." });
    const { byId, report } = await exportOf(db(), c.campaignId);
    expect(report.unanswerable).toEqual([]);
    expect(byId.get(c.queryIds[0]!)!.map((i) => [i.start_paragraph_id, i.meta.adjudicated_by?.username])).toEqual([
      [1, coordinator.username],
    ]);
    const view = await getQuestionView(db(), coordinator, c.campaignId, await queryIdOf(db(), c, 0));
    expect(view.unanswerable).toBe(false);
  });

  it("lists the questions that wait for the coordinator until each such passage has a live decision", async () => {
    const c = await makeCampaign(db(), { queries: 5, candidates: 1, settings: { goldAccuracyThreshold: 0 } });
    const coordinator = await makeUser(db(), "coordinator");
    const team = await makeAnnotators(db(), 3);
    // A decoy (negative gold) on q2's candidate ¶2, made as decoys are: gold expected insufficient.
    const decoy = await passageAt(db(), c, 2, 2);
    await db().execute(
      sql`update passages set is_decoy = true, is_gold = true, expected_verdict = 'insufficient', origins = '[{"kind":"decoy"}]'::jsonb where id = ${decoy}`,
    );
    // q0: ¶2 split (2 of 3). q1: gold missed (0 of 3). q2: the decoy judged sufficient by 3 (suspect). q3: explained. q4: all clear.
    await judgeAll(db(), c, team, (q, par, who) => {
      if (par === 1) return q === 1 ? "insufficient" : "sufficient";
      if (q === 0) return who < 2 ? "sufficient" : "insufficient";
      return q === 2 ? "sufficient" : "insufficient";
    });
    const q3 = await queryIdOf(db(), c, 3);
    await db().execute(
      sql`insert into explanations (query_id, campaign_id, user_id, reason, text) values (${q3}, ${c.campaignId}, ${team[0]!.id}, 'ambiguous', 'two harbours')`,
    );

    expect(await waitingCounts(db(), c.campaignId)).toEqual({ any: 4, split: 1, explained: 1, decoy: 1, gold: 1 });
    const listed = async (show: "waiting" | "waiting-split" | "waiting-explained" | "waiting-decoy" | "waiting-gold") =>
      (await listQuestions(db(), coordinator, c.campaignId, { show, limit: 50 })).questions.map((q) => q.kiltId);
    expect(await listed("waiting")).toEqual(c.queryIds.slice(0, 4));
    expect(await listed("waiting-split")).toEqual([c.queryIds[0]]);
    expect(await listed("waiting-gold")).toEqual([c.queryIds[1]]);
    expect(await listed("waiting-decoy")).toEqual([c.queryIds[2]]);
    expect(await listed("waiting-explained")).toEqual([c.queryIds[3]]);
    expect((await listQuestions(db(), coordinator, c.campaignId, { show: "all", limit: 50 })).counts).toMatchObject({
      waiting: 4,
      "waiting-decoy": 1,
    });

    // One live decision on each such passage (an endorse settles an explained question); a revert makes it wait again.
    await adjudicatePassage(db(), coordinator, c.campaignId, await passageAt(db(), c, 0, 2), { decision: "reject", reason: "Off topic." });
    await adjudicatePassage(db(), coordinator, c.campaignId, await passageAt(db(), c, 1, 1), {
      decision: "reject",
      reason: "The gold is wrong.",
    });
    const decided = await adjudicatePassage(db(), coordinator, c.campaignId, decoy, {
      decision: "endorse",
      reason: "This decoy does hold it.",
    });
    await adjudicatePassage(db(), coordinator, c.campaignId, await passageAt(db(), c, 3, 1), {
      decision: "endorse",
      reason: "Answers it after all.",
    });
    expect(await waitingCounts(db(), c.campaignId)).toEqual({ any: 0, split: 0, explained: 0, decoy: 0, gold: 0 });
    await revertAdjudication(db(), coordinator, c.campaignId, decoy);
    expect(await listed("waiting")).toEqual([c.queryIds[2]]);
    expect(decided.decision).toBe("endorse");
  });

  it("never exports negative gold, even when the coordinator endorses it", async () => {
    const c = await makeCampaign(db(), { queries: 1, candidates: 1, settings: { goldAccuracyThreshold: 0 } });
    const coordinator = await makeUser(db(), "coordinator");
    const negative = await passageAt(db(), c, 0, 2);
    await db().execute(sql`update passages set is_gold = true, expected_verdict = 'insufficient' where id = ${negative}`);
    await judgeAll(db(), c, await makeAnnotators(db(), 3), (_q, par, who) => (par === 1 || who === 0 ? "sufficient" : "insufficient"));
    await adjudicatePassage(db(), coordinator, c.campaignId, negative, { decision: "endorse", reason: "Looks right to me." });
    expect((await exportOf(db(), c.campaignId)).byId.get(c.queryIds[0]!)!.map((i) => i.start_paragraph_id)).toEqual([1]);
  });

  it("refuses hostile input: bad spans, empty or long reasons, a reject with a span, another campaign's passage, annotators", async () => {
    const c = await makeCampaign(db(), { queries: 1, candidates: 1, settings: { goldAccuracyThreshold: 0 } });
    const other = await makeCampaign(db(), { queries: 1, candidates: 1 });
    const coordinator = await makeUser(db(), "coordinator");
    const annotator = (await makeAnnotators(db(), 1))[0]!;
    const gold = await passageAt(db(), c, 0, 1);
    const span = (
      s: Partial<{ startParagraphId: number; startCharacter: number; endParagraphId: number; endCharacter: number; text: string }>,
    ) => ({
      startParagraphId: 1,
      startCharacter: 0,
      endParagraphId: 1,
      endCharacter: 9,
      text: "Paragraph",
      ...s,
    });
    // Each attempt is made when its turn comes (a promise made early would reject unhandled).
    const adjudicating =
      (body: Record<string, unknown>, who: Actor = coordinator, campaignId = c.campaignId) =>
      () =>
        adjudicatePassage(db(), who, campaignId, gold, body);
    // An endorsement whose span is changed from a good one by `s`.
    const endorsingWith = (s: Parameters<typeof span>[0]) => adjudicating({ decision: "endorse", span: span(s), reason: "x" });
    const tries: [string, () => Promise<unknown>, string, RegExp][] = [
      ["outside the passage", endorsingWith({ startParagraphId: 2, endParagraphId: 2 }), "invalid", /span: .*outside the passage/],
      ["past the paragraph", endorsingWith({ startCharacter: 500, endCharacter: 509 }), "invalid", /character offsets/],
      ["wrong text", endorsingWith({ text: "Harbours!" }), "invalid", /span\.text/],
      ["ends before it starts", endorsingWith({ startCharacter: 9, endCharacter: 2 }), "invalid", /span\.endCharacter/],
      ["reason too long", adjudicating({ decision: "reject", reason: "x".repeat(2001) }), "invalid", /reason: must be at most 2000/],
      ["reason blank", adjudicating({ decision: "reject", reason: "   " }), "invalid", /reason: must not be empty/],
      ["reject with a span", adjudicating({ decision: "reject", span: span({}), reason: "x" }), "invalid", /span: must be null/],
      ["unknown decision", adjudicating({ decision: "maybe", reason: "x" }), "invalid", /decision: must be 'endorse' or 'reject'/],
      ["unknown field", adjudicating({ decision: "reject", reason: "x", by: "someone" }), "invalid", /by/],
      // Nobody judged it yet: no consensus span, so an endorsement must give one.
      ["endorse without a consensus", adjudicating({ decision: "endorse", reason: "x" }), "invalid", /span: is required/],
      [
        "another campaign's passage",
        adjudicating({ decision: "reject", reason: "x" }, coordinator, other.campaignId),
        "not_found",
        /No passage/,
      ],
      ["an annotator", adjudicating({ decision: "reject", reason: "x" }, annotator), "forbidden", /coordinators/],
      ["the app itself has no name", adjudicating({ decision: "reject", reason: "x" }, system), "unauthorized", /Sign in/],
      ["an annotator reverts", () => revertAdjudication(db(), annotator, c.campaignId, gold), "forbidden", /coordinators/],
      ["no live decision to revert", () => revertAdjudication(db(), coordinator, c.campaignId, gold), "not_found", /no live decision/],
    ];
    for (const [what, attempt, code, message] of tries) {
      const e = await error(attempt());
      expect(e, what).not.toBeNull();
      expect(e!.code, `${what}: ${e!.message}`).toBe(code);
      expect(e!.message, what).toMatch(message);
    }
    // An annotator cannot list them either; nothing was stored by any attempt.
    expect((await error(listAdjudications(db(), annotator, c.campaignId)))!.code).toBe("forbidden");
    expect(await listAdjudications(db(), coordinator, c.campaignId, { reverted: "1" })).toEqual([]);
    // A reason of exactly 2000 characters, and a span the passage holds, are taken.
    const ok = await adjudicatePassage(db(), coordinator, c.campaignId, gold, {
      decision: "endorse",
      span: span({}),
      reason: "y".repeat(2000),
    });
    expect(ok.span).toMatchObject({ text: "Paragraph" });
  });
});

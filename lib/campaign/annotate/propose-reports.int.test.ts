import { eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { rowsOf } from "@/db/client";
import { users } from "@/db/schema";
import { system } from "@/lib/auth/actor";
import { makeAnnotator, makeCampaign } from "@/test/campaign-factory";
import { failure, judgeAll, proposalOf } from "@/test/ask";
import { describeEachDatabase } from "@/test/databases";
import { exportedLines } from "@/test/exported";
import { getDashboard } from "../report/dashboard";
import { exportJudgments } from "../report/export-judgments";
import { exportKilt, exportReport } from "../report/export-kilt";
import { getQuestionView } from "../report/question-view";
import { getAsk } from "./ask";
import { explainQuestion, explanationInputSchema } from "./explanations";
import { proposalInputSchema, proposePassage } from "./proposals";

const pseudonymOf = async (db: Parameters<typeof getDashboard>[0], id: number) =>
  (await db.select({ p: users.pseudonym }).from(users).where(eq(users.id, id)))[0]!.p;

describeEachDatabase("propose or explain: reports and exports", ({ db }) => {
  it("an endorsed proposal is exported with its origin; explanations show in the question view, the dashboard and both exports", async () => {
    const c = await makeCampaign(db(), {
      queries: 2,
      candidates: 1,
      settings: { goldMinJudgments: 10_000, judgmentsPerPassage: 2, endorsementThreshold: 2 },
    });
    const [proposer, explainer] = [await makeAnnotator(db()), await makeAnnotator(db())];
    const before = await exportedLines(exportJudgments(db(), system, c.campaignId));
    // Gold that expects "not sufficient": a sufficient gold passage left unendorsed would make the question unanswerable, left out of the export.
    await db().execute(sql`update passages set expected_verdict = 'insufficient' where campaign_id = ${c.campaignId} and is_gold`);
    await judgeAll(db(), proposer, c.campaignId);
    await judgeAll(db(), explainer, c.campaignId);
    // Both questions owe a response from each, the most recent first: the explainer explains theirs, the proposer proposes for both.
    const text = 'Astral 𐌅 and "quotes"\nnew line';
    const explained = (await getAsk(db(), explainer, c.campaignId))!.queryId;
    const other = c.queryIds.find((q) => q !== explained)!;
    await explainQuestion(db(), explainer, c.campaignId, { queryId: explained, reason: "other", text });
    for (let i = 0; i < 2; i++) {
      const ask = await getAsk(db(), proposer, c.campaignId);
      await proposePassage(db(), proposer, c.campaignId, proposalOf(c, c.queryIds.indexOf(ask!.queryId)));
    }
    expect(await getAsk(db(), proposer, c.campaignId)).toBeNull();
    // The other question has a proposed passage left for the explainer now: nothing is asked of them.
    expect(await getAsk(db(), explainer, c.campaignId)).toBeNull();
    expect(await failure(explainQuestion(db(), explainer, c.campaignId, { queryId: other, reason: "ambiguous", text: "" }))).toBe("409");
    // Two others endorse everything left, the proposals included.
    for (const o of [await makeAnnotator(db()), await makeAnnotator(db())]) await judgeAll(db(), o, c.campaignId, () => "sufficient");

    const [proposerName, explainerName] = [await pseudonymOf(db(), proposer.id), await pseudonymOf(db(), explainer.id)];
    const kilt = (await exportedLines(exportKilt(db(), system, c.campaignId, { location: "span" }))).map((l) => JSON.parse(l));
    const items = kilt.flatMap((q) =>
      q.output.flatMap((o: { provenance?: { start_paragraph_id: number; meta?: Record<string, unknown> }[] }) => o.provenance ?? []),
    );
    const proposed = items.filter((p) => p.meta?.origins);
    expect(proposed).toHaveLength(2);
    for (const p of proposed) {
      expect(p.meta!.origins).toEqual([{ kind: "annotator", annotator: proposerName }]);
      expect(p.start_paragraph_id).toBe(3);
      expect(p.meta!.passage).toEqual({ start_paragraph_id: 3, end_paragraph_id: 3 });
    }
    // Only the proposals were endorsed (imported passages keep their meta as before: export-kilt.int.test.ts).
    expect(items.filter((p) => p.meta)).toHaveLength(2);

    // The coordinators' views name annotator accounts by username (the exported files: by pseudonym).
    const [proposerUsername, explainerUsername] = [proposer.username, explainer.username];
    const report = await exportReport(db(), system, c.campaignId, { location: "span" });
    expect(report.explained).toEqual([
      { queryId: explained, explanations: [{ reason: "other", text, annotator: explainerUsername, createdAt: expect.any(String) }] },
    ]);

    const qid = rowsOf<{ id: number }>(
      await db().execute(sql`select id::float8 as id from queries where campaign_id = ${c.campaignId} and kilt_id = ${explained!}`),
    )[0]!.id;
    const view = await getQuestionView(db(), system, c.campaignId, qid);
    expect(view.explanations).toEqual([{ reason: "other", text, annotator: explainerUsername, createdAt: expect.any(String) }]);
    expect(view.passages.map((p) => p.proposedBy)).toEqual([[], [], [proposerUsername]]);
    expect(view.passages[2]).toMatchObject({ endorsed: true, startParagraphId: 3 });

    const dashboard = await getDashboard(db(), system, c.campaignId);
    expect(dashboard.responses).toEqual({ questionsWithExplanations: 1, proposals: 2 });

    const lines = await exportedLines(exportJudgments(db(), system, c.campaignId));
    expect(before).toEqual([]);
    const parsed = lines.map((l) => JSON.parse(l));
    const explanationLines = parsed.filter((l) => l.explanation);
    expect(explanationLines).toEqual([
      {
        query_id: explained,
        annotator: explainerName,
        explanation: { reason: "other", text },
        batch_id: c.batchId,
        created_at: expect.stringMatching(/Z$/),
      },
    ]);
    const proposalLines = parsed.filter((l) => l.proposal);
    expect(proposalLines).toHaveLength(2);
    expect(proposalLines[0]).toMatchObject({
      annotator: proposerName,
      start_paragraph_id: 3,
      proposal: { span: { start_paragraph_id: 3, start_character: 0, end_paragraph_id: 3, end_character: 9, text: "Paragraph" } },
    });
    // The judgment lines come first, all of them.
    expect(parsed.slice(0, parsed.length - 3).every((l) => "verdict" in l)).toBe(true);
    expect(lines.at(-1)!.endsWith("\n")).toBe(true);
  });

  it("refuses a bad proposal with 422 naming the field: wrong text, outside the range, beyond the page, unknown page or question", async () => {
    const c = await makeCampaign(db(), { queries: 1, candidates: 1, settings: { goldMinJudgments: 10_000 } });
    const a = await makeAnnotator(db());
    await judgeAll(db(), a, c.campaignId);
    const base = proposalOf(c, 0);
    const propose = (change: Record<string, unknown>) =>
      failure(proposePassage(db(), a, c.campaignId, proposalInputSchema.parse({ ...base, ...change })));
    expect(await propose({ span: { ...base.span, text: "Paragrapx" } })).toBe("422 span.text");
    expect(await propose({ span: { ...base.span, startParagraphId: 2, endParagraphId: 2 } })).toBe("422 span");
    expect(await propose({ span: { ...base.span, endCharacter: 900, text: "Paragraph" } })).toBe("422 span");
    expect(await propose({ startParagraphId: 3, endParagraphId: 4 })).toBe("422 endParagraphId");
    expect(await propose({ wikipediaId: "no-such-page" })).toBe("422 wikipediaId");
    expect(await propose({ queryId: "no-such-question" })).toBe("422 queryId");
    // Code points: paragraph 2 reads "The 𐌅𐌄𐌋 inscription …"; the three astral letters are offsets 4–7.
    const astral = {
      startParagraphId: 2,
      endParagraphId: 2,
      span: { startParagraphId: 2, startCharacter: 4, endParagraphId: 2, endCharacter: 7, text: "𐌅𐌄𐌋" },
    };
    // Paragraph 2 is the candidate the annotator judged: the location is theirs already (409), after the span was found right.
    expect(await propose(astral)).toBe("409");
    expect(await propose({ ...astral, span: { ...astral.span, endCharacter: 6 } })).toBe("422 span.text");
    expect(await propose({ startParagraphId: 2, endParagraphId: 3, span: { ...astral.span } })).toBe("ok");
  });

  it("checks a proposal's and an explanation's body: types, ranges, lengths in code points", () => {
    const ok = {
      queryId: "q",
      wikipediaId: "p",
      startParagraphId: 1,
      endParagraphId: 1,
      span: { startParagraphId: 1, startCharacter: 0, endParagraphId: 1, endCharacter: 1, text: "a" },
    };
    const fields = (
      body: unknown,
      schema: { safeParse: (b: unknown) => { success: boolean; error?: { issues: { path: PropertyKey[] }[] } } } = proposalInputSchema,
    ) => [...new Set(schema.safeParse(body).error?.issues.map((i) => i.path.join(".")) ?? [])];
    expect(fields(ok)).toEqual([]);
    expect(fields({ ...ok, startParagraphId: 0, endParagraphId: 0 })).toEqual(["startParagraphId", "endParagraphId"]);
    expect(fields({ ...ok, endParagraphId: 11 })).toEqual(["endParagraphId"]);
    expect(fields({ ...ok, startParagraphId: "1" })).toEqual(["startParagraphId"]);
    expect(fields({ ...ok, span: { ...ok.span, startCharacter: -1 } })).toEqual(["span.startCharacter"]);
    expect(fields({ ...ok, span: { ...ok.span, endCharacter: 0 } })).toEqual(["span.endCharacter"]);
    expect(fields({ ...ok, span: { ...ok.span, text: "x".repeat(100_001) } })).toEqual(["span.text"]);
    expect(fields({ ...ok, extra: 1 })).toEqual([""]);
    expect(fields({ ...ok, queryId: "" })).toEqual(["queryId"]);

    const e = { queryId: "q", reason: "other", text: "why" };
    expect(fields(e, explanationInputSchema)).toEqual([]);
    expect(fields({ ...e, text: "  " }, explanationInputSchema)).toEqual(["text"]);
    expect(fields({ ...e, reason: "bored" }, explanationInputSchema)).toEqual(["reason"]);
    expect(fields({ ...e, text: 5 }, explanationInputSchema)).toEqual(["text"]);
    // 2000 astral characters are 4000 UTF-16 units and 2000 code points: allowed; one more is not.
    expect(fields({ ...e, text: "😀".repeat(2000) }, explanationInputSchema)).toEqual([]);
    expect(fields({ ...e, text: "😀".repeat(2001) }, explanationInputSchema)).toEqual(["text"]);
    expect(fields({ ...e, text: "x".repeat(2001) }, explanationInputSchema)).toEqual(["text"]);
    expect(fields({ queryId: "q", reason: "ambiguous" }, explanationInputSchema)).toEqual([]);
  });
});

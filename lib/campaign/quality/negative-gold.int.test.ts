import { and, eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { annotatorStandings, passages, queries } from "@/db/schema";
import { system } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import { answerTokens } from "@/lib/kilt/answer-overlap";
import { makeAnnotator, makeAnnotators } from "@/test/campaign-factory";
import { describeEachDatabase, unique } from "@/test/databases";
import { exportedLines } from "@/test/exported";
import { ANSWER, expectedSpan, goldPage, judgment, makeGoldCampaign, PLAYERS, playAll, source, type Player } from "@/test/quality-gold";
import { nextTask } from "../annotate/assignment";
import { submitJudgment } from "../annotate/judgments";
import { createCampaign } from "../campaigns";
import { importBatch } from "../import/import-batch";
import { importKnowledge } from "../../knowledge/import-knowledge";
import { getDashboard } from "../report/dashboard";
import { exportKilt } from "../report/export-kilt";
import { createCampaignSchema } from "../settings.contract";
import { getStanding } from "./standings";
import { listSuspectDecoys } from "./suspect-decoys";

const NO_PAUSE = { goldMinJudgments: 10_000 };

describeEachDatabase("negative gold and decoys (issue 26)", ({ db }) => {
  async function passagesOf(campaignId: number) {
    return db().select().from(passages).where(eq(passages.campaignId, campaignId)).orderBy(passages.queryId, passages.startParagraphId);
  }

  it('imports provenance items and candidates marked "gold": "insufficient" as gold expected insufficient, without a span', async () => {
    const c = await makeGoldCampaign(db(), { questions: 2, span: "answer", launch: false });
    const ps = await passagesOf(c.campaignId);
    const at = (paragraph: number) => ps.filter((p) => p.startParagraphId === paragraph);
    expect(ps).toHaveLength(8);
    expect(
      at(1).every((p) => p.isGold && p.expectedVerdict === "sufficient" && p.expectedStartCharacter === expectedSpan("answer").start),
    ).toBe(true);
    for (const paragraph of [5, 6]) {
      expect(
        at(paragraph).every((p) => p.isGold && p.expectedVerdict === "insufficient" && p.expectedStartParagraphId === null && !p.isDecoy),
      ).toBe(true);
    }
    // The marked candidate keeps its retriever as origin.
    expect(at(6)[0]!.origins).toEqual([{ kind: "retriever", retriever: "bm25", rank: 2 }]);
    expect(at(4).every((p) => !p.isGold && p.expectedVerdict === null)).toBe(true);
    expect(c.result).toMatchObject({ passages: 8, goldPassages: 6, candidatePassages: 2, decoys: 0 });
  });

  it('refuses a bad value of "gold" with its file, line and field, and gold that expects both verdicts at one place', async () => {
    const page = unique("gold-page");
    await importKnowledge(db(), system, {
      fileName: "pages.jsonl",
      source: source(JSON.stringify({ wikipedia_id: page, wikipedia_title: "L", text: goldPage("L") })),
    });
    const campaign = await createCampaign(db(), system, createCampaignSchema.parse({ name: unique("bad controls") }));
    const line = (id: string, gold: unknown) =>
      JSON.stringify({
        id,
        input: "when",
        output: [{ answer: ANSWER, provenance: [{ wikipedia_id: page, start_paragraph_id: 5, end_paragraph_id: 5, gold }] }],
      });
    const problemsOf = async (queries: string, candidates?: string) => {
      const error = await importBatch(db(), system, {
        campaignId: campaign.id,
        queries: { fileName: "queries.jsonl", source: source(queries) },
        candidates: candidates === undefined ? undefined : { fileName: "dpr.jsonl", source: source(candidates) },
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      return ((error as AppError).details as { problems: { file: string; line: number; field: string; message: string }[] }).problems;
    };
    const [bad] = await problemsOf([line(unique("q"), "insufficient"), line(unique("q"), "no")].join("\n"));
    expect(bad).toMatchObject({ file: "queries.jsonl", line: 2, field: "output[0].provenance[0].gold" });
    expect(bad!.message).toMatch(/must be "insufficient"/);
    const [badCandidate] = await problemsOf(
      line(unique("q"), "insufficient"),
      JSON.stringify({ id: "x", output: [{ provenance: [{ wikipedia_id: page, gold: true }] }] }),
    );
    expect(badCandidate).toMatchObject({ file: "dpr.jsonl", line: 1, field: "output[0].provenance[0].gold" });

    // The same paragraph as evidence and as a negative control.
    const id = unique("q");
    const both = JSON.stringify({
      id,
      input: "when",
      output: [{ answer: ANSWER, provenance: [{ wikipedia_id: page, start_paragraph_id: 1, end_paragraph_id: 1 }] }],
    });
    const [conflict] = await problemsOf(
      both,
      JSON.stringify({
        id,
        output: [{ provenance: [{ wikipedia_id: page, start_paragraph_id: 1, end_paragraph_id: 1, gold: "insufficient" }] }],
      }),
    );
    expect(conflict).toMatchObject({ file: "dpr.jsonl", line: 1, field: "output[0].provenance[0].gold" });
    expect(conflict!.message).toMatch(/queries\.jsonl line 1 output\[0\]\.provenance\[0\]/);
    expect(await db().select().from(passages).where(eq(passages.campaignId, campaign.id))).toHaveLength(0);
  });

  it("makes decoys: about decoysPer100 per 100 passages, one per question, paragraphs without an answer token, the same for the same batch", async () => {
    const c = await makeGoldCampaign(db(), { questions: 10, span: "answer", settings: { decoysPer100: 25 }, launch: false });
    // 40 imported passages → 10 decoys; only paragraph 3 of each page is free and holds no "1871".
    expect(c.result).toMatchObject({ decoys: 10, goldPassages: 40, passages: 50, candidatePassages: 10 });
    const decoys = (await passagesOf(c.campaignId)).filter((p) => p.isDecoy);
    expect(decoys).toHaveLength(10);
    expect(new Set(decoys.map((d) => d.queryId)).size).toBe(10);
    for (const d of decoys) {
      expect(d).toMatchObject({
        isGold: true,
        expectedVerdict: "insufficient",
        expectedStartParagraphId: null,
        origins: [{ kind: "decoy" }],
        startParagraphId: 3,
        endParagraphId: 3,
      });
      const text = goldPage("x")[d.startParagraphId]!;
      expect([...answerTokens(text)].some((t) => answerTokens(ANSWER).has(t))).toBe(false);
    }
    const [batch] = await db()
      .select()
      .from(passages)
      .where(and(eq(passages.batchId, c.batchId), eq(passages.isDecoy, true)));
    expect(batch).toBeDefined();

    // With more decoys asked for than free paragraphs, as many as there are; the same batch again gets the same ones.
    const sameBatch = (decoysPer100: number) =>
      makeGoldCampaign(db(), {
        questions: 10,
        span: "answer",
        settings: { decoysPer100 },
        launch: false,
        queryIds: c.queryIds,
        pageIds: c.pageIds,
      });
    const again = await sameBatch(50);
    expect(again.result.decoys).toBe(10);
    const twin = await sameBatch(10);
    const twice = await sameBatch(10);
    expect(twin.result.decoys).toBe(4);
    const decoyQuestions = async (campaignId: number) => {
      const ps = (await passagesOf(campaignId)).filter((p) => p.isDecoy);
      const kilt = await db().select({ id: queries.id, kiltId: queries.kiltId }).from(queries).where(eq(queries.campaignId, campaignId));
      const ids = new Map(kilt.map((r) => [r.id, r.kiltId]));
      return ps.map((p) => `${ids.get(p.queryId)}:${p.wikipediaId}:${p.startParagraphId}`).sort();
    };
    expect(await decoyQuestions(twice.campaignId)).toEqual(await decoyQuestions(twin.campaignId));

    // Questions without answers get none.
    const page = unique("gold-page");
    await importKnowledge(db(), system, {
      fileName: "pages.jsonl",
      source: source(JSON.stringify({ wikipedia_id: page, wikipedia_title: "L", text: goldPage("L") })),
    });
    const campaign = await createCampaign(db(), system, createCampaignSchema.parse({ name: unique("no answers"), decoysPer100: 50 }));
    const noAnswer = JSON.stringify({
      id: unique("q"),
      input: "why",
      output: [{ provenance: [{ wikipedia_id: page, start_paragraph_id: 1, end_paragraph_id: 1 }] }],
    });
    const result = await importBatch(db(), system, { campaignId: campaign.id, queries: { fileName: "q.jsonl", source: source(noAnswer) } });
    expect(result.decoys).toBe(0);
  });

  it("never exports negative gold or decoys, even endorsed, and lists endorsed decoys as suspect for the coordinator only", async () => {
    const c = await makeGoldCampaign(db(), { questions: 3, span: "answer", settings: { ...NO_PAUSE, decoysPer100: 25 } });
    expect(c.result.decoys).toBe(3);
    // Three annotators find every passage sufficient: every passage, decoys included, is endorsed.
    for (const a of await makeAnnotators(db(), 3)) await playAll(db(), a, c.campaignId, PLAYERS["always-sufficient"]!);
    const ps = await passagesOf(c.campaignId);
    expect(ps.every((p) => p.sufficientCount === 3)).toBe(true);

    const lines = await exportedLines(exportKilt(db(), system, c.campaignId, { location: "span" }));
    expect(lines).toHaveLength(3);
    for (const line of lines) {
      const exported = (JSON.parse(line) as { output: { provenance?: { start_paragraph_id: number; meta?: unknown }[] }[] }).output
        .flatMap((o) => o.provenance ?? [])
        .filter((p) => p.meta !== undefined)
        .map((p) => p.start_paragraph_id)
        .sort();
      // Only the evidence (1) and the plain candidate (4): never 3 (decoy), 5 (negative gold) or 6 (marked candidate).
      expect(exported).toEqual([1, 4]);
    }

    const suspects = await listSuspectDecoys(db(), system, c.campaignId, { limit: 50 });
    expect(suspects.total).toBe(3);
    expect(suspects.decoyCount).toBe(3);
    expect(suspects.decoys.map((d) => [d.paragraphId, d.sufficient, d.judgments])).toEqual([
      [3, 3, 3],
      [3, 3, 3],
      [3, 3, 3],
    ]);
    expect(suspects.decoys[0]!.text).toMatch(/^A keeper lived there until 1950/);
    expect((await listSuspectDecoys(db(), system, c.campaignId, { limit: 1 })).decoys).toHaveLength(1);
    const annotator = await makeAnnotator(db());
    await expect(listSuspectDecoys(db(), annotator, c.campaignId, { limit: 50 })).rejects.toMatchObject({ code: "forbidden" });
  });

  it("lists no suspect while fewer than T annotators in good standing judged a decoy sufficient", async () => {
    const c = await makeGoldCampaign(db(), { questions: 2, span: "answer", settings: { ...NO_PAUSE, decoysPer100: 25 } });
    const [a, b] = await makeAnnotators(db(), 2);
    await playAll(db(), a!, c.campaignId, PLAYERS["always-sufficient"]!);
    await playAll(db(), b!, c.campaignId, PLAYERS.careful!);
    const suspects = await listSuspectDecoys(db(), system, c.campaignId, { limit: 50 });
    expect(suspects).toMatchObject({ total: 0, decoyCount: 2, decoys: [] });
  });
});

describeEachDatabase("span scoring of sufficient gold through submitJudgment (issue 26)", ({ db }) => {
  /** An annotator's standing after judging the one evidence passage of a one-question campaign with `span`. */
  async function scoreOfEvidence(goldSpan: "answer" | "sentence", span: { start: number; end: number } | "whole") {
    const c = await makeGoldCampaign(db(), { questions: 1, span: goldSpan, settings: NO_PAUSE });
    const a = await makeAnnotator(db());
    for (let t = await nextTask(db(), a, { campaignId: c.campaignId }); t; t = await nextTask(db(), a, { campaignId: c.campaignId })) {
      const evidence = t.passage.paragraphs[0]!.id === 1;
      await submitJudgment(
        db(),
        a,
        t.claim.handle,
        evidence ? judgment(t, "sufficient", span === "whole" ? undefined : span) : judgment(t, "insufficient"),
      );
    }
    const [s] = await db().select().from(annotatorStandings).where(eq(annotatorStandings.userId, a.id));
    // Three gold passages (5 and 6 expected insufficient, judged so: right); the evidence's span decides the third.
    expect(s).toMatchObject({ goldJudged: 3, negativeGoldJudged: 2, negativeGoldCorrect: 2 });
    return s!.goldCorrect - s!.negativeGoldCorrect === 1;
  }

  it("with a short-answer gold span: the sentence and the answer are right, the whole passage and a miss are wrong", async () => {
    expect(await scoreOfEvidence("answer", expectedSpan("sentence"))).toBe(true);
    expect(await scoreOfEvidence("answer", expectedSpan("answer"))).toBe(true);
    expect(await scoreOfEvidence("answer", "whole")).toBe(false);
    const { start } = expectedSpan("answer");
    expect(await scoreOfEvidence("answer", { start: start + 3, end: start + 8 })).toBe(false); // "1 by": one code point of four
  });

  it("with a whole-sentence gold span: the sentence is right, the answer alone and the whole passage are wrong", async () => {
    expect(await scoreOfEvidence("sentence", expectedSpan("sentence"))).toBe(true);
    expect(await scoreOfEvidence("sentence", expectedSpan("answer"))).toBe(false);
    expect(await scoreOfEvidence("sentence", "whole")).toBe(false);
  });
});

describeEachDatabase("the gold rule per kind of gold, with the defaults (issue 26)", ({ db }) => {
  it("pauses every bot kind within 10 gold judgments, and not a careful annotator; the dashboard shows both kinds", async () => {
    // Defaults: goldMinJudgments 4, goldAccuracyThreshold 0.3, goldSpanSlack 0.2.
    // Per question: sufficient gold (paragraph 1, its sentence expected), two plain candidates, and about 3 decoys in 4 questions.
    const c = await makeGoldCampaign(db(), { questions: 12, span: "sentence", negative: false, settings: { decoysPer100: 25 } });
    expect(c.result.decoys).toBe(9);
    const kinds: Player[] = ["always-sufficient", "always-insufficient", "first-word", "careful"];
    const seen: Record<string, { status: string; gold: number }> = {};
    for (const kind of kinds) {
      const a = await makeAnnotator(db());
      await playAll(db(), a, c.campaignId, PLAYERS[kind]!);
      const s = await getStanding(db(), system, c.campaignId, a.id);
      seen[kind] = { status: s.status, gold: s.goldJudged };
      if (kind === "careful") {
        expect(s).toMatchObject({
          status: "active",
          sufficientGoldJudged: 12,
          sufficientGoldCorrect: 12,
          negativeGoldJudged: 9,
          negativeGoldCorrect: 9,
        });
      } else {
        expect(s.pauseReason).toBe("gold_rule");
      }
    }
    expect(seen.careful!.status).toBe("active");
    for (const kind of kinds.filter((k) => k !== "careful")) {
      expect(seen[kind], kind).toMatchObject({ status: "paused" });
      expect(seen[kind]!.gold, `${kind}: gold judgments before the pause`).toBeLessThanOrEqual(10);
    }

    const dashboard = await getDashboard(db(), system, c.campaignId);
    const standings = await db().select().from(annotatorStandings).where(eq(annotatorStandings.campaignId, c.campaignId));
    const sum = (f: (s: (typeof standings)[number]) => number) => standings.reduce((n, s) => n + f(s), 0);
    expect(dashboard.gold).toEqual({
      sufficient: { judged: sum((s) => s.goldJudged - s.negativeGoldJudged), correct: sum((s) => s.goldCorrect - s.negativeGoldCorrect) },
      negative: { judged: sum((s) => s.negativeGoldJudged), correct: sum((s) => s.negativeGoldCorrect) },
    });
    expect(dashboard.gold.negative.judged).toBeGreaterThan(0);
    expect(dashboard.gold.sufficient.correct).toBeGreaterThanOrEqual(12);
  });
});

import { expect, it } from "vitest";
import type { Db } from "@/db/client";
import { system, type UserActor } from "@/lib/auth/actor";
import { readLines } from "@/lib/kilt/jsonl";
import { ScoreAccumulator } from "@/lib/kilt/score/accumulate";
import { rankDetail } from "@/lib/kilt/score/detail";
import { parseGoldLine, parseGuessLine } from "@/lib/kilt/score/records";
import { scoreFiles } from "@/lib/kilt/score/score-files";
import type { KiltResult, Level } from "@/lib/kilt/score/types";
import { makeAnnotator, makeCampaign, judgmentOf, type TestCampaign } from "@/test/campaign-factory";
import { describeEachDatabase } from "@/test/databases";
import { refusal } from "@/test/refusal";
import { figuresText, fileOf, makeUser } from "@/test/runs";
import { nextTask } from "../annotate/assignment";
import { submitJudgment } from "../annotate/judgments";
import { pauseAnnotator } from "../quality/standings";
import { exportKilt } from "../report/export-kilt";
import { getLeaderboard, getRunResults } from "./leaderboard";
import { getRunQuestion, listRunQuestions } from "./run-questions";
import { uploadRun } from "./upload-run";
import type { Gold, Leaderboard } from "./runs.contract";

type Verdict = "sufficient" | "insufficient";

/** Judges every passage the annotator is handed: `plan(question index, paragraph)`. */
async function judge(db: Db, a: UserActor, c: TestCampaign, plan: (q: number, paragraph: number) => Verdict) {
  for (let t = await nextTask(db, a, { campaignId: c.campaignId }); t; t = await nextTask(db, a, { campaignId: c.campaignId })) {
    await submitJudgment(db, a, t.claim.handle, judgmentOf(t, plan(c.queryIds.indexOf(t.query.id), t.passage.paragraphs[0]!.id)));
  }
}

const item = (c: TestCampaign, q: number, p: number, title = false) => ({
  wikipedia_id: c.pageIds[q],
  ...(title ? { title: `Page ${c.pageIds[q]}` } : {}),
  start_paragraph_id: p,
  end_paragraph_id: p,
});

/** The gold lines KILT would be given, written out: the imported line, its answers with the endorsed passages, and both. */
function expectedGolds(c: TestCampaign, endorsed: Record<number, number[]>): Record<Gold, string[]> {
  const originalOutput = (q: number) => [{ answer: "1871", provenance: [item(c, q, 1)] }];
  const entries = (q: number) => endorsed[q]!.map((p) => ({ provenance: [item(c, q, p, true)] }));
  const line = (q: number, output: unknown[]) => JSON.stringify({ id: c.queryIds[q], input: `question ${q}`, output });
  const inEndorsed = Object.keys(endorsed).map(Number);
  return {
    original: c.queryIds.map((_, q) => line(q, originalOutput(q))),
    endorsed: inEndorsed.map((q) => line(q, [{ answer: "1871" }, ...entries(q)])),
    both: inEndorsed.map((q) => line(q, [...originalOutput(q), ...entries(q)])),
  };
}

/** Two systems' guesses: A ranks and answers, B only ranks. */
function guesses(c: TestCampaign) {
  const line = (q: number, ranked: number[], answer?: string) =>
    JSON.stringify({ id: c.queryIds[q], output: [{ ...(answer ? { answer } : {}), provenance: ranked.map((p) => item(c, q, p, true)) }] });
  return {
    A: [line(0, [2, 3, 1], "1871"), line(1, [3, 1], "1872"), line(2, [1], "in 1871")],
    B: [line(0, [1]), line(1, [1, 2]), line(2, [2])],
  };
}

/** KILT's figures for gold lines and guess lines (matched by id; guess ids not in the gold dropped, as KILT does). */
function kiltFigures(gold: string[], guess: string[], options: { ks: number[]; levels: Level[]; downstream: boolean }): KiltResult {
  const acc = new ScoreAccumulator(options);
  const byId = new Map(guess.map((l) => [(JSON.parse(l) as { id: string }).id, l]));
  for (const g of gold) {
    const record = parseGoldLine(JSON.parse(g));
    if (!record.ok) throw new Error(record.message);
    const guessed = parseGuessLine(JSON.parse(byId.get(record.record.id)!));
    if (!guessed.ok) throw new Error(guessed.message);
    acc.add(record.record, guessed.record);
  }
  return acc.result();
}

function expectBoard(board: Leaderboard, c: TestCampaign, endorsed: Record<number, number[]>) {
  const gold = expectedGolds(c, endorsed);
  const guess = guesses(c);
  expect(board.golds).toEqual({
    original: { questions: 3 },
    endorsed: { questions: gold.endorsed.length },
    both: { questions: gold.both.length },
  });
  for (const row of board.rows) {
    const name = row.run.name as "A" | "B";
    for (const g of ["original", "endorsed", "both"] as const) {
      expect(figuresText(row.scores[g]), `${name} vs ${g}`).toBe(
        figuresText(kiltFigures(gold[g], guess[name], { ks: board.ks, levels: [board.level], downstream: name === "A" })),
      );
      expect(row.questions[g]).toBe(gold[g].length);
    }
    // The original gold over only the questions the endorsed and both golds hold: what their figures are compared with.
    for (const g of ["endorsed", "both"] as const) {
      const ids = new Set(gold[g].map((l) => (JSON.parse(l) as { id: string }).id));
      const original = gold.original.filter((l) => ids.has((JSON.parse(l) as { id: string }).id));
      expect(figuresText(row.originalOver[g]), `${name}: original over the ${g} gold's questions`).toBe(
        figuresText({
          scores: kiltFigures(original, guess[name], { ks: board.ks, levels: [board.level], downstream: name === "A" }),
          questions: gold[g].length,
        }),
      );
    }
  }
}

/**
 * A campaign of three questions (their gold and two candidates each) judged `judgmentsPerPassage`
 * times a passage, where one sufficient counted judgment endorses a passage and no annotator is
 * paused for gold accuracy; and the coordinator who uploads the runs.
 */
async function runsCampaign(db: Db, judgmentsPerPassage: number) {
  const c = await makeCampaign(db, {
    queries: 3,
    candidates: 2,
    settings: { judgmentsPerPassage, endorsementThreshold: 1, goldAccuracyThreshold: 0, askWhenNoneSufficient: false },
  });
  return { c, coordinator: await makeUser(db, "coordinator") };
}

describeEachDatabase("runs: leaderboard", ({ db }) => {
  it("scores runs against the three golds as KILT would with those gold files, and again after the outcomes change", async () => {
    // R = 2, T = 1: one sufficient counted judgment endorses a passage.
    const { c, coordinator } = await runsCampaign(db(), 2);
    const [a, b] = [await makeAnnotator(db()), await makeAnnotator(db())];
    // A: question 0's paragraphs 1 and 2 sufficient, the rest insufficient.
    await judge(db(), a, c, (q, p) => (q === 0 && p <= 2 ? "sufficient" : "insufficient"));
    const g = guesses(c);
    const runA = await uploadRun(db(), coordinator, { campaignId: c.campaignId, name: "A", guess: fileOf(g.A.join("\n")) });
    await uploadRun(db(), coordinator, { campaignId: c.campaignId, name: "B", guess: fileOf(g.B.join("\n")) });

    for (const level of ["page", "paragraph"] as const) {
      expectBoard(await getLeaderboard(db(), coordinator, { campaignId: c.campaignId, level, ks: [1, 3] }), c, { 0: [1, 2] });
    }

    // "both" is the KILT export itself: scoreFiles on the export's lines gives the same figures.
    let exported = "";
    for await (const line of exportKilt(db(), system, c.campaignId, { location: "span" })) exported += line;
    const ids = new Set(
      exported
        .trim()
        .split("\n")
        .map((l) => (JSON.parse(l) as { id: string }).id),
    );
    const lines = (text: string, file: string) => readLines(fileOf(text).source, { file, maxLineBytes: 1 << 20 });
    const kilt = await scoreFiles({
      gold: { file: "export.jsonl", lines: lines(exported, "export.jsonl") },
      guess: { file: "A.jsonl", lines: lines(g.A.filter((l) => ids.has((JSON.parse(l) as { id: string }).id)).join("\n"), "A.jsonl") },
      ks: [1, 3],
      levels: ["paragraph"],
    });
    const board = await getLeaderboard(db(), coordinator, { campaignId: c.campaignId, level: "paragraph", ks: [1, 3] });
    const rowA = board.rows.find((r) => r.run.name === "A")!;
    expect(kilt.ok && kilt.result).toEqual(rowA.scores.both);
    // The golds tell the run apart: on question 0, A ranks paragraph 2 first, which only the campaign endorsed.
    expect(rowA.scores.original.paragraph!["precision@1"]).toBeCloseTo(1 / 3, 12);
    expect(rowA.scores.endorsed.paragraph!["precision@1"]).toBe(1);
    expect(rowA.scores.original.downstream!.downstream.em).toBeCloseTo(1 / 3, 12);

    // More judgments: B finds question 1's gold sufficient (endorsed now); question 2's gold is then finished unendorsed (unanswerable).
    await judge(db(), b, c, (q, p) => (q === 1 && p === 1 ? "sufficient" : "insufficient"));
    expectBoard(await getLeaderboard(db(), coordinator, { campaignId: c.campaignId, level: "paragraph", ks: [1, 3] }), c, {
      0: [1, 2],
      1: [1],
    });

    // A paused by a coordinator: A's judgments stop counting, question 0 has no endorsed passage left.
    await pauseAnnotator(db(), coordinator, c.campaignId, a.id);
    expectBoard(await getLeaderboard(db(), coordinator, { campaignId: c.campaignId, level: "paragraph", ks: [1, 3] }), c, { 1: [1] });

    // The download: page and paragraph at ks 1, 3, 5, 10 and downstream, per gold.
    const { results } = await getRunResults(db(), coordinator, { campaignId: c.campaignId, runId: runA.id });
    const gold = expectedGolds(c, { 1: [1] });
    for (const k of ["original", "endorsed", "both"] as const) {
      expect(figuresText(results[k])).toBe(
        figuresText(kiltFigures(gold[k], g.A, { ks: [1, 3, 5, 10], levels: ["page", "paragraph"], downstream: true })),
      );
    }
    expect(Object.keys(results.both.paragraph!)).toContain("success_rate@10");
  });

  it("lists a run's questions with R-precision per gold and drills into one, as rankDetail on the gold lines", async () => {
    const { c, coordinator } = await runsCampaign(db(), 1);
    const a = await makeAnnotator(db());
    // Question 0: paragraphs 1 and 2 endorsed; question 1: none (its gold finished unendorsed: unanswerable); question 2: paragraph 1 and 3.
    await judge(db(), a, c, (q, p) => ((q === 0 && p <= 2) || (q === 2 && p !== 2) ? "sufficient" : "insufficient"));
    const g = guesses(c);
    const run = await uploadRun(db(), coordinator, { campaignId: c.campaignId, name: "A", guess: fileOf(g.A.join("\n")) });
    const gold = expectedGolds(c, { 0: [1, 2], 2: [1, 3] });

    const first = await listRunQuestions(db(), coordinator, { campaignId: c.campaignId, runId: run.id, limit: 2, level: "paragraph" });
    expect(first.questions.map((q) => q.kiltId)).toEqual(c.queryIds.slice(0, 2));
    const rest = await listRunQuestions(db(), coordinator, {
      campaignId: c.campaignId,
      runId: run.id,
      limit: 2,
      after: first.next!,
      level: "paragraph",
    });
    expect(rest).toMatchObject({ questions: [{ kiltId: c.queryIds[2] }], next: null });
    const [q0, q1] = first.questions;
    const detail = (line: string, q: number) => {
      const [goldLine, guessLine] = [parseGoldLine(JSON.parse(line)), parseGuessLine(JSON.parse(g.A[q]!))];
      if (!goldLine.ok || !guessLine.ok) throw new Error("a test line does not parse");
      return rankDetail(goldLine.record, guessLine.record, "paragraph");
    };
    expect(q0!.rprec).toEqual({
      original: detail(gold.original[0]!, 0).rprec,
      endorsed: detail(gold.endorsed[0]!, 0).rprec,
      both: detail(gold.both[0]!, 0).rprec,
    });
    expect(q0!.firstCompleteRank).toEqual({ original: 3, endorsed: 1, both: 1 });
    expect(q1!.rprec).toEqual({ original: detail(gold.original[1]!, 1).rprec, endorsed: null, both: null });
    const found = await listRunQuestions(db(), coordinator, {
      campaignId: c.campaignId,
      runId: run.id,
      limit: 50,
      q: "question 2",
      level: "page",
    });
    expect(found.questions.map((q) => q.kiltId)).toEqual([c.queryIds[2]]);

    const drill = await getRunQuestion(db(), coordinator, {
      campaignId: c.campaignId,
      runId: run.id,
      kiltId: c.queryIds[2]!,
      level: "paragraph",
    });
    expect(drill.question).toEqual({ kiltId: c.queryIds[2], input: "question 2", answers: ["1871"] });
    expect(drill.guess.answer).toBe("in 1871");
    expect(drill.guess.ranked.map((r) => r.key)).toEqual([`${c.pageIds[2]}+1+1`]);
    expect(drill.golds).toEqual({
      original: detail(gold.original[2]!, 2),
      endorsed: detail(gold.endorsed[1]!, 2),
      both: detail(gold.both[1]!, 2),
    });

    // Unknown question, a run of another campaign, an annotator.
    const other = await makeCampaign(db(), { queries: 1, candidates: 0 });
    expect(
      (await refusal(getRunQuestion(db(), coordinator, { campaignId: c.campaignId, runId: run.id, kiltId: "nope", level: "page" }))).code,
    ).toBe("not_found");
    expect((await refusal(getRunResults(db(), coordinator, { campaignId: other.campaignId, runId: run.id }))).code).toBe("not_found");
    expect(
      (await refusal(listRunQuestions(db(), coordinator, { campaignId: other.campaignId, runId: run.id, limit: 5, level: "page" }))).code,
    ).toBe("not_found");
    expect((await refusal(getLeaderboard(db(), a, { campaignId: c.campaignId, level: "page", ks: [1] }))).code).toBe("forbidden");
    expect(
      (await refusal(getRunQuestion(db(), a, { campaignId: c.campaignId, runId: run.id, kiltId: c.queryIds[0]!, level: "page" }))).code,
    ).toBe("forbidden");
  });
});

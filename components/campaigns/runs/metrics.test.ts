import { describe, expect, it } from "vitest";
import type { KiltResult } from "@/lib/kilt/score/types";
import type { Leaderboard } from "@/components/api/runs";
import { leaderboardHeadline } from "@/lib/campaign/runs/runs.contract";
import { compareWithOriginal, DOWNSTREAM_METRICS, headlineMetrics, parseMetricKeys, RETRIEVAL_METRICS, shownMetrics } from "./metrics";

const rprec = RETRIEVAL_METRICS[0]!;
const page = (Rprec: number): KiltResult => ({ page: { Rprec } }) as unknown as KiltResult;
type Row = Leaderboard["rows"][number];

/** A board of one run: R-precision per gold over `questions`, and the original's over each other gold's questions. */
function boardOf(row: { scores: [number, number, number]; questions: [number, number, number]; over: [number, number, number, number] }) {
  const [o, e, b] = row.scores;
  const r: Row = {
    run: { id: 1, name: "A", createdAt: "", createdBy: null, questions: 5, hasProvenance: true, hasAnswers: false },
    scores: { original: page(o), endorsed: page(e), both: page(b) },
    questions: { original: row.questions[0], endorsed: row.questions[1], both: row.questions[2] },
    originalOver: {
      endorsed: { scores: page(row.over[0]), questions: row.over[1] },
      both: { scores: page(row.over[2]), questions: row.over[3] },
    },
  };
  const board: Leaderboard = {
    level: "page",
    ks: [1, 5],
    headline: leaderboardHeadline([{ taskKind: "qa", dataset: "nq" }]),
    golds: { original: { questions: 5 }, endorsed: { questions: 3 }, both: { questions: 3 } },
    computedAt: "",
    rows: [r],
  };
  return { board, r };
}

describe("the leaderboard's marks compare golds over the same questions", () => {
  it("marks a gold's figure against the original gold's over that gold's questions, not over the original's own", () => {
    // Over its 5 questions the original scores 0.4; over the 3 the endorsed gold holds, 0.6667.
    const { board, r } = boardOf({
      scores: [0.4, 0.6666666666666666, 0.5],
      questions: [5, 3, 3],
      over: [0.6666666666666666, 3, 0.6666666666666666, 3],
    });
    // 0.667 against 0.4 would have been "higher"; over the same 3 questions it is the same.
    expect(compareWithOriginal(board, r, rprec, "endorsed")).toEqual({ kind: "same", over: 3 });
    // 0.5 against 0.4 would have been "higher"; over the same 3 questions it is lower.
    expect(compareWithOriginal(board, r, rprec, "both")).toEqual({ kind: "lower", over: 3 });
    expect(compareWithOriginal(board, r, rprec, "original")).toEqual({ kind: "none" });
  });

  it("marks higher over the same questions", () => {
    const { board, r } = boardOf({ scores: [0.2, 1, 1], questions: [5, 3, 3], over: [0, 3, 0, 3] });
    expect(compareWithOriginal(board, r, rprec, "endorsed")).toEqual({ kind: "higher", over: 3 });
  });

  it("says that the sets differ, with both counts, when the original was scored over other questions than the gold", () => {
    // The original's figure over the endorsed gold's questions covers 2 of its 3 (a line the scorer refused, say).
    const { board, r } = boardOf({ scores: [0.4, 1, 1], questions: [5, 3, 3], over: [0.5, 2, 1, 3] });
    expect(compareWithOriginal(board, r, rprec, "endorsed")).toEqual({ kind: "differ", these: 3, original: 2 });
    expect(compareWithOriginal(board, r, rprec, "both")).toEqual({ kind: "same", over: 3 });
    // No figure over the same questions at all (an older answer): the gold's count against the original's.
    const { originalOver: _, ...bare } = r;
    expect(compareWithOriginal(board, bare as Row, rprec, "endorsed")).toEqual({ kind: "differ", these: 3, original: 5 });
  });

  it("marks nothing where a figure is missing: a gold with no question, or a metric the run has not", () => {
    const { board, r } = boardOf({ scores: [0.4, 1, 1], questions: [5, 0, 3], over: [0, 0, 0.5, 3] });
    expect(compareWithOriginal(board, r, rprec, "endorsed")).toEqual({ kind: "none" });
    expect(compareWithOriginal(board, r, DOWNSTREAM_METRICS[0]!, "both")).toEqual({ kind: "none" });
  });
});

describe("the leaderboard's metric picker", () => {
  const all = [...RETRIEVAL_METRICS, ...DOWNSTREAM_METRICS];
  const keys = (ms: { key: string }[]) => ms.map((m) => m.key);

  it("shows a few by default, those the board has", () => {
    expect(keys(shownMetrics(all, null))).toEqual(["Rprec", "recall@5"]);
    expect(keys(shownMetrics(RETRIEVAL_METRICS, null))).toEqual(["Rprec", "recall@5"]);
    // Answers only (the headline pair leads apart): the first of the others.
    expect(keys(shownMetrics(DOWNSTREAM_METRICS, null))).toEqual(["downstream:accuracy"]);
  });

  it("shows the chosen ones in the board's order, and the defaults when none of them is on the board", () => {
    expect(keys(shownMetrics(all, ["downstream:f1", "precision@1"]))).toEqual(["precision@1", "downstream:f1"]);
    expect(keys(shownMetrics(RETRIEVAL_METRICS, ["downstream:f1"]))).toEqual(["Rprec", "recall@5"]);
  });

  it("reads ?metrics= keeping the known keys only", () => {
    expect(parseMetricKeys("Rprec,kilt:KILT-em")).toEqual(["Rprec", "kilt:KILT-em"]);
    expect(parseMetricKeys("Rprec,<script>")).toEqual(["Rprec"]);
    expect(parseMetricKeys("nothing")).toBeNull();
    expect(parseMetricKeys("")).toBeNull();
    expect(parseMetricKeys(null)).toBeNull();
  });
});

describe("the leaderboard's headline: KILT's metric for the campaign's datasets", () => {
  const headline = (...batches: [Parameters<typeof leaderboardHeadline>[0][number]["taskKind"], string | null][]) =>
    leaderboardHeadline(batches.map(([taskKind, dataset]) => ({ taskKind, dataset })));

  it("leads with accuracy for FEVER, AIDA and T-REx, EM for NQ, ROUGE-L for ELI5, F1 for Wizard of Wikipedia", () => {
    expect(headline(["fact-checking", "fever"])).toMatchObject({ metric: "accuracy", kiltMetric: "KILT-accuracy", mixed: false });
    expect(headline(["entity-linking", "aidayago2"]).metric).toBe("accuracy");
    expect(headline(["slot-filling", "trex"], ["slot-filling", "structured_zeroshot"])).toMatchObject({ metric: "accuracy", mixed: false });
    expect(headline(["qa", "nq"])).toMatchObject({ metric: "em", kiltMetric: "KILT-em" });
    expect(headline(["qa", "eli5"])).toMatchObject({ metric: "rougel", kiltMetric: "KILT-rougel" });
    expect(headline(["dialogue", "wow"])).toMatchObject({ metric: "f1", kiltMetric: "KILT-f1" });
    expect(headline(["dialogue", "wow"]).reason).toBe(
      "Each run leads with F1, KILT's headline metric for Wizard of Wikipedia, and KILT-f1 beside it.",
    );
  });

  it("falls back to the kind without a dataset, to EM without a batch, and to EM (saying so) when the batches differ", () => {
    expect(headline(["fact-checking", null]).metric).toBe("accuracy");
    expect(headline()).toMatchObject({ metric: "em", mixed: false, kinds: [], datasets: [] });
    const mixed = headline(["fact-checking", "fever"], ["qa", "eli5"], ["qa", null]);
    expect(mixed).toMatchObject({
      metric: "em",
      kiltMetric: "KILT-em",
      mixed: true,
      kinds: ["fact-checking", "qa"],
      datasets: ["eli5", "fever"],
    });
    expect(mixed.reason).toContain("The batches mix ELI5 (ROUGE-L), FEVER (accuracy), open-domain QA (EM)");
    // A dataset named for another kind does not decide (headlineMetric keeps the kind's).
    expect(headline(["qa", "fever"]).metric).toBe("em");
  });

  it("puts the headline and its KILT variant first when some run answers, none otherwise", () => {
    const { board } = boardOf({ scores: [1, 1, 1], questions: [5, 3, 3], over: [1, 3, 1, 3] });
    expect(headlineMetrics(board)).toEqual([]);
    const answering = {
      ...board,
      headline: headline(["fact-checking", "fever"]),
      rows: board.rows.map((r) => ({ ...r, run: { ...r.run, hasAnswers: true } })),
    };
    expect(headlineMetrics(answering).map((m) => m.key)).toEqual(["downstream:accuracy", "kilt:KILT-accuracy"]);
    const r = answering.rows[0]!;
    r.scores.original = { downstream: { downstream: { accuracy: 0.75 }, kilt: { "KILT-accuracy": 0.5 } } } as unknown as KiltResult;
    expect(headlineMetrics(answering).map((m) => m.value(r.scores.original, "page"))).toEqual([0.75, 0.5]);
  });
});

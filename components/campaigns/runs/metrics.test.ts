import { describe, expect, it } from "vitest";
import type { KiltResult } from "@/lib/kilt/score/types";
import type { Leaderboard } from "@/components/api/runs";
import { compareWithOriginal, DOWNSTREAM_METRICS, parseMetricKeys, RETRIEVAL_METRICS, shownMetrics } from "./metrics";

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
    expect(keys(shownMetrics(all, null))).toEqual(["Rprec", "recall@5", "kilt:KILT-em"]);
    expect(keys(shownMetrics(RETRIEVAL_METRICS, null))).toEqual(["Rprec", "recall@5"]);
    expect(keys(shownMetrics(DOWNSTREAM_METRICS, null))).toEqual(["kilt:KILT-em"]);
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

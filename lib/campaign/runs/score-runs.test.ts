import { describe, expect, it } from "vitest";
import { ScoreAccumulator } from "@/lib/kilt/score/accumulate";
import { gold, guess } from "@/test/kilt-records";
import { goldsOf } from "./golds";
import { accumulatorsOf, addQuestion, runScoresOf, type Accumulators } from "./score-runs";

// addQuestion computes the original gold's figures once for the three accumulators that take them,
// and a guess's answer figures once for the golds with the original's answers: the sums must be those
// of adding every record to every accumulator on its own.

const item = (wid: string, p: number) => ({ wikipedia_id: wid, start_paragraph_id: p, end_paragraph_id: p });
const line = (i: number) =>
  JSON.stringify({
    id: `q${i}`,
    input: `question ${i}`,
    output: [{ answer: "Ana Kessler", provenance: [item(`${i}`, i)] }, { answer: "1871" }],
  });
const entry = (wid: string, p: number) => JSON.stringify({ provenance: [{ ...item(wid, p), title: `Page ${wid}` }] });
const questions = [
  goldsOf({ originalLine: line(1), status: "endorsed", entries: [entry("1", 1), entry("7", 2)] }),
  goldsOf({ originalLine: line(2), status: "none-endorsed", entries: [] }),
  goldsOf({ originalLine: line(3), status: "endorsed", entries: [entry("8", 3)] }),
];
const guesses = [
  guess({ id: "q1", output: [{ answer: "the engineer Ana Kessler", provenance: [item("7", 2), item("1", 1)] }] }),
  guess({ id: "q2", output: [{ answer: "1871", provenance: [item("2", 2)] }] }),
  guess({ id: "q3", output: [{ answer: "in 1872", provenance: [item("3", 3), item("8", 3)] }] }),
];
const run = { hasProvenance: true, hasAnswers: true };

/** Every record added to every accumulator on its own, as addQuestion did before it shared figures. */
function addOneByOne(acc: Accumulators, q: (typeof questions)[number], g: (typeof guesses)[number], sign: 1 | -1 = 1) {
  if (q.original) acc.original.add(q.original, g, sign);
  for (const gold of ["endorsed", "both"] as const) {
    const record = q[gold];
    if (record) acc[gold].add(record, g, sign);
    if (record && q.original) acc.originalOver[gold].add(q.original, g, sign);
  }
}

describe("addQuestion: figures computed once, added to the accumulators that take them", () => {
  it("gives the figures of adding every record to every accumulator on its own, and takes them out again", () => {
    const shared = accumulatorsOf(run, [1, 5], ["page", "paragraph"]);
    const alone = accumulatorsOf(run, [1, 5], ["page", "paragraph"]);
    questions.forEach((q, i) => {
      addQuestion(shared, q, guesses[i]!);
      addOneByOne(alone, q, guesses[i]!);
    });
    const scores = runScoresOf(shared);
    expect(scores).toEqual(runScoresOf(alone));
    expect(scores.questions).toEqual({ original: 3, endorsed: 2, both: 2 });
    expect(scores.scores.original.downstream!.downstream.f1).toBeGreaterThan(0);

    addQuestion(shared, questions[0]!, guesses[0]!, -1);
    addOneByOne(alone, questions[0]!, guesses[0]!, -1);
    expect(runScoresOf(shared)).toEqual(runScoresOf(alone));
    expect(runScoresOf(shared).questions).toEqual({ original: 2, endorsed: 1, both: 1 });
  });

  it("refuses figures of an accumulator made with other options", () => {
    const withAnswers = new ScoreAccumulator({ ks: [1], levels: ["page"], downstream: true });
    const without = new ScoreAccumulator({ ks: [1], levels: ["page"], downstream: false });
    const figures = withAnswers.figuresOf(questions[0]!.original!, guesses[0]!);
    expect(() => without.addFigures(figures)).toThrow(/other options/);
    expect(without.questions).toBe(0);
  });

  it("reads the guess's answer figures again for a gold whose answers differ from the original's", () => {
    const original = questions[0]!.original!;
    // An endorsed gold with other answers (goldsOf keeps the original's; a scorer must not assume it).
    const other = gold({ id: "q1", input: "question 1", output: [{ answer: "Bo Lind" }, { provenance: [item("1", 1)] }] });
    const golds = { original, endorsed: other, both: questions[0]!.both };
    const named = guess({ id: "q1", output: [{ answer: "Bo Lind", provenance: [item("1", 1)] }] });
    const shared = accumulatorsOf(run, [1], ["page"]);
    const alone = accumulatorsOf(run, [1], ["page"]);
    addQuestion(shared, golds, named);
    addOneByOne(alone, golds, named);
    const scores = runScoresOf(shared);
    expect(scores).toEqual(runScoresOf(alone));
    expect(scores.scores.endorsed.downstream!.downstream.em).toBe(1);
    expect(scores.scores.original.downstream!.downstream.em).toBe(0);
    expect(scores.scores.both.downstream!.downstream.em).toBe(0);
  });
});

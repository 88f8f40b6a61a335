import { describe, expect, it } from "vitest";
import { ScoreAccumulator } from "./accumulate";
import { gold, guess } from "@/test/kilt-records";

// The accumulator's state, as the leaderboard cache stores it (lib/campaign/runs/score-update.ts):
// restored, it goes on as the original would; a question taken out leaves the figures of never
// having added it (to the last bits of a sum).

const options = { ks: [1, 3], levels: ["page", "paragraph"] as ("page" | "paragraph")[], downstream: true };
const item = (wid: string, p: number) => ({ wikipedia_id: wid, start_paragraph_id: p, end_paragraph_id: p });
const golds = [1, 2, 3].map((i) =>
  gold({ id: `q${i}`, input: `question ${i}`, output: [{ answer: "1871", provenance: [item(`${i}`, i)] }] }),
);
const guesses = [
  guess({ id: "q1", output: [{ answer: "in 1871", provenance: [item("1", 1), item("9", 1)] }] }),
  guess({ id: "q2", output: [{ answer: "1872", provenance: [item("9", 2), item("2", 2)] }] }),
  guess({ id: "q3", output: [{ answer: "1871", provenance: [item("3", 1), item("3", 3)] }] }),
];
const figuresText = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (typeof x === "number" ? Number(x.toPrecision(12)) : x));

describe("ScoreAccumulator state", () => {
  it("restored from JSON, goes on as the original; a question taken out leaves the figures of never having added it", () => {
    const all = new ScoreAccumulator(options);
    golds.forEach((g, i) => all.add(g, guesses[i]!));
    const firstTwo = new ScoreAccumulator(options);
    firstTwo.add(golds[0]!, guesses[0]!);
    firstTwo.add(golds[1]!, guesses[1]!);

    const resumed = new ScoreAccumulator(options).restore(JSON.parse(JSON.stringify(firstTwo.state)));
    resumed.add(golds[2]!, guesses[2]!);
    expect(resumed.result()).toEqual(all.result());
    expect(resumed.questions).toBe(3);

    all.remove(golds[2]!, guesses[2]!);
    expect(all.questions).toBe(2);
    expect(figuresText(all.result())).toBe(figuresText(firstTwo.result()));
    expect(all.result()).not.toEqual(resumed.result());
  });

  it("refuses a state of an accumulator made with other options", () => {
    const withDownstream = new ScoreAccumulator(options);
    withDownstream.add(golds[0]!, guesses[0]!);
    expect(() => new ScoreAccumulator({ ...options, downstream: false }).restore(withDownstream.state)).toThrow(RangeError);
    expect(() => new ScoreAccumulator({ ...options, ks: [1, 3, 5] }).restore(withDownstream.state)).toThrow(RangeError);
  });
});

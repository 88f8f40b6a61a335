import { createReadStream, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readLines } from "@/lib/kilt/jsonl";
import { scoreFiles } from "./score-files";
import type { KiltResult } from "./types";

// Complementary evidence sets (test/fixtures/kilt-eval-sets): the figures KILT's eval_retrieval.py
// gives, worked out by hand in the fixture's README, for a guess ranking both members of each set
// first and one ranking only one of them first.
const DIR = path.join(process.cwd(), "test/fixtures/kilt-eval-sets");

function source(file: string) {
  return { file, lines: readLines(createReadStream(path.join(DIR, file)), { file, maxLineBytes: 1 << 20 }) };
}

function figures(o: object, prefix = ""): [string, number][] {
  return Object.entries(o).flatMap(([k, v]) =>
    typeof v === "number" ? [[prefix + k, v] as [string, number]] : figures(v as object, `${prefix}${k}.`),
  );
}

describe("scoring evidence sets as KILT's get_rank and rprecision do", () => {
  const expected = JSON.parse(readFileSync(path.join(DIR, "expected.json"), "utf8")) as Record<"both" | "one", KiltResult>;

  for (const guess of ["both", "one"] as const) {
    it(`guess-${guess}.jsonl: page and paragraph retrieval at ks 1,3,5,10, every figure to 1e-9, keys in KILT's order`, async () => {
      const scored = await scoreFiles({
        gold: source("gold.jsonl"),
        guess: source(`guess-${guess}.jsonl`),
        ks: [1, 3, 5, 10],
        levels: ["page", "paragraph"],
      });
      if (!scored.ok) throw new Error(JSON.stringify(scored.problems.slice(0, 3)));
      const want = figures(expected[guess]);
      const got = figures(scored.result);
      expect(got.map(([k]) => k)).toEqual(want.map(([k]) => k));
      for (const [i, [key, value]] of want.entries()) expect(got[i]![1], key).toBeCloseTo(value, 9);
    });
  }

  it("gives R-precision 1 when both members lead the ranking and 0.5 when one does (paragraph level)", async () => {
    const rprec = async (guess: string) => {
      const scored = await scoreFiles({ gold: source("gold.jsonl"), guess: source(guess), ks: [1], levels: ["paragraph"] });
      if (!scored.ok) throw new Error(JSON.stringify(scored.problems.slice(0, 3)));
      return [scored.result.paragraph!.Rprec, scored.result.paragraph!["precision@1"]];
    };
    expect(await rprec("guess-both.jsonl")).toEqual([1, 1]);
    // A set counts only once complete: ranking one member first finds no set at 1.
    expect(await rprec("guess-one.jsonl")).toEqual([0.5, 0]);
  });
});

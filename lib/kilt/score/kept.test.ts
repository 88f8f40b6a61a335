import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { answerWords, normalizeAnswer } from "@/lib/kilt/answer-overlap";
import { seededRandom } from "@/lib/seeded-random";
import { ScoreAccumulator } from "./accumulate";
import { normalizedGold, normalizedGoldWords } from "./normalized";
import { parseGoldLine, parseGuessLine } from "./records";
import { rankingMetrics } from "./retrieval";
import { rougeTextOf, rougeTextOfGold } from "./rouge";
import type { GoldRecord, GuessRecord } from "./types";

// What the scorer keeps between calls (a gold's normalised strings and words, its answers as ROUGE
// reads them, its ids and evidence sets per level, a guess's ids and normalised texts) changes no
// figure: the same gold record scored against guess after guess, and the same guess record against
// gold after gold, give what fresh copies give each time.
const DIR = path.join(process.cwd(), "test/fixtures/kilt-eval-sets");
const lines = (file: string) => readFileSync(path.join(DIR, file), "utf8").split("\n").filter(Boolean);

function records<T>(file: string, parse: (v: unknown) => { ok: true; record: T } | { ok: false }): T[] {
  return lines(file).map((l) => {
    const parsed = parse(JSON.parse(l));
    if (!parsed.ok) throw new Error(`${file}: a line the scorer refuses`);
    return parsed.record;
  });
}

describe("the scorer's kept values", () => {
  it("normalise a gold's strings as normalizeAnswer does, asked again and past the bound of what is kept", () => {
    const random = seededRandom(7);
    const pieces = ["The", "an", "A", "ferry", "Ferry,", " ", "\t", "1871", "Kessler's", "the.", "ÉTÉ", "a-b", "!"];
    const texts = Array.from({ length: 3_000 }, () =>
      Array.from({ length: 1 + Math.floor(random() * 6) }, () => pieces[Math.floor(random() * pieces.length)]).join(
        random() < 0.5 ? " " : "",
      ),
    );
    for (const round of [1, 2])
      for (const t of texts) {
        const label = `${round}: ${JSON.stringify(t)}`;
        expect(normalizedGold(t), label).toBe(normalizeAnswer(t));
        expect(normalizedGoldWords(t), label).toEqual(answerWords(normalizeAnswer(t)));
        expect(rougeTextOfGold(t), label).toEqual(rougeTextOf(t));
      }
  });

  it("leave each guess's figures as a fresh copy of the gold gives them, evidence sets included (page and paragraph, ks 1,3,5,10)", () => {
    const golds = records<GoldRecord>("gold.jsonl", parseGoldLine);
    const guesses = ["guess-both.jsonl", "guess-one.jsonl", "guess-both.jsonl"].map((f) => records<GuessRecord>(f, parseGuessLine));
    for (const level of ["page", "paragraph"] as const)
      for (const run of guesses)
        for (const [i, gold] of golds.entries()) {
          const fresh = structuredClone(gold);
          expect(rankingMetrics(gold, run[i]!, [1, 3, 5, 10], level)).toEqual(rankingMetrics(fresh, run[i]!, [1, 3, 5, 10], level));
        }
  });

  it("leave each gold's figures as a fresh copy of the guess gives them: one guess record against every gold, retrieval and downstream", () => {
    // KILT's fuzzed fixtures: guesses with texts, answers and several paragraphs of one page.
    const seeds = ["seed-1", "seed-2", "seed-3"].map((seed) => path.join(process.cwd(), "test/fixtures/kilt-eval", seed));
    const fromFile = <T>(file: string, parse: (v: unknown) => { ok: true; record: T } | { ok: false }) =>
      readFileSync(file, "utf8")
        .split("\n")
        .filter(Boolean)
        .flatMap((l) => {
          const parsed = parse(JSON.parse(l));
          return parsed.ok ? [parsed.record] : [];
        });
    const golds = seeds.flatMap((dir) => fromFile<GoldRecord>(path.join(dir, "gold.jsonl"), parseGoldLine)).slice(0, 12);
    const guesses = seeds.flatMap((dir) => fromFile<GuessRecord>(path.join(dir, "guess.jsonl"), parseGuessLine)).slice(0, 12);
    const options = { ks: [1, 3, 5, 10], levels: ["page", "paragraph"] as const, downstream: true };
    const kept = new ScoreAccumulator({ ...options, levels: [...options.levels] });
    let compared = 0;
    for (const guess of guesses)
      for (const gold of golds) {
        const fresh = new ScoreAccumulator({ ...options, levels: [...options.levels] });
        expect(kept.figuresOf(gold, guess)).toEqual(fresh.figuresOf(structuredClone(gold), structuredClone(guess)));
        compared++;
      }
    expect(compared).toBe(144);
  });
});

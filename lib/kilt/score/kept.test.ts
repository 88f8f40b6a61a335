import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { normalizeAnswer } from "@/lib/kilt/answer-overlap";
import { seededRandom } from "@/lib/seeded-random";
import { normalizedGold } from "./normalized";
import { parseGoldLine, parseGuessLine } from "./records";
import { rankingMetrics } from "./retrieval";
import type { GoldRecord, GuessRecord } from "./types";

// What the scorer keeps between calls (a gold's normalised strings, its ids and evidence sets per
// level) changes no figure: the same gold record scored against guess after guess gives what a
// fresh copy of it gives each time.
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
    for (const round of [1, 2]) for (const t of texts) expect(normalizedGold(t), `${round}: ${JSON.stringify(t)}`).toBe(normalizeAnswer(t));
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
});

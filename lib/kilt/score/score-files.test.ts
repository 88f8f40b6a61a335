import { createReadStream, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readLines, type JsonlLine } from "@/lib/kilt/jsonl";
import { scoreFiles, type ScoreFilesInput } from "./score-files";
import type { KiltResult } from "./types";

// The six gold/guess pairs of ../shared/kilt-eval-fixtures, with the figures KILT's own
// eval_retrieval.py and eval_downstream.py printed for them (expected.json).
const FIXTURES = path.join(process.cwd(), "test/fixtures/kilt-eval");
const SEEDS = [1, 2, 3, 4, 5, 6];

function source(seed: number, file: string): ScoreFilesInput["gold"] {
  return { file, lines: readLines(createReadStream(path.join(FIXTURES, `seed-${seed}`, file)), { file, maxLineBytes: 1 << 24 }) };
}

function lines(file: string, texts: string[]): ScoreFilesInput["gold"] {
  return {
    file,
    lines: (async function* (): AsyncGenerator<JsonlLine> {
      for (const [i, text] of texts.entries()) yield { lineNumber: i + 1, text };
    })(),
  };
}

/** Every figure of a nested dictionary as [path, value], in key order. */
function figures(o: object, prefix = ""): [string, number][] {
  return Object.entries(o).flatMap(([k, v]) =>
    typeof v === "number" ? [[prefix + k, v] as [string, number]] : figures(v as object, `${prefix}${k}.`),
  );
}

describe("scoreFiles reproduces KILT's evaluators on the shared fixtures", () => {
  for (const seed of SEEDS) {
    it(`seed-${seed}: page and paragraph retrieval at ks 1,3,5,10 and downstream, every figure to 1e-9, keys in KILT's order`, async () => {
      const expected = JSON.parse(readFileSync(path.join(FIXTURES, `seed-${seed}`, "expected.json"), "utf8")) as KiltResult;
      const scored = await scoreFiles({
        gold: source(seed, "gold.jsonl"),
        guess: source(seed, "guess.jsonl"),
        ks: [10, 1, 5, 3],
        levels: ["page", "paragraph"],
      });
      if (!scored.ok) throw new Error(JSON.stringify(scored.problems.slice(0, 3)));
      const want = figures(expected);
      const got = figures(scored.result);
      expect(got.map(([k]) => k)).toEqual(want.map(([k]) => k));
      for (const [i, [key, value]] of want.entries()) expect(got[i]![1], key).toBeCloseTo(value, 9);
      expect(want.length).toBeGreaterThan(50);
    });
  }

  for (const seed of [1, 2, 3, 4, 5]) {
    it(`random pair fuzz-${seed} (test/fixtures/kilt-eval-fuzz): every figure to 1e-9`, async () => {
      const dir = path.join(process.cwd(), "test/fixtures/kilt-eval-fuzz", `fuzz-${seed}`);
      const expected = JSON.parse(readFileSync(path.join(dir, "expected.json"), "utf8")) as KiltResult;
      const file = (f: string) => ({ file: f, lines: readLines(createReadStream(path.join(dir, f)), { file: f, maxLineBytes: 1 << 24 }) });
      const scored = await scoreFiles({
        gold: file("gold.jsonl"),
        guess: file("guess.jsonl"),
        ks: [1, 3, 5, 10],
        levels: ["page", "paragraph"],
      });
      if (!scored.ok) throw new Error(JSON.stringify(scored.problems.slice(0, 3)));
      const got = new Map(figures(scored.result));
      for (const [key, value] of figures(expected)) expect(got.get(key), key).toBeCloseTo(value, 9);
      expect(figures(scored.result)).toHaveLength(figures(expected).length);
    });
  }

  it("gives the same figures whatever the guess file's order (aligned by id, as KILT aligns)", async () => {
    const gold = readFileSync(path.join(FIXTURES, "seed-3/gold.jsonl"), "utf8").trim().split("\n");
    const guess = readFileSync(path.join(FIXTURES, "seed-3/guess.jsonl"), "utf8").trim().split("\n");
    const straight = await scoreFiles({ gold: lines("g", gold), guess: lines("p", guess), ks: [1, 5], levels: ["page"] });
    const reversed = await scoreFiles({ gold: lines("g", gold), guess: lines("p", [...guess].reverse()), ks: [1, 5], levels: ["page"] });
    expect(straight.ok && reversed.ok).toBe(true);
    if (!straight.ok || !reversed.ok) return;
    for (const [[k, a], [, b]] of figures(straight.result).map((f, i) => [f, figures(reversed.result)[i]!] as const))
      expect(b, k).toBeCloseTo(a, 12);
  });
});

describe("scoreFiles: what it gives for a kind of guess", () => {
  const gold = [
    JSON.stringify({
      id: "q1",
      input: "who lit it?",
      output: [{ answer: "Ada" }, { provenance: [{ wikipedia_id: "7", title: "Lamp", start_paragraph_id: 2, end_paragraph_id: 2 }] }],
    }),
    JSON.stringify({
      id: "q2",
      input: "where?",
      output: [{ answer: "Oslo", provenance: [{ wikipedia_id: "9", title: "Oslo", start_paragraph_id: 1, end_paragraph_id: 1 }] }],
    }),
  ];

  it("a retriever's file (provenance only) gives retrieval figures and no downstream", async () => {
    const guess = [
      JSON.stringify({ id: "q1", output: [{ provenance: [{ wikipedia_id: "7", start_paragraph_id: 2, end_paragraph_id: 2 }] }] }),
      JSON.stringify({
        id: "q2",
        output: [{ provenance: [{ wikipedia_id: "8" }, { wikipedia_id: 9, start_paragraph_id: 3, end_paragraph_id: 3 }] }],
      }),
    ];
    const r = await scoreFiles({ gold: lines("gold", gold), guess: lines("guess", guess), ks: [1, 2], levels: ["page", "paragraph"] });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.result.downstream).toBeUndefined();
    // q1 first hit, q2 the page at rank 2 (R = 1: R-precision 0), its paragraph wrong.
    expect(r.result.page).toMatchObject({ Rprec: 0.5, "precision@1": 0.5, "recall@2": 1, "success_rate@2": 1, "precision@2": 0.5 });
    expect(r.result.paragraph).toMatchObject({ Rprec: 0.5, "recall@2": 0.5 });
  });

  it("a reader's file (answers only) gives downstream figures, the KILT variants all 0 (no provenance); ROUGE-L is not case-folded", async () => {
    const guess = [JSON.stringify({ id: "q1", output: [{ answer: "ada" }] }), JSON.stringify({ id: "q2", output: [{ answer: "Oslo" }] })];
    const r = await scoreFiles({ gold: lines("gold", gold), guess: lines("guess", guess), ks: [1], levels: ["page"] });
    expect(r.ok && r.result).toEqual({
      downstream: {
        kilt: { "KILT-accuracy": 0, "KILT-em": 0, "KILT-f1": 0, "KILT-rougel": 0 },
        downstream: { accuracy: 0.5, em: 1, f1: 1, rougel: expect.closeTo(0.5, 7) },
        retrieval: { Rprec: 0, "recall@5": 0 },
      },
    });
  });
});

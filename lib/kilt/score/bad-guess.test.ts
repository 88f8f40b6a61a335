import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { readLines } from "@/lib/kilt/jsonl";
import { BAD_GUESS_DIR, badGuessCases } from "@/test/bad-guess-cases";
import { scoreFiles } from "./score-files";

const REPO = path.resolve(import.meta.dirname, "../../..");
const DIR = BAD_GUESS_DIR;

const cases = badGuessCases();

/** scoreFiles on test/fixtures/bad-guess/gold.jsonl and `guess`, the files named by their base names. */
function score(guess: string) {
  const lines = (file: string) => readLines(fs.createReadStream(path.join(DIR, file)), { file, maxLineBytes: 1024 * 1024 });
  return scoreFiles({
    gold: { file: "gold.jsonl", lines: lines("gold.jsonl") },
    guess: { file: guess, lines: lines(guess) },
    ks: [1, 5],
    levels: ["page", "paragraph"],
  });
}

describe("bad guess files (test/fixtures/bad-guess)", () => {
  it("has ten kinds and more, each file one change from valid.jsonl, which scores", async () => {
    expect(new Set(cases.map((c) => c.kind)).size).toBeGreaterThanOrEqual(10);
    const valid = await score("valid.jsonl");
    expect(valid.ok && valid.questions).toBe(4);
    expect(valid.ok && valid.kind).toEqual({ provenance: true, answers: true });
  });

  it.each(cases.map((c) => [c.kind, c] as const))("refuses %s with its file, line and field", async (_kind, c) => {
    const scored = await score(c.file);
    expect(scored.ok).toBe(false);
    if (scored.ok) return;
    const where = { file: c.problemFile ?? c.file, line: c.line, field: c.field };
    const problem = scored.problems.find((p) => p.file === where.file && p.line === where.line && p.field === where.field);
    expect(problem, JSON.stringify(scored.problems)).toBeDefined();
    expect(problem!.message).toContain(c.message);
    // No other problem: a guess line that cannot be read names no id, so no gold line is blamed for it.
    expect(
      scored.problems.filter((p) => p !== problem),
      JSON.stringify(scored.problems),
    ).toEqual([]);
  });

  it("exits 1 from kps score, the problem's line on stderr and no figures", async () => {
    const c = cases.find((x) => x.file === "duplicate-id.jsonl")!;
    const guess = path.join(DIR, c.file);
    const run = await promisify(execFile)(
      process.execPath,
      [path.join(REPO, "bin/kps.mjs"), "score", "--gold", path.join(DIR, "gold.jsonl"), "--guess", guess],
      { cwd: REPO },
    ).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(`${guess} line ${c.line}, ${c.field}: `);
    expect(run.stderr).toContain(c.message);
    expect(run.stderr).toContain("nothing scored");
  }, 60_000);
});

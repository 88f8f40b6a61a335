import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runKps } from "@/test/kps-cli";
import { buildProgram } from "../cli";
import { parseKs, problemLines, pythonFloat, scoreReport } from "./score";

const REPO = path.resolve(import.meta.dirname, "../..");
const FIXTURES = path.join(REPO, "test/fixtures/kilt-eval");
const SEEDS = [1, 2, 3, 4, 5, 6].map((n) => `seed-${n}`);

type Dict = { [key: string]: number | Dict };

/** Every figure of a nested dictionary as [path, value], in the dictionary's order. */
function figures(d: Dict, prefix = ""): [string, number][] {
  return Object.entries(d).flatMap(([k, v]) =>
    typeof v === "number" ? [[`${prefix}${k}`, v] as [string, number]] : figures(v, `${prefix}${k}.`),
  );
}

const kps = runKps;

describe("kps score", () => {
  it.each(SEEDS)("prints KILT's figures for %s as --json, every one to 1e-9, keys in KILT's order", async (seed) => {
    const dir = path.join(FIXTURES, seed);
    const expected = JSON.parse(fs.readFileSync(path.join(dir, "expected.json"), "utf8")) as Dict;
    const report = await scoreReport({
      gold: path.join(dir, "gold.jsonl"),
      guess: path.join(dir, "guess.jsonl"),
      ks: parseKs("1,3,5,10"),
      json: true,
    });
    if (!report.ok) throw new Error(report.stderr.join("\n"));
    const got = JSON.parse(report.stdout.join("\n")) as Dict;
    expect(figures(got).map(([k]) => k)).toEqual(figures(expected).map(([k]) => k));
    const want = new Map(figures(expected));
    for (const [key, value] of figures(got))
      expect(Math.abs(value - want.get(key)!), `${seed} ${key}: ${value} vs KILT's ${want.get(key)}`).toBeLessThanOrEqual(1e-9);
  });

  it("prints KILT's very digits in its human output, run as a program (seed-1, the guess in the gold's order)", async () => {
    // KILT sums the questions in the gold's order; kps score in the guess's. With the guess in the
    // gold's order the sums are the same additions, so every figure is KILT's to the last digit (in
    // another order, floating-point addition may differ in the last digit: the --json test holds those to 1e-9).
    const dir = path.join(FIXTURES, "seed-1");
    const expected = JSON.parse(fs.readFileSync(path.join(dir, "expected.json"), "utf8")) as Dict;
    const guessById = new Map(
      fs
        .readFileSync(path.join(dir, "guess.jsonl"), "utf8")
        .trim()
        .split("\n")
        .map((l) => [String((JSON.parse(l) as { id: unknown }).id).trim(), l]),
    );
    const goldIds = fs
      .readFileSync(path.join(dir, "gold.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => String((JSON.parse(l) as { id: unknown }).id).trim());
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "kps-score-"));
    const guess = path.join(tmp, "guess.jsonl");
    fs.writeFileSync(guess, goldIds.map((id) => guessById.get(id)!).join("\n") + "\n");
    const run = await kps(["score", "--gold", path.join(dir, "gold.jsonl"), "--guess", guess, "--ks", "1,3,5,10"]);
    fs.rmSync(tmp, { recursive: true, force: true });
    expect(run.stderr).toMatch(/Scored 31 questions/);
    expect(run.code).toBe(0);
    const blocks = run.stdout.trimEnd().split("\n\n");
    expect(blocks.map((b) => b.split("\n")[0]!.split(" (")[0])).toEqual([
      "page retrieval",
      "paragraph retrieval",
      "downstream: kilt",
      "downstream: downstream",
      "downstream: retrieval",
    ]);
    const d = expected.downstream as Dict;
    [expected.page, expected.paragraph, d.kilt, d.downstream, d.retrieval].forEach((section, i) => {
      const lines = blocks[i]!.split("\n").slice(1);
      expect(lines.map((l) => l.trim().split(/\s+/))).toEqual(figures(section as Dict).map(([k, v]) => [k, pythonFloat(v)]));
    });
    expect(run.stdout).toMatch(/^ {2}Rprec +0\.43548387096774194$/m);
    expect(run.stdout).toContain("0.47849462093189954");
  }, 60_000);

  it("prints one level with --level, and KILT's default ks 1,5,10,20 without --ks", async () => {
    const dir = path.join(FIXTURES, "seed-2");
    const report = await scoreReport({
      gold: path.join(dir, "gold.jsonl"),
      guess: path.join(dir, "guess.jsonl"),
      ks: [1, 5, 10, 20],
      level: "paragraph",
      json: true,
    });
    if (!report.ok) throw new Error(report.stderr.join("\n"));
    const got = JSON.parse(report.stdout.join("\n")) as Dict;
    expect(Object.keys(got)).toEqual(["paragraph", "downstream"]);
    expect(Object.keys(got.paragraph!)).toContain("success_rate@20");
    expect(Object.keys(got.paragraph!)).not.toContain("recall@1");
    const cmd = buildProgram({} as NodeJS.ProcessEnv).commands.find((c) => c.name() === "score");
    expect(cmd?.options.map((o) => o.long)).toEqual(["--gold", "--guess", "--ks", "--level", "--json"]);
    expect(cmd?.options.find((o) => o.long === "--ks")?.defaultValue).toEqual([1, 5, 10, 20]);
  });

  it("names a bad option", async () => {
    const gold = path.join(FIXTURES, "seed-1/gold.jsonl");
    const parse = (...args: string[]) =>
      buildProgram({} as NodeJS.ProcessEnv).parseAsync(["node", "kps", "score", "--gold", gold, "--guess", gold, ...args]);
    for (const ks of ["0", "1,x", "2.5", "-1", "", "1,,5"])
      await expect(parse("--ks", ks), ks).rejects.toThrow(/--ks <list>.*positive integers/);
    await expect(parse("--level", "passage")).rejects.toThrow(/--level <level>.*Allowed choices are page, paragraph/);
    await expect(parse("--guess", "no-such-file.jsonl")).rejects.toThrow(/--guess <file>.*no such file/);
    expect(parseKs("10, 1,5,5")).toEqual([1, 5, 10]);
  });

  it("prints the first 20 problems, then how many more", () => {
    const problems = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ file: "g.jsonl", line: i + 1, field: "id", message: "is a duplicate" }));
    expect(problemLines(problems(3))).toEqual([
      "g.jsonl line 1, id: is a duplicate",
      "g.jsonl line 2, id: is a duplicate",
      "g.jsonl line 3, id: is a duplicate",
    ]);
    expect(problemLines(problems(25)).slice(19)).toEqual(["g.jsonl line 20, id: is a duplicate", "… and 5 more"]);
    expect(problemLines(problems(200)).at(-1)).toBe("… and at least 180 more (the check stops counting at 200)");
    expect(problemLines([{ file: "g.jsonl", line: 0, field: "", message: "is not a valid gzip file" }])).toEqual([
      "g.jsonl: is not a valid gzip file",
    ]);
  });

  it("formats figures as Python's repr does", () => {
    expect([0.43548387096774194, 0, 1, 0.5, 1e-5, 2.5e-5, 0.0001, 1 / 3].map(pythonFloat)).toEqual([
      "0.43548387096774194",
      "0.0",
      "1.0",
      "0.5",
      "1e-05",
      "2.5e-05",
      "0.0001",
      "0.3333333333333333",
    ]);
  });
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { runKps } from "@/test/kps-cli";
import { buildProgram } from "../cli";
import { aggregateReport, type AggregateModel } from "./aggregate";

const REPO = path.resolve(import.meta.dirname, "../..");
const FIXTURES = path.join(REPO, "test/fixtures/aggregation");
const SEEDS = ["seed-1", "seed-2", "seed-3"];
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), "kps-aggregate-"));
afterAll(() => fs.rmSync(TMP, { recursive: true, force: true }));

type Dict = { [key: string]: number | string | Dict };

/** Every leaf of a nested dictionary as [path, value]. */
function leaves(d: Dict, prefix = ""): [string, number | string][] {
  return Object.entries(d).flatMap(([k, v]) =>
    typeof v === "object" ? leaves(v, `${prefix}${k}.`) : [[`${prefix}${k}`, v] as [string, number | string]],
  );
}

function write(name: string, lines: string[]): string {
  const file = path.join(TMP, name);
  fs.writeFileSync(file, lines.join("\n") + "\n");
  return file;
}

const kps = runKps;

async function json(opts: { judgments: string; gold?: string; model: AggregateModel }): Promise<Dict> {
  const report = await aggregateReport({ ...opts, json: true });
  if (!report.ok) throw new Error(report.stderr.join("\n"));
  return JSON.parse(report.stdout.join("\n")) as Dict;
}

describe("kps aggregate", () => {
  describe.each(SEEDS)("%s", (seed) => {
    const dir = path.join(FIXTURES, seed);
    const expected = JSON.parse(fs.readFileSync(path.join(dir, "expected.json"), "utf8")) as Record<string, Dict>;
    const runs = [
      ["dawid_skene", { judgments: path.join(dir, "judgments.jsonl"), model: "dawid-skene" }],
      ["dawid_skene_with_gold", { judgments: path.join(dir, "judgments.jsonl"), gold: path.join(dir, "gold.jsonl"), model: "dawid-skene" }],
      ["one_coin_dawid_skene", { judgments: path.join(dir, "judgments.jsonl"), model: "one-coin" }],
    ] as const;
    it.each(runs)("--json prints expected.json's %s: the same keys, every figure to 1e-6, every label", async (key, opts) => {
      const got = await json(opts);
      const want = expected[key]!;
      // The sections in the order p_sufficient, labels, priors, errors | skills; inside each, sorted keys as in expected.json.
      expect(Object.keys(got)).toEqual(["p_sufficient", "labels", "priors", key.startsWith("one_coin") ? "skills" : "errors"]);
      expect(
        leaves(got)
          .map(([k]) => k)
          .sort(),
      ).toEqual(
        leaves(want)
          .map(([k]) => k)
          .sort(),
      );
      for (const section of Object.keys(got))
        expect(
          leaves(got[section] as Dict).map(([k]) => k),
          section,
        ).toEqual(leaves(want[section] as Dict).map(([k]) => k));
      const byKey = new Map(leaves(want));
      for (const [k, v] of leaves(got)) {
        const w = byKey.get(k)!;
        if (typeof w === "string") expect(v, k).toBe(w);
        else expect(Math.abs((v as number) - w), `${seed} ${key} ${k}: ${v} vs crowd-kit's ${w}`).toBeLessThanOrEqual(1e-6);
      }
    });
  });

  it("runs as a program: the human summary on stdout, the count on stderr, exit 0", async () => {
    const dir = path.join(FIXTURES, "seed-1");
    const run = await kps([
      "aggregate",
      "--judgments",
      path.join(dir, "judgments.jsonl"),
      "--gold",
      path.join(dir, "gold.jsonl"),
      "--model",
      "dawid-skene",
    ]);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^Aggregated 900 judgments with dawid-skene in \d+ iterations \(34 gold passages clamped\)\.$/m);
    expect(run.stdout).toMatch(/^Dawid–Skene: 300 passages, 11 annotators, 34 gold passages clamped$/m);
    expect(run.stdout).toMatch(/^priors: sufficient 0\.3216, insufficient 0\.6784$/m);
    // The four always-"sufficient" annotators of seed 1 come last, at the prior of "sufficient".
    const ranked = run.stdout
      .split("annotators by skill")[1]!
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => l.trim().split(/\s+/));
    expect(ranked).toHaveLength(11);
    expect(ranked.slice(-4).map((r) => r[1])).toEqual(["0.3216", "0.3216", "0.3216", "0.3216"]);
    expect(Number(ranked[0]![1])).toBeGreaterThan(0.9);
  }, 60_000);

  it("one-coin's human summary ranks by skill; a gzipped judgments file reads the same", async () => {
    const dir = path.join(FIXTURES, "seed-2");
    const gz = path.join(TMP, "judgments.jsonl.gz");
    fs.writeFileSync(gz, gzipSync(fs.readFileSync(path.join(dir, "judgments.jsonl"))));
    expect(await json({ judgments: gz, model: "one-coin" })).toEqual(
      await json({ judgments: path.join(dir, "judgments.jsonl"), model: "one-coin" }),
    );
    const report = await aggregateReport({ judgments: gz, model: "one-coin", json: false });
    if (!report.ok) throw new Error(report.stderr.join("\n"));
    expect(report.stdout[0]).toBe("one-coin Dawid–Skene: 400 passages, 14 annotators");
    const skills = report.stdout
      .slice(report.stdout.indexOf("annotators by skill (P(right))") + 1)
      .map((l) => Number(l.trim().split(/\s+/)[1]));
    expect(skills).toHaveLength(14);
    expect([...skills].sort((a, b) => b - a)).toEqual(skills);
  });

  it("names every bad line as file line N, field: message, and prints no figures", async () => {
    const judgments = write("bad.jsonl", [
      '{"passage": "p1", "annotator": "a", "verdict": "sufficient"}',
      '{"passage": "p1", "annotator": "b", "verdict": "maybe"}',
      "not json",
      '{"passage": "", "annotator": "c", "verdict": "insufficient"}',
      '{"passage": "p2", "annotator": 7, "verdict": "insufficient"}',
      '{"passage": "p2", "verdict": "insufficient"}',
      "[1, 2]",
    ]);
    const gold = write("bad-gold.jsonl", [
      '{"passage": "p1", "verdict": "sufficient"}',
      '{"passage": "p1", "verdict": "insufficient"}',
      '{"passage": "p2", "verdict": null}',
    ]);
    const report = await aggregateReport({ judgments, gold, model: "dawid-skene", json: true });
    expect(report.ok).toBe(false);
    if (report.ok) return;
    expect(report.stderr).toEqual([
      `${judgments} line 2, verdict: must be "sufficient" or "insufficient"`,
      expect.stringMatching(new RegExp(`^${judgments} line 3, \\(line\\): is not valid JSON`)),
      `${judgments} line 4, passage: must not be empty`,
      `${judgments} line 5, annotator: must be a string`,
      `${judgments} line 6, annotator: is required`,
      expect.stringMatching(new RegExp(`^${judgments} line 7, \\(line\\): `)),
      `${gold} line 2, verdict: contradicts line 1, which gives passage p1 as sufficient`,
      `${gold} line 3, verdict: must be "sufficient" or "insufficient"`,
    ]);
  });

  it("exits 1 on a bad file with the problems on stderr and nothing on stdout", async () => {
    const judgments = write("bad-run.jsonl", ['{"passage": "p1", "annotator": "a", "verdict": "SUFFICIENT"}']);
    const run = await kps(["aggregate", "--judgments", judgments, "--model", "one-coin", "--json"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(`${judgments} line 1, verdict: must be "sufficient" or "insufficient"`);
    expect(run.stderr).toContain("kps: the files have problems: nothing aggregated.");
  }, 60_000);

  it("refuses an empty judgments file, and says which gold passages had no judgment", async () => {
    const empty = write("empty.jsonl", [""]);
    const report = await aggregateReport({ judgments: empty, model: "dawid-skene", json: true });
    expect(report).toEqual({ ok: false, stderr: [`${empty}: has no judgments`] });
    const judgments = write("small.jsonl", [
      '{"passage": "p1", "annotator": "a", "verdict": "sufficient"}',
      '{"passage": "p2", "annotator": "a", "verdict": "insufficient"}',
    ]);
    const gold = write("small-gold.jsonl", ['{"passage": "p2", "verdict": "sufficient"}', '{"passage": "p9", "verdict": "sufficient"}']);
    const ok = await aggregateReport({ judgments, gold, model: "dawid-skene", json: true });
    if (!ok.ok) throw new Error(ok.stderr.join("\n"));
    expect(ok.summary).toMatch(/\(1 gold passage clamped; 1 gold passage has no judgment and was ignored\)/);
    expect((JSON.parse(ok.stdout[0]!) as { labels: Dict }).labels).toEqual({ p1: "sufficient", p2: "sufficient" });
  });

  it("names a bad option", async () => {
    const file = path.join(FIXTURES, "seed-1/judgments.jsonl");
    const parse = (...args: string[]) => buildProgram({} as NodeJS.ProcessEnv).parseAsync(["node", "kps", "aggregate", ...args]);
    await expect(parse("--judgments", file, "--model", "glad")).rejects.toThrow(
      /--model <model>.*Allowed choices are dawid-skene, one-coin/,
    );
    await expect(parse("--judgments", file)).rejects.toThrow(/required option '--model <model>' not specified/);
    await expect(parse("--judgments", "no-such-file.jsonl", "--model", "one-coin")).rejects.toThrow(/--judgments <file>.*no such file/);
    await expect(parse("--model", "one-coin")).rejects.toThrow(/required option '--judgments <file>'/);
    const cmd = buildProgram({} as NodeJS.ProcessEnv).commands.find((c) => c.name() === "aggregate");
    expect(cmd?.options.map((o) => o.long)).toEqual(["--judgments", "--gold", "--model", "--json"]);
  });
});

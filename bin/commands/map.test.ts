import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runKps } from "@/test/kps-cli";
import { mapReport } from "./map";

const REPO = path.resolve(import.meta.dirname, "../..");
const FIXTURES = path.join(REPO, "test/fixtures/kilt-mapping");
const KNOWLEDGE = path.join(REPO, "db/demo/knowledge.jsonl");

const lines = (file: string) =>
  fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

function itemsFile(rows: string[]): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "kps-map-")), "items.jsonl");
  fs.writeFileSync(file, rows.join("\n") + "\n");
  return file;
}

describe("kps map", () => {
  it.each(["seed-1", "seed-2"])("%s: KILT's paragraph and BLEU for every item at --min-bleu 0, with the page id", async (seed) => {
    const items = path.join(FIXTURES, seed, "items.jsonl");
    const report = await mapReport({ knowledge: KNOWLEDGE, items, minBleu: "0" });
    if (!report.ok) throw new Error(report.stderr.join("\n"));
    const got = report.stdout.map((l) => JSON.parse(l) as Record<string, number | string>);
    const expected = lines(path.join(FIXTURES, seed, "expected.jsonl"));
    const pages = new Map(lines(items).map((i) => [i.id, i.wikipedia_id]));
    expect(got.map((g) => g.id)).toEqual(expected.map((e) => e.id));
    for (const [i, want] of expected.entries()) {
      const g = got[i]!;
      expect(Object.keys(g)).toEqual(["id", "wikipedia_id", "paragraph_id", "bleu", "start_character", "end_character"]);
      expect([g.wikipedia_id, g.paragraph_id]).toEqual([pages.get(want.id), want.paragraph_id]);
      expect(Math.abs((g.bleu as number) - (want.bleu as number))).toBeLessThanOrEqual(1e-9);
    }
    expect(report.summary).toMatch(/^Mapped 40 of 40 items \(\d+ found as written\); 0 under --min-bleu 0 dropped\.$/);
  });

  it("drops the items under --min-bleu (default 0.5), as KILT kept only mappings of BLEU ≥ 0.5", async () => {
    const items = path.join(FIXTURES, "seed-1", "items.jsonl");
    const expected = lines(path.join(FIXTURES, "seed-1", "expected.jsonl"));
    const kept = expected.filter((e) => (e.bleu as number) >= 0.5).map((e) => e.id);
    const res = await runKps(["map", "--knowledge", KNOWLEDGE, "--items", items]);
    expect(res.code, res.stderr).toBe(0);
    expect(
      res.stdout
        .trim()
        .split("\n")
        .map((l) => (JSON.parse(l) as { id: string }).id),
    ).toEqual(kept);
    expect(res.stderr).toContain(`Mapped ${kept.length} of 40 items`);
    expect(res.stderr).toContain(`${40 - kept.length} under --min-bleu 0.5 dropped`);
  });

  it("names the file, line and field of each bad item, and maps nothing", async () => {
    const file = itemsFile([
      JSON.stringify({ id: "a", evidence: "the northern breakwater" }),
      JSON.stringify({ id: "b", wikipedia_id: "61237001", evidence: "   " }),
      JSON.stringify({ id: "c", wikipedia_id: "61237001", evidence: "a\u0000b" }),
      JSON.stringify({ id: "d", wikipedia_id: "61237001", evidence: "x ".repeat(2_500_000) }),
      JSON.stringify({ id: "e", wikipedia_id: "999", evidence: "lighthouse" }),
      JSON.stringify({ id: "f", title: "Velmora Lighthouse", evidence: "the northern breakwater" }),
      "{not json",
    ]);
    const res = await runKps(["map", "--knowledge", KNOWLEDGE, "--items", file]);
    expect(res.code).not.toBe(0);
    expect(res.stdout).toBe("");
    const err = res.stderr.split("\n");
    expect(err).toContain(`${file} line 1, wikipedia_id: is missing: an item needs its page, as wikipedia_id or title`);
    expect(err).toContain(`${file} line 2, evidence: must not be empty`);
    expect(err).toContain(`${file} line 3, evidence: contains a NUL character (\\u0000), which cannot be stored`);
    expect(err).toContain(`${file} line 4, evidence: is longer than 100,000 characters`);
    expect(err).toContain(`${file} line 5, wikipedia_id: names no page of ${KNOWLEDGE} ("999")`);
    expect(err.some((l) => l.startsWith(`${file} line 6`))).toBe(false);
    expect(err.some((l) => l.startsWith(`${file} line 7, (line): is not valid JSON`))).toBe(true);
    expect(res.stderr).toContain("the files have problems: nothing mapped.");
  });

  it("finds a page by title; --min-bleu outside 0–1 is refused", async () => {
    const file = itemsFile([JSON.stringify({ id: 7, title: "Velmora Lighthouse", evidence: "the Northern breakwater" })]);
    const ok = await runKps(["map", "--knowledge", KNOWLEDGE, "--items", file]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ id: "7", wikipedia_id: "61237001", paragraph_id: 1, bleu: 1 });
    const bad = await runKps(["map", "--knowledge", KNOWLEDGE, "--items", file, "--min-bleu", "2"]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("--min-bleu: must be between 0 and 1");
  });

  it("reads only the pages named, by id or title, wherever the keys are in the line (escapes, numbers, anchors first)", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kps-map-"));
    const knowledge = path.join(dir, "knowledge.jsonl");
    const pages = [
      { wikipedia_id: "1", wikipedia_title: 'A "quoted" title', text: ['A "quoted" title\n', "The lamp was first lit in 1871."] },
      {
        anchors: [{ wikipedia_id: "1", text: "x" }],
        text: ["Two\n", "A granite tower on the breakwater."],
        wikipedia_title: "Two",
        wikipedia_id: 2,
      },
      { wikipedia_id: "3", wikipedia_title: "Three", text: ["Three\n", "Nothing here."] },
    ];
    fs.writeFileSync(knowledge, pages.map((p) => JSON.stringify(p)).join("\n") + "\n");
    const items = itemsFile([
      JSON.stringify({ id: "q", title: 'A "quoted" title', evidence: "first lit in 1871" }),
      JSON.stringify({ id: "n", wikipedia_id: 2, evidence: "granite tower on the breakwater" }),
    ]);
    const res = await runKps(["map", "--knowledge", knowledge, "--items", items]);
    expect(res.code, res.stderr).toBe(0);
    expect(
      res.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as unknown),
    ).toEqual([
      { id: "q", wikipedia_id: "1", paragraph_id: 1, bleu: 1, start_character: 13, end_character: 30 },
      { id: "n", wikipedia_id: "2", paragraph_id: 1, bleu: 1, start_character: 2, end_character: 33 },
    ]);
  });
});

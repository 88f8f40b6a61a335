import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { EvidenceMapReport } from "@/lib/campaign/import/evidence-map.contract";
import { checkEvidenceOptions, evidenceLines, evidenceParts } from "./batch-evidence";

const report: EvidenceMapReport = {
  file: "q.jsonl",
  minBleu: 0.5,
  items: 3,
  exact: 1,
  fuzzy: 0,
  dropped: 2,
  unknownPages: 1,
  pagesBy: { id: 0, title: 1, redirect: 1, folded: 0 },
  sharedTitles: 0,
  sharedTitleItems: [],
  bleuBins: [1, 0, 0, 0, 0, 0, 0, 0, 0, 1],
  droppedItems: [
    {
      line: 2,
      id: "q2",
      field: "output[0].provenance[0]",
      evidence: "far off",
      page: "Velmora",
      reason: "below-threshold",
      best: { wikipediaId: "9", title: "Velmora", paragraphId: 1, startCharacter: 0, endCharacter: 7, bleu: 0.04 },
    },
    { line: 3, id: "q3", field: "output[0].provenance[0]", evidence: "x", page: "Nowhere", reason: "unknown-page", best: null },
  ],
};

describe("kps batch import --map-evidence", () => {
  it("sends mapEvidence, minBleu and the redirects file; refuses the options without --map-evidence or a --min-bleu out of 0–1", () => {
    expect(evidenceParts({ mapEvidence: true, minBleu: 0.7, redirects: "r.tsv" })).toEqual([
      { name: "mapEvidence", value: "on" },
      { name: "minBleu", value: "0.7" },
      { name: "redirects", file: "r.tsv" },
    ]);
    expect(evidenceParts({})).toEqual([]);
    expect(() => checkEvidenceOptions({ minBleu: 0.7, redirects: "r.tsv" })).toThrow(
      /--min-bleu: is for evidence given as text: give it with --map-evidence\n {2}--redirects: is for/,
    );
    expect(() => checkEvidenceOptions({ mapEvidence: true, minBleu: 1.5 })).toThrow(/--min-bleu: must be between 0 and 1/);
    expect(() => checkEvidenceOptions({ mapEvidence: true, minBleu: 0.2, dropped: "d.jsonl" })).not.toThrow();
  });

  it("prints the report, the unknown pages by line, and writes the dropped items to --dropped", () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "kps-")), "dropped.jsonl");
    const lines = evidenceLines(report, { mapEvidence: true, dropped: file });
    expect(lines[0]).toBe(
      "Evidence given as text in q.jsonl: 3 items, 1 mapped exactly, 0 mapped fuzzily (BLEU ≥ 0.5), 2 dropped (1 whose page is not in the knowledge source).",
    );
    expect(lines).toContain("Pages not in the knowledge source: line 3 (Nowhere).");
    expect(lines.at(-1)).toBe(`Dropped items written to ${file}.`);
    const written = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(written).toEqual([
      expect.objectContaining({
        line: 2,
        id: "q2",
        reason: "below-threshold",
        best_wikipedia_id: "9",
        best_paragraph_id: 1,
        best_bleu: 0.04,
      }),
      expect.objectContaining({ line: 3, reason: "unknown-page", best_wikipedia_id: null, best_bleu: null }),
    ]);
    expect(evidenceLines(null, {})).toEqual([]);
  });

  it("names the items found by a title several pages share once folded, the first 20 by line, and counts the rest", () => {
    const shared = (line: number) => ({ line, id: `q${line}`, title: "ETE", pages: 2, wikipediaId: "12", pageTitle: "Été" });
    const none = evidenceLines({ ...report, dropped: 0, droppedItems: [] }, { mapEvidence: true });
    expect(none.some((l) => l.startsWith("Titles that several pages share"))).toBe(false);
    const lines = evidenceLines(
      { ...report, dropped: 0, droppedItems: [], sharedTitles: 23, sharedTitleItems: Array.from({ length: 20 }, (_, i) => shared(i + 1)) },
      { mapEvidence: true },
    );
    const line = lines.find((l) => l.startsWith("Titles that several pages share"))!;
    expect(line).toContain('line 1 ("ETE": 2 pages; 12 "Été" taken), line 2 (');
    expect(line).toContain("give a wikipedia_id or the exact title to choose");
    expect(line.endsWith('line 20 ("ETE": 2 pages; 12 "Été" taken), and 3 more.')).toBe(true);
  });
});

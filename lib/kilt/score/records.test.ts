import { describe, expect, it } from "vitest";
import { rankDetail } from "./detail";
import { parseGoldLine, parseGuessLine } from "./records";
import { gold, guess } from "@/test/kilt-records";

describe("parseGuessLine names the field of each bad value", () => {
  const cases: [unknown, string, RegExp][] = [
    [{ output: [{ answer: "x" }] }, "id", /is missing/],
    [{ id: true, output: [{ answer: "x" }] }, "id", /string/],
    [{ id: "  ", output: [{ answer: "x" }] }, "id", /empty/],
    // eslint-disable-next-line no-loss-of-precision -- the point: a JSON id past 2^53 arrives rounded
    [{ id: 12345678901234567890, output: [{ answer: "x" }] }, "id", /2\^53/],
    [{ id: "q", output: [{ answer: "x" }, { answer: "y" }] }, "output", /exactly one/],
    [{ id: "q", output: [] }, "output", /exactly one/],
    [{ id: "q", output: [{}] }, "output[0]", /neither/],
    [{ id: "q", output: [{ answer: 3 }] }, "output[0].answer", /string/],
    [{ id: "q", output: [{ provenance: {} }] }, "output[0].provenance", /array/],
    [{ id: "q", output: [{ provenance: [{ wikipedia_id: { x: 1 } }] }] }, "output[0].provenance[0].wikipedia_id", /string/],
    [
      { id: "q", output: [{ provenance: [{ wikipedia_id: "1", start_paragraph_id: 1.5 }] }] },
      "output[0].provenance[0].start_paragraph_id",
      /non-negative integer/,
    ],
    [
      { id: "q", output: [{ provenance: [{ wikipedia_id: "1", end_paragraph_id: -1 }] }] },
      "output[0].provenance[0].end_paragraph_id",
      /non-negative integer/,
    ],
    [[1, 2], "(line)", /object/],
  ];
  for (const [value, field, message] of cases) {
    it(`${JSON.stringify(value)} → ${field}`, () => {
      const r = parseGuessLine(value);
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.field).toBe(field);
      expect(r.message).toMatch(message);
    });
  }

  it("keeps ids and rank keys as Python's str(v).strip() makes them", () => {
    const g = guess({ id: 42, output: [{ answer: " x ", provenance: [{ wikipedia_id: " 7 ", start_paragraph_id: 3 }] }] });
    expect(g).toEqual({
      id: "42",
      answer: " x ",
      provenance: [{ wikipedia_id: "7", start_paragraph_id: "3", end_paragraph_id: null, title: null, text: null }],
    });
  });
});

describe("parseGoldLine", () => {
  it("collects KILT's gold answers and titles: stripped, non-empty, once", () => {
    const g = gold({
      id: " q ",
      input: "i",
      output: [
        { answer: " Ada " },
        { answer: "" },
        { answer: "Ada" },
        { provenance: [{ wikipedia_id: "1", title: " T " }, { title: "" }] },
      ],
    });
    expect(g.id).toBe("q");
    expect(g.answers).toEqual(["Ada"]);
    expect(g.titles).toEqual(["T"]);
    expect(g.outputs.map((o) => o.provenance?.length ?? null)).toEqual([null, null, null, 2]);
  });

  it("refuses a line without output entries (KILT's evaluator would crash on it)", () => {
    const r = parseGoldLine({ id: "q", input: "i", output: [] });
    expect(r.ok || r.field).toBe("output");
  });
});

describe("rankDetail", () => {
  it("marks hits, the sets they advance and the first complete set at KILT's rank", () => {
    // Two alternative sets: {A, B} together, or {C} alone.
    const g = gold({
      id: "q",
      input: "i",
      output: [{ provenance: [{ wikipedia_id: "A" }, { wikipedia_id: "B" }] }, { provenance: [{ wikipedia_id: "C" }] }],
    });
    const p = guess({
      id: "q",
      output: [
        {
          provenance: [
            { wikipedia_id: "A", title: "Alpha" },
            { wikipedia_id: "X" },
            { wikipedia_id: "A" },
            { wikipedia_id: "B" },
            { wikipedia_id: "C" },
          ],
        },
      ],
    });
    const d = rankDetail(g, p, "page");
    expect(d.sets).toEqual([
      { index: 0, members: ["A", "B"] },
      { index: 1, members: ["C"] },
    ]);
    expect(d.ranked.map((r) => [r.key, r.sets, r.completes])).toEqual([
      ["A", [0], null],
      ["X", [], null],
      ["B", [0], 0],
      ["C", [1], 1],
    ]);
    expect(d.ranked[0]!.title).toBe("Alpha");
    // KILT's rank: [X=false, set0=true (at B, A's point removed), C=true] → first complete at 2.
    expect(d.firstCompleteRank).toBe(2);
    // R-precision: best of |[A, X] ∩ {A, B}| / 2 = 0.5 and |[A] ∩ {C}| / 1 = 0.
    expect(d.rprec).toBe(0.5);
  });
});

import { describe, expect, it } from "vitest";
import { goldLinesOf, goldsFromLines, goldsOf } from "./golds";

const original =
  '{"id": 12345678901234567890, "input": "who lit it", "output": [{"answer": "Ada", "provenance": [{"wikipedia_id": "1", "start_paragraph_id": 2, "end_paragraph_id": 2}]}, {"provenance": [{"wikipedia_id": "9"}]}, {"answer": "Ada Holm", "meta": {"x": 1}}]}';
const entry = JSON.stringify({
  provenance: [{ wikipedia_id: "5", title: "Five", start_paragraph_id: 3, end_paragraph_id: 4, start_character: 0, end_character: 9 }],
});

describe("a question's three gold lines", () => {
  it("original: the imported line, its id a string (digits past 2^53 kept)", () => {
    const lines = goldLinesOf({ originalLine: original, status: "none-endorsed", entries: [] });
    expect(lines.original).toBe(original.replace("12345678901234567890", '"12345678901234567890"'));
    expect(lines.endorsed).toBeNull();
    expect(lines.both).toBeNull();
  });

  it("endorsed: the answers without their provenance, then the endorsed entries; both: the export's line", () => {
    const lines = goldLinesOf({ originalLine: original, status: "endorsed", entries: [entry] });
    expect(JSON.parse(lines.endorsed!)).toEqual({
      id: "12345678901234567890",
      input: "who lit it",
      output: [{ answer: "Ada" }, { answer: "Ada Holm", meta: { x: 1 } }, JSON.parse(entry)],
    });
    expect(lines.both).toBe(original.replace("12345678901234567890", '"12345678901234567890"').replace(/\]\}$/, `, ${entry}]}`));
    const golds = goldsOf({ originalLine: original, status: "endorsed", entries: [entry] });
    expect(golds.endorsed!.outputs.map((o) => o.provenance?.map((p) => p.wikipedia_id) ?? null)).toEqual([null, null, ["5"]]);
    expect(golds.endorsed!.titles).toEqual(["Five"]);
    expect(golds.both!.outputs).toHaveLength(4);
    expect(golds.original!.answers).toEqual(["Ada", "Ada Holm"]);
  });

  it("an unanswerable question is in the original gold only", () => {
    expect(goldsOf({ originalLine: original, status: "unanswerable", entries: [] })).toMatchObject({ endorsed: null, both: null });
  });
});

describe("a question's gold records put together from its parsed parts", () => {
  // A seeded generator of original lines and entries, valid and not, to hold goldsOf to the records
  // its three lines give the scorer (goldsFromLines), which it builds without writing them.
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const item = () =>
    pick([
      { wikipedia_id: "5", title: "Five", start_paragraph_id: 3, end_paragraph_id: 4 },
      { wikipedia_id: 6, title: " Six ", start_paragraph_id: 1, end_paragraph_id: 1 },
      { wikipedia_id: "5", title: "Five" },
      { wikipedia_id: "7", title: "  " },
      { wikipedia_id: "8", title: null, text: "some text" },
      { wikipedia_id: "9", start_paragraph_id: -1 },
      { wikipedia_id: -3 },
    ]);
  const output = () =>
    pick<unknown>([
      { answer: "Ada" },
      { answer: " Ada " },
      { answer: "Holm", meta: { x: 1 } },
      { answer: "  " },
      { answer: null },
      { answer: 5 },
      { provenance: [item(), item()] },
      { answer: "Ada", provenance: [item()] },
      { provenance: [] },
      { meta: "nothing" },
      7,
      null,
    ]);
  const originalLine = () => {
    const id = pick<unknown>([12, "12345678901234567890", " q1 ", "q2", 1.5, "  ", true, null]);
    const input = pick<unknown>(["who lit it", "who lit it", 3]);
    const outputs = Array.from({ length: Math.floor(rand() * 4) }, output);
    const head = `{"id": ${typeof id === "string" && id.startsWith("1234") ? id : JSON.stringify(id)}, "input": ${JSON.stringify(input)}`;
    const shape = rand();
    if (shape < 0.05) return `${head}}`; // no output
    if (shape < 0.1) return `${head}, "output": [${JSON.stringify({ answer: "Lost" })}], "output": ${JSON.stringify(outputs)}}`; // a repeated key
    return `${head}, "output": ${JSON.stringify(outputs)}}`;
  };
  const entry = () =>
    JSON.stringify(
      pick<unknown>([
        { provenance: [item()] },
        { provenance: [item(), item()] },
        { answer: "Ada", provenance: [item()] },
        { answer: "Eve", provenance: [item()] },
        {},
        { provenance: "no" },
      ]),
    );

  it("equals the records of its lines for every kind of line and entry, refused ones included", () => {
    let compared = 0;
    const outcomes = new Set<string>();
    for (let i = 0; i < 3000; i++) {
      const q = {
        originalLine: originalLine(),
        status: pick(["endorsed", "endorsed", "none-endorsed", "unanswerable"] as const),
        entries: Array.from({ length: Math.floor(rand() * 3) }, entry),
      };
      const fromLines = goldsFromLines(q);
      expect(goldsOf(q), JSON.stringify(q)).toEqual(fromLines);
      outcomes.add(["original", "endorsed", "both"].map((g) => (fromLines[g as "original"] ? "1" : "0")).join(""));
      compared++;
    }
    expect(compared).toBe(3000);
    // Every way a question falls out of a gold was met: refused originals (whose endorsed line may still be read), entries, empty endorsed lines.
    expect([...outcomes].sort()).toEqual(["000", "010", "011", "100", "101", "111"]);
  });
});

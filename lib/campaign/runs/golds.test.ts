import { describe, expect, it } from "vitest";
import { goldLinesOf, goldsOf } from "./golds";

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

import { describe, expect, it } from "vitest";
import { appendOutputEntries, topLevelValues } from "./line-edit";

const nq =
  '{"id": "-3290814144789249484", "input": "when was velmora lighthouse first lit", "output": [{"answer": "1871", "provenance": [{"wikipedia_id": "61237001", "start_paragraph_id": 1, "start_character": 176, "end_paragraph_id": 1, "end_character": 180, "bleu_score": 1.0}]}, {"answer": "in 1871"}], "meta": {"annotation_id": 13805127637452916481, "note": "caf\\u00e9 [x] {y}"}}';

describe("editing a KILT line as text", () => {
  it("finds top-level values, skipping nested brackets and brackets inside strings", () => {
    const spans = topLevelValues(nq);
    expect([...spans.keys()]).toEqual(["id", "input", "output", "meta"]);
    const [s, e] = spans.get("meta")!;
    expect(nq.slice(s, e)).toBe('{"annotation_id": 13805127637452916481, "note": "caf\\u00e9 [x] {y}"}');
  });

  it("appends entries to output and keeps every other byte, big integers included", () => {
    const out = appendOutputEntries(nq, ['{"provenance": [{"wikipedia_id": "1"}]}', '{"provenance": [{"wikipedia_id": "2"}]}']);
    expect(out).toBe(
      nq.replace(
        '{"answer": "in 1871"}]',
        '{"answer": "in 1871"}, {"provenance": [{"wikipedia_id": "1"}]}, {"provenance": [{"wikipedia_id": "2"}]}]',
      ),
    );
    expect(out).toContain("13805127637452916481");
    expect(JSON.parse(out).output).toHaveLength(4);
  });

  it("fills an empty output list, creates a missing one, and writes a numeric id as a string", () => {
    expect(appendOutputEntries('{"id": "7", "input": "q", "output": [ ]}', ['{"a": 1}'])).toBe(
      '{"id": "7", "input": "q", "output": [ {"a": 1}]}',
    );
    expect(appendOutputEntries('{"id":"7","input":"q"}', ['{"a": 1}'])).toBe('{"id":"7","input":"q", "output": [{"a": 1}]}');
    expect(appendOutputEntries('{"id": 4417, "input": "q", "output": []}', ['{"a": 1}'])).toBe(
      '{"id": "4417", "input": "q", "output": [{"a": 1}]}',
    );
  });

  it("refuses text that is not a JSON object", () => {
    expect(() => topLevelValues('["id"]')).toThrow();
    expect(() => topLevelValues('{"id": "unterminated}')).toThrow();
  });
});

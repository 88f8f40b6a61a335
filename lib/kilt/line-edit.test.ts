import { describe, expect, it } from "vitest";
import { appendOutputEntries, appendPartialEvidence, topLevelValues } from "./line-edit";

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

  it("appends partial evidence to meta.partial_evidence: in the list, a new key in meta, or a new meta; every other byte kept", () => {
    const item = '{"wikipedia_id": "9", "start_paragraph_id": 2, "end_paragraph_id": 2}';
    const withMeta = appendPartialEvidence(nq, [item]);
    expect(withMeta).toBe(nq.replace('[x] {y}"}', `[x] {y}", "partial_evidence": [${item}]}`));
    expect(JSON.parse(withMeta).meta.partial_evidence).toEqual([JSON.parse(item)]);
    // An ELI5 line with partial evidence already keeps it first.
    const eli5 = '{"id": "1", "input": "q", "output": [], "meta": {"partial_evidence": [{"wikipedia_id": "8"}]}}';
    expect(appendPartialEvidence(eli5, [item, item])).toBe(eli5.replace('"8"}]', `"8"}, ${item}, ${item}]`));
    expect(appendPartialEvidence('{"id": "1", "meta": {}}', [item])).toBe(`{"id": "1", "meta": {"partial_evidence": [${item}]}}`);
    expect(appendPartialEvidence('{"id": "1", "meta": null}', [item])).toBe(`{"id": "1", "meta": {"partial_evidence": [${item}]}}`);
    expect(appendPartialEvidence('{"id": "1", "input": "q"}', [item])).toBe(
      `{"id": "1", "input": "q", "meta": {"partial_evidence": [${item}]}}`,
    );
    // Nothing to add: the line as it was.
    expect(appendPartialEvidence(nq, [])).toBe(nq);
  });
});

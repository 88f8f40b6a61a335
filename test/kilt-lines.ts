// KILT task and knowledge files for the importers' tests, built from records in memory.

/** An import source yielding `text` in one chunk. */
export function source(text: string | Buffer) {
  return (async function* () {
    yield typeof text === "string" ? Buffer.from(text) : text;
  })();
}

/** JSON Lines: one record a line, and a newline after the last. */
export function jsonl(records: unknown[]): string {
  return records.map((r) => JSON.stringify(r)).join("\n") + "\n";
}

/**
 * A task line for question `id` whose one output cites paragraph ranges [start, end] of `page`
 * (a candidates line, or a question's own provenance); `fields` go between the id and the output.
 */
export function provenanceLine(id: string, page: string, ranges: [number, number][], fields: Record<string, unknown> = {}) {
  const provenance = ranges.map(([start, end]) => ({ wikipedia_id: page, start_paragraph_id: start, end_paragraph_id: end }));
  return { id, ...fields, output: [{ provenance }] };
}

import { expect } from "vitest";

/** KILT's evaluator input checks (DESIGN invariant 7) over a whole exported file. */
export function expectValidKiltFile(text: string): Record<string, unknown>[] {
  expect(text.endsWith("\n") || text === "").toBe(true);
  const lines = text === "" ? [] : text.slice(0, -1).split("\n");
  const ids = new Set<string>();
  return lines.map((line, i) => {
    expect(line.trim(), `line ${i + 1} is blank`).not.toBe("");
    const row = JSON.parse(line) as { id: unknown; input: unknown; output: { provenance?: { wikipedia_id: unknown }[] }[] };
    expect(typeof row.id, `line ${i + 1}: id`).toBe("string");
    expect(ids.has(String(row.id).trim()), `line ${i + 1}: duplicate id`).toBe(false);
    ids.add(String(row.id).trim());
    expect(typeof row.input, `line ${i + 1}: input`).toBe("string");
    expect(Array.isArray(row.output) && row.output.length > 0, `line ${i + 1}: output`).toBe(true);
    for (const entry of row.output) {
      if (entry.provenance !== undefined) {
        expect(entry.provenance.length, `line ${i + 1}: empty provenance`).toBeGreaterThan(0);
        for (const item of entry.provenance) expect(typeof item.wikipedia_id).toBe("string");
      }
    }
    return row as unknown as Record<string, unknown>;
  });
}

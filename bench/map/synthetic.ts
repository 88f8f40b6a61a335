// Synthetic items for bench/map: evidence strings cut from the synthetic knowledge source's pages
// (bench/import/synthetic.ts) and changed as another Wikipedia version would change them, plus
// unrelated strings; deterministic for a seed. Item i draws from its own PRNG stream.
import fs from "node:fs";
import path from "node:path";
import { Rng } from "../rng";
import { FIRST_WIKIPEDIA_ID, syntheticPage, writeKnowledgeFile } from "../import/synthetic";

export const KINDS = ["as written", "restyled", "one word changed", "two words changed", "unrelated"] as const;
export type Kind = (typeof KINDS)[number];
const SHARES: [Kind, number][] = [
  ["as written", 0.25],
  ["restyled", 0.15],
  ["one word changed", 0.35],
  ["two words changed", 0.15],
  ["unrelated", 0.1],
];

export interface MapFiles {
  knowledge: string;
  items: string;
  knowledgeBytes: number;
  kinds: Record<Kind, number>;
}

function kindOf(rng: Rng): Kind {
  let x = rng.next();
  for (const [kind, share] of SHARES) if ((x -= share) < 0) return kind;
  return "unrelated";
}

/** A run of 5–25 words of a content paragraph (not the title, not a section header) of page `index`. */
function windowOf(rng: Rng, seed: number, index: number, cache: Map<number, string[]>): string[] {
  let text = cache.get(index);
  if (!text) cache.set(index, (text = syntheticPage(seed, index).text));
  const content = text.filter((p, i) => i > 0 && !p.startsWith("Section::::"));
  const words = rng.pick(content).trim().split(/\s+/);
  const length = Math.min(words.length, rng.int(5, 25));
  const start = rng.int(0, words.length - length);
  return words.slice(start, start + length);
}

function changeWord(rng: Rng, words: string[], other: readonly string[]): void {
  const at = rng.int(0, words.length - 1);
  const op = rng.int(0, 2);
  if (op === 0 && words.length > 2) words.splice(at, 1);
  else if (op === 1) words[at] = rng.pick(other);
  else words.splice(at, 0, rng.pick(other));
}

/** Item i: its page, its kind and its evidence. */
export function syntheticItem(seed: number, pages: number, i: number, cache: Map<number, string[]>) {
  const rng = new Rng((seed * 1_000_003 + i * 7919) >>> 0);
  const index = rng.int(0, pages - 1);
  const kind = kindOf(rng);
  const other = windowOf(rng, seed, (index + rng.int(1, pages - 1)) % pages, cache);
  let words = windowOf(rng, seed, index, cache);
  if (kind === "unrelated") words = other;
  if (kind === "restyled") words = words.map((w) => w.toLowerCase().replace(/[,.]/g, "")).filter(Boolean);
  if (kind === "one word changed") changeWord(rng, words, other);
  if (kind === "two words changed") for (let k = 0; k < 2; k++) changeWord(rng, words, other);
  return { id: `m-${i}`, wikipedia_id: String(FIRST_WIKIPEDIA_ID + index), evidence: words.join(" "), kind };
}

/** Writes the knowledge source (`pages` pages) and `items` items into `dir`. */
export async function writeMapFiles(dir: string, pages: number, items: number, seed: number): Promise<MapFiles> {
  const knowledge = path.join(dir, "knowledge.jsonl");
  const { bytes } = await writeKnowledgeFile({ pages, out: knowledge, seed });
  const file = path.join(dir, "items.jsonl");
  const kinds = Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>;
  const cache = new Map<number, string[]>();
  const lines: string[] = [];
  for (let i = 0; i < items; i++) {
    const { kind, ...item } = syntheticItem(seed, pages, i, cache);
    kinds[kind]++;
    lines.push(JSON.stringify(item));
  }
  fs.writeFileSync(file, lines.join("\n") + "\n");
  return { knowledge, items: file, knowledgeBytes: bytes, kinds };
}

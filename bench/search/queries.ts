// The search benchmark's queries and their timing: title prefixes of real titles, and 2-term and
// 5-term text queries drawn from the words of random content paragraphs (function words left out).
import { syntheticPage } from "../import/synthetic";

export interface Latency {
  p50: number;
  p95: number;
  results: number;
}

const FUNCTION_WORDS = new Set(
  "the of and in a to was is for on by with as from at that which his her it an were are he she also its their after first one two has had been this be or into other most during between under".split(
    " ",
  ),
);

/** `count` queries of each kind from pages 0..pages-1 of the synthetic source, deterministic for the seed. */
export function benchQueries(pages: number, seed: number, count: number): { title: string[]; twoTerm: string[]; fiveTerm: string[] } {
  let s = seed * 7919;
  const rand = () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  const title: string[] = [];
  const twoTerm: string[] = [];
  const fiveTerm: string[] = [];
  const wordsOf = () => {
    const p = syntheticPage(seed, Math.floor(rand() * pages));
    const paras = p.text.slice(1).filter((x) => !x.startsWith("Section::::"));
    const text = paras[Math.floor(rand() * paras.length)] ?? p.wikipedia_title;
    return { title: p.wikipedia_title, words: (text.match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !FUNCTION_WORDS.has(w.toLowerCase())) };
  };
  const pick = (words: string[], n: number) => Array.from({ length: n }, () => words[Math.floor(rand() * words.length)] ?? "x").join(" ");
  for (let i = 0; i < count; i++) {
    const a = wordsOf();
    title.push(
      i % 2
        ? a.title.slice(0, 3 + Math.floor(rand() * 6))
        : a.title
            .split(" ")
            .slice(0, 1 + Math.floor(rand() * 2))
            .join(" "),
    );
    twoTerm.push(pick(a.words, 2));
    fiveTerm.push(pick(wordsOf().words, 5));
  }
  return { title, twoTerm, fiveTerm };
}

/** Runs the queries one at a time (after two warm-up runs); p50 and p95 in ms and the mean results per query. */
export async function timeEach(queries: string[], run: (q: string) => Promise<number>): Promise<Latency> {
  for (const q of queries.slice(0, 2)) await run(q);
  const ms: number[] = [];
  let results = 0;
  for (const q of queries) {
    const t0 = performance.now();
    results += await run(q);
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  const at = (f: number) => ms[Math.min(ms.length - 1, Math.floor(f * ms.length))]!;
  return { p50: at(0.5), p95: at(0.95), results: results / queries.length };
}

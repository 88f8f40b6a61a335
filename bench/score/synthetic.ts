// Synthetic KILT gold and guess files for bench/score, deterministic for a seed. Question i comes
// from its own PRNG stream (seed, i), so the guess file can be written in a shuffled order without
// holding the questions in memory.
//
// What they exercise, as the shared fixtures do: alternative evidence sets (1–3, some of two pages,
// now and then a repeated set), paragraph ids, 19-digit integer ids as strings, answers (some empty,
// some differing from the gold by case, articles or punctuation), guesses in another order than
// the gold, 10–20 provenance items per guess with text (some without), duplicates in the ranked
// list, wikipedia_id sometimes a JSON number, titles with non-ASCII letters.
import fs from "node:fs";
import path from "node:path";
import { Rng as BaseRng } from "../rng";

const WORDS = [
  "harbour",
  "lantern",
  "river",
  "coast",
  "prize",
  "ferry",
  "observatory",
  "bridge",
  "tower",
  "valley",
  "north",
  "south",
  "founded",
  "won",
  "built",
  "lit",
  "metres",
  "island",
  "Zürich",
  "São",
  "Tomé",
  "Kōbe",
  "Ełk",
  "Øresund",
  "Ilse",
  "Marrow",
  "Solvang",
  "Noir",
  "Café",
  "Ode",
  "Tides",
  "keeper",
  "signal",
  "station",
  "1887",
  "1902",
  "2,400",
  "museum",
  "festival",
  "canal",
  "mill",
  "abbey",
  "glacier",
  "summit",
  "delta",
  "orchard",
  "quarry",
  "market",
  "palace",
  "garden",
  "railway",
  "lighthouse",
  "chapel",
  "fortress",
] as const;
const FUNCTION_WORDS = ["the", "a", "an", "of", "in", "by", "and", "to", "was", "is"] as const;
/** Pages are drawn from 1..PAGES, so guesses hit gold pages of other questions too. */
const PAGES = 50_000;

function mix(a: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x632be5ab, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  return h >>> 0;
}

/** The shared PRNG, with words drawn from the vocabulary above. */
class Rng extends BaseRng {
  words(lo: number, hi: number): string {
    const n = this.int(lo, hi);
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(this.chance(0.25) ? this.pick(FUNCTION_WORDS) : this.pick(WORDS));
    return out.join(" ");
  }
}

/** A page's title, the same wherever the page appears. */
function titleOf(page: number): string {
  return `${WORDS[page % WORDS.length]} ${WORDS[Math.floor(page / WORDS.length) % WORDS.length]}${page % 7 === 0 ? ` (${page})` : ""}`;
}

interface Item {
  wikipedia_id: string | number;
  title: string;
  start_paragraph_id: number;
  end_paragraph_id: number;
  start_character?: number;
  end_character?: number;
  bleu_score?: number;
  text?: string;
}

function goldItem(rng: Rng): Item {
  const page = rng.int(1, PAGES);
  const start = rng.int(1, 20);
  return {
    wikipedia_id: String(page),
    title: titleOf(page),
    start_paragraph_id: start,
    start_character: rng.int(0, 40),
    end_paragraph_id: start + (rng.chance(0.2) ? 1 : 0),
    end_character: rng.int(50, 200),
    bleu_score: 1.0,
  };
}

/** An answer as a system might give it: the gold one, the gold one restyled, or something else. */
function guessAnswer(rng: Rng, answers: string[]): string {
  const gold = answers.length ? rng.pick(answers) : "";
  const r = rng.next();
  if (r < 0.03) return "";
  if (r < 0.35 && gold) return gold;
  if (r < 0.5 && gold) return rng.chance(0.5) ? `The ${gold.toUpperCase()}.` : `${gold}!`;
  if (r < 0.65 && gold) return `${gold.split(" ")[0]} ${rng.words(1, 2)}`;
  return rng.words(1, 4);
}

/** Question `i`: its gold line and its guess line (JSON text, without the newline). */
export function syntheticQuestion(seed: number, i: number): { gold: string; guess: string } {
  const rng = new Rng(mix(seed, i));
  const id = rng.chance(0.4) ? `${1_000_000_000 + i}${String(rng.int(0, 999_999_999)).padStart(9, "0")}` : `q${seed}-${i}`;
  // The first answer is never empty: KILT's eval_downstream.py fails on a question without one (max() of nothing).
  const answers = Array.from({ length: rng.int(1, 3) }, (_, k) => (k && rng.chance(0.1) ? "" : rng.words(1, 3)));
  const sets: Item[][] = Array.from({ length: rng.int(1, 3) }, () => Array.from({ length: rng.chance(0.2) ? 2 : 1 }, () => goldItem(rng)));
  if (rng.chance(0.1)) sets.push(sets[0]!.map((p) => ({ ...p })));
  const goldTitles = sets.flat().map((p) => p.title);
  const input = `${rng.words(3, 6)}${rng.chance(0.3) ? ` ${rng.pick(goldTitles)}` : ""} ${rng.words(1, 3)}?`;
  const output = [...answers.map((answer) => ({ answer })), ...sets.map((provenance) => ({ provenance }))];
  const gold = JSON.stringify({ id, input, output });

  const ranked: Item[] = [];
  const n = rng.int(10, 20);
  const hits = rng.chance(0.6) ? sets.flat() : [];
  for (let k = 0; k < n; k++) {
    let item: Item;
    if (hits.length && rng.chance(0.35)) {
      const hit = rng.pick(hits);
      item = {
        wikipedia_id: hit.wikipedia_id,
        title: hit.title,
        start_paragraph_id: rng.chance(0.6) ? hit.start_paragraph_id : rng.int(1, 20),
        end_paragraph_id: 0,
      };
      item.end_paragraph_id = item.start_paragraph_id === hit.start_paragraph_id ? hit.end_paragraph_id : item.start_paragraph_id;
    } else if (ranked.length && rng.chance(0.08)) {
      item = { ...ranked[rng.int(0, ranked.length - 1)]! }; // a duplicate
    } else {
      const page = rng.int(1, PAGES);
      const start = rng.int(1, 20);
      item = { wikipedia_id: String(page), title: titleOf(page), start_paragraph_id: start, end_paragraph_id: start };
    }
    if (rng.chance(0.1)) item.wikipedia_id = Number(item.wikipedia_id);
    if (!rng.chance(0.05)) {
      const parts = [rng.words(6, 12)];
      if (rng.chance(0.3) && answers[0]) parts.push(rng.pick(answers));
      if (rng.chance(0.25)) parts.push(rng.pick(goldTitles));
      parts.push(rng.words(4, 10));
      item.text = parts.join(" ");
    }
    ranked.push(item);
  }
  const guess = JSON.stringify({ id, output: [{ answer: guessAnswer(rng, answers), provenance: ranked }] });
  return { gold, guess };
}

/** A permutation of 0..n-1 for the guess file's order. */
function shuffled(n: number, seed: number): Uint32Array {
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  const rng = new Rng(mix(seed, 0x5eed));
  for (let i = n - 1; i > 0; i--) {
    const j = rng.int(0, i);
    const t = order[i]!;
    order[i] = order[j]!;
    order[j] = t;
  }
  return order;
}

/** Writes lines to a file in ~1 MB writes. */
async function writeLines(file: string, line: (k: number) => string, n: number): Promise<number> {
  const fd = fs.openSync(file, "w");
  let bytes = 0;
  try {
    let buf: string[] = [];
    let size = 0;
    for (let k = 0; k < n; k++) {
      const l = line(k);
      buf.push(l);
      size += l.length + 1;
      if (size > 1 << 20 || k === n - 1) {
        const chunk = Buffer.from(buf.join("\n") + "\n");
        fs.writeSync(fd, chunk);
        bytes += chunk.length;
        buf = [];
        size = 0;
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  return bytes;
}

/** gold.jsonl (question order) and guess.jsonl (shuffled, or in the gold's order) in `dir`; their sizes in bytes. */
export async function writeScoreFiles(
  dir: string,
  questions: number,
  seed: number,
  shuffle = true,
): Promise<{ gold: string; guess: string; goldBytes: number; guessBytes: number }> {
  const gold = path.join(dir, "gold.jsonl");
  const guess = path.join(dir, "guess.jsonl");
  const goldBytes = await writeLines(gold, (i) => syntheticQuestion(seed, i).gold, questions);
  const order = shuffle ? shuffled(questions, seed) : undefined;
  const guessBytes = await writeLines(guess, (k) => syntheticQuestion(seed, order ? order[k]! : k).guess, questions);
  return { gold, guess, goldBytes, guessBytes };
}

import { rememberedOf } from "./normalized";
import { pySplit } from "./python";

/**
 * ROUGE-L as KILT takes it: `Rouge().get_scores(hyp, ref, avg=True)["rouge-l"]["f"]` of the `rouge`
 * package (pltrdy/rouge, `rouge_l_summary_level`), with its own tokenizer: sentences split on ".",
 * words on single spaces, word *sets* (its default `exclusive=True`), the union of the LCS words of
 * each reference sentence with every hypothesis sentence, and F = 2PR / (P + R + 1e-8). An empty
 * hypothesis or reference (no sentence) raises in Python; KILT catches it as 0. Pure.
 */

/** `[" ".join(_.split()) for _ in s.split(".") if len(_) > 0]`: a piece of spaces stays, as "". */
function sentencesOf(s: string): string[] {
  return s
    .split(".")
    .filter((piece) => piece.length > 0)
    .map((piece) => pySplit(piece).join(" "));
}

/** A text as the package reads it: its sentences' words, and how many distinct words in all. Null: no sentence (the package raises). */
export interface RougeText {
  readonly sentences: readonly (readonly string[])[];
  readonly distinct: number;
}

export function rougeTextOf(s: string): RougeText | null {
  const sentences = sentencesOf(s).map((sentence) => sentence.split(" "));
  if (sentences.length === 0) return null;
  return { sentences, distinct: new Set(sentences.flat()).size };
}

/** `rougeTextOf` of a gold's answer, remembered (normalized.ts): each run's answer is scored against it. */
export const rougeTextOfGold: (s: string) => RougeText | null = rememberedOf(rougeTextOf);

/** `_recon_lcs(x, y)`: the words of one longest common subsequence, backtracked as the package does. */
function lcsWords(x: readonly string[], y: readonly string[]): string[] {
  const n = x.length;
  const m = y.length;
  const w = m + 1;
  const table = new Uint32Array((n + 1) * w);
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      table[i * w + j] = x[i - 1] === y[j - 1] ? table[(i - 1) * w + j - 1]! + 1 : Math.max(table[(i - 1) * w + j]!, table[i * w + j - 1]!);
    }
  }
  const out: string[] = [];
  let i = n;
  let j = m;
  while (i > 0 && j > 0) {
    if (x[i - 1] === y[j - 1]) {
      out.push(x[i - 1]!);
      i--;
      j--;
    } else if (table[(i - 1) * w + j]! > table[i * w + j - 1]!) i--;
    else j--;
  }
  return out;
}

/** The `rouge-l` F score of a hypothesis against one reference; 0 where the package raises. */
export function rougeL(hypothesis: string, reference: string): number {
  return rougeLOf(rougeTextOf(hypothesis), rougeTextOf(reference));
}

/** `rougeL` of the texts as `rougeTextOf` reads them. */
export function rougeLOf(hyp: RougeText | null, ref: RougeText | null): number {
  if (hyp === null || ref === null) return 0;
  const union = new Set<string>();
  let llcs = 0;
  for (const refWords of ref.sentences) {
    const before = union.size;
    for (const hypWords of hyp.sentences) for (const word of lcsWords(refWords, hypWords)) union.add(word);
    llcs += union.size - before;
  }
  const r = llcs / ref.distinct;
  const p = llcs / hyp.distinct;
  return 2.0 * ((p * r) / (p + r + 1e-8));
}

/**
 * Sentences of KILT paragraphs, for the judging screen's sentence keys. Pure functions over the text:
 * offsets in code points like the rest of lib/kilt. A rule, not a model: a sentence ends at `.`, `!`
 * or `?` (with any closing quotes and brackets after it) followed by white space and then something
 * that can start a sentence — except after a known abbreviation ("St.", "Dr.", "e.g.") or an
 * initial ("J. R. Tolkien"), where the full stop ends the word, not the sentence.
 */
import type { PassageWord, WordRange } from "./words";

/** A sentence of a paragraph: code points, end exclusive (the terminal punctuation included, trailing space not). */
export interface SentenceBounds {
  start: number;
  end: number;
}

/** Abbreviations whose full stop does not end a sentence (compared lower-case, without the stop). */
const ABBREVIATIONS = new Set([
  "st",
  "mt",
  "ft",
  "dr",
  "mr",
  "mrs",
  "ms",
  "prof",
  "sr",
  "jr",
  "rev",
  "gen",
  "col",
  "capt",
  "lt",
  "sgt",
  "gov",
  "sen",
  "rep",
  "no",
  "nos",
  "vol",
  "vols",
  "pp",
  "p",
  "ch",
  "fig",
  "figs",
  "ed",
  "eds",
  "approx",
  "ca",
  "cf",
  "vs",
  "etc",
  "al",
  "inc",
  "ltd",
  "co",
  "corp",
  "jan",
  "feb",
  "mar",
  "apr",
  "jun",
  "jul",
  "aug",
  "sep",
  "sept",
  "oct",
  "nov",
  "dec",
  "e.g",
  "i.e",
  "u.s",
  "u.k",
  "a.d",
  "b.c",
]);

const TERMINAL = /[.!?…]/u;
const CLOSING = /[)\]"'”’»]/u;
const SPACE = /\s/u;
/** What a new sentence may start with: a letter that is not lower-case, a digit, an opening quote or bracket. */
const STARTER = /[\p{Lu}\p{Lt}\p{Lo}\p{N}"'“‘«([]/u;

/** The word before a full stop at `dot` (letters, digits and inner dots), e.g. "St" or "e.g". */
function wordBefore(cps: readonly string[], dot: number): string {
  let i = dot;
  while (i > 0 && /[\p{L}\p{N}.]/u.test(cps[i - 1]!)) i--;
  return cps.slice(i, dot).join("");
}

function isAbbreviation(word: string): boolean {
  if (ABBREVIATIONS.has(word.toLowerCase())) return true;
  // An initial: one capital letter ("J." in "J. Smith").
  return /^\p{Lu}$/u.test(word);
}

/** The sentences of a text, in order, covering every non-space code point of it. */
export function sentencesOf(text: string): SentenceBounds[] {
  const cps = Array.from(text);
  const out: SentenceBounds[] = [];
  let start = 0;
  const push = (end: number) => {
    let s = start;
    while (s < end && SPACE.test(cps[s]!)) s++;
    let e = end;
    while (e > s && SPACE.test(cps[e - 1]!)) e--;
    if (e > s) out.push({ start: s, end: e });
  };
  for (let i = 0; i < cps.length; i++) {
    if (!TERMINAL.test(cps[i]!)) continue;
    let end = i + 1;
    while (end < cps.length && (TERMINAL.test(cps[end]!) || CLOSING.test(cps[end]!))) end++;
    // It must be followed by white space and then a sentence start (or the end of the text).
    let next = end;
    while (next < cps.length && SPACE.test(cps[next]!)) next++;
    if (next < cps.length && (next === end || !STARTER.test(cps[next]!))) continue;
    if (cps[i] === "." && end === i + 1 && isAbbreviation(wordBefore(cps, i)) && next < cps.length) continue;
    push(end);
    start = end;
    i = end - 1;
  }
  push(cps.length);
  return out;
}

/**
 * The sentences of a passage as ranges of its selectable words (inclusive), in reading order. A
 * sentence never crosses a paragraph; one that holds no selectable word (a bullet prefix, a section
 * header) is left out.
 */
export function passageSentences(paragraphs: readonly { id: number; text: string }[], words: readonly PassageWord[]): WordRange[] {
  const out: WordRange[] = [];
  let w = 0;
  for (const p of paragraphs) {
    for (const s of sentencesOf(p.text)) {
      while (w < words.length && (words[w]!.paragraphId < p.id || (words[w]!.paragraphId === p.id && words[w]!.start < s.start))) w++;
      const first = w;
      while (w < words.length && words[w]!.paragraphId === p.id && words[w]!.start < s.end) w++;
      if (w > first) out.push({ first, last: w - 1 });
    }
  }
  return out;
}

export type SentenceMove =
  /** S: the sentence at the highlight's start (the first sentence without one); again, the next sentence. */
  | "sentence"
  /** Ctrl+Shift+→: the end edge to the end of its sentence, or of the next one when it is there already. */
  | "extend-sentence"
  /** Ctrl+Shift+←: the end edge back to the end of the previous sentence, never before the start edge. */
  | "shrink-sentence";

/** The index of the sentence that holds word `word` (sentences are in order and disjoint). */
function sentenceAt(sentences: readonly WordRange[], word: number): number {
  const i = sentences.findIndex((s) => s.last >= word);
  return i < 0 ? sentences.length - 1 : i;
}

/** The highlight after a sentence move, over a passage's sentences (from passageSentences). */
export function moveBySentence(range: WordRange | null, move: SentenceMove, sentences: readonly WordRange[]): WordRange | null {
  if (sentences.length === 0) return null;
  if (!range) return sentences[0]!;
  const first = Math.min(range.first, range.last);
  const last = Math.max(range.first, range.last);
  switch (move) {
    case "sentence": {
      const i = sentenceAt(sentences, first);
      const here = sentences[i]!;
      const isWhole = here.first === first && here.last === last;
      return isWhole && i + 1 < sentences.length ? sentences[i + 1]! : here;
    }
    case "extend-sentence": {
      const i = sentenceAt(sentences, last);
      const target = sentences[i]!.last === last && i + 1 < sentences.length ? sentences[i + 1]! : sentences[i]!;
      return { first, last: target.last };
    }
    case "shrink-sentence": {
      const before = sentences.filter((s) => s.last < last).at(-1);
      return { first, last: before && before.last >= first ? before.last : first };
    }
  }
}

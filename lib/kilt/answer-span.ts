import { answerWords, normalizeAnswer, normalizeUnpunctuated, PYTHON_WHITESPACE, unpunctuated } from "./answer-overlap";

/**
 * Where a question's answers occur in a text, in code points: KILT's `normalize_answer` (ported in
 * answer-overlap.ts) applied to a text while remembering, for every normalised character, the code
 * point of the text it came from. Pure.
 *
 * The steps are those of `normalizeAnswer`, in its order, each one kept position by position:
 *   lower      the whole text (so context-dependent mappings such as the Greek final sigma agree with
 *              `normalizeAnswer`), each code point owning the code points its own lowering gives
 *              (İ → i + U+0307: two characters, one origin);
 *   punctuation the 32 ASCII marks of Python's `string.punctuation` are dropped ("1871." → "1871",
 *              "o'neil" → "oneil": a word joined over a dropped mark stays one word);
 *   articles   `a`, `an`, `the` between non-word characters (Unicode letters, digits, `_`), matched on
 *              the text without punctuation as Python's `re.sub` does, become blanks;
 *   words      the runs between Python's whitespace.
 * A token's `start` is the code point its first character came from, its `end` one past the code
 * point its last character came from: the token's text in the original, accents, marks and all.
 */

export interface PositionedToken {
  /** The normalised word. */
  token: string;
  /** Code-point offsets in the original text, end exclusive. */
  start: number;
  end: number;
}

/** Python's `string.punctuation`. */
const PUNCTUATION = new Set(Array.from("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"));
/** Python's `\b(a|an|the)\b` on a str (Unicode word characters), as in answer-overlap.ts. */
const ARTICLES = /(?<![\p{L}\p{N}_])(?:a|an|the)(?![\p{L}\p{N}_])/gu;
const WHITESPACE = new RegExp(`^(?:${PYTHON_WHITESPACE.source})$`, "u");

/** The normalised words of `text` (exactly `normalizeAnswer(text).split(" ")`), each with the code points it came from. */
export function normalizedTokens(text: string): PositionedToken[] {
  const points = Array.from(text);
  // Lower case: the whole text's lowering, shared out by how many code points each one lowers to.
  const ownLengths = points.map((p) => Array.from(p.toLowerCase()).length);
  const whole = Array.from(text.toLowerCase());
  const total = ownLengths.reduce((n, l) => n + l, 0);
  const chars: string[] = [];
  const origin: number[] = [];
  let k = 0;
  points.forEach((p, i) => {
    const lowered = total === whole.length ? whole.slice(k, k + ownLengths[i]!) : Array.from(p.toLowerCase());
    k += ownLengths[i]!;
    for (const c of lowered) {
      if (PUNCTUATION.has(c)) continue;
      chars.push(c);
      origin.push(i);
    }
  });
  // Articles, on the text without punctuation (UTF-16 offsets mapped back to characters).
  const joined = chars.join("");
  const charAt: number[] = [];
  chars.forEach((c, i) => {
    for (let u = 0; u < c.length; u++) charAt.push(i);
  });
  const blank = new Array<boolean>(chars.length).fill(false);
  for (const m of joined.matchAll(ARTICLES)) {
    for (let u = m.index; u < m.index + m[0].length; u++) blank[charAt[u]!] = true;
  }
  // Words: the runs between whitespace.
  const tokens: PositionedToken[] = [];
  let current: { chars: string[]; first: number; last: number } | undefined;
  chars.forEach((c, i) => {
    if (blank[i] || WHITESPACE.test(c)) {
      if (current) tokens.push({ token: current.chars.join(""), start: origin[current.first]!, end: origin[current.last]! + 1 });
      current = undefined;
      return;
    }
    if (current) {
      current.chars.push(c);
      current.last = i;
    } else current = { chars: [c], first: i, last: i };
  });
  if (current) tokens.push({ token: current.chars.join(""), start: origin[current.first]!, end: origin[current.last]! + 1 });
  return tokens;
}

/** The answers' normalised word sequences, leaving out those with no word once normalised (say, "The"). */
export function answerSequences(answers: readonly string[]): string[][] {
  return answers.map((a) => answerWords(normalizeAnswer(a))).filter((words) => words.length > 0);
}

/**
 * Whether a text holds one of the answers: an answer's normalised word sequence occurs, whole words
 * in a row, in the text's normalised words ("1871" is in "first lit in 1871.", not in "18711").
 */
export function holdsAnswer(text: string, answers: readonly string[][]): boolean {
  // Each normalised word is a run of the text lower-cased without punctuation (articles and
  // whitespace only split it further): an answer whose first word is not in that text is not held.
  // (A sequence without words, which answerSequences leaves out, goes on to the full check.)
  const bare = unpunctuated(text);
  if (!answers.some((words) => words.length === 0 || bare.includes(words[0]!))) return false;
  const normalized = ` ${normalizeUnpunctuated(bare)} `;
  return answers.some((words) => normalized.includes(` ${words.join(" ")} `));
}

/** Every occurrence of every answer in `text`, as code-point ranges of the text (end exclusive), in order of start then end. */
export function answerOccurrences(text: string, answers: readonly string[][]): { start: number; end: number }[] {
  const tokens = normalizedTokens(text);
  const found = new Map<string, { start: number; end: number }>();
  for (const words of answers) {
    for (let i = 0; i + words.length <= tokens.length; i++) {
      if (words.every((w, j) => tokens[i + j]!.token === w)) {
        const o = { start: tokens[i]!.start, end: tokens[i + words.length - 1]!.end };
        found.set(`${o.start}:${o.end}`, o);
      }
    }
  }
  return [...found.values()].sort((a, b) => a.start - b.start || a.end - b.end);
}

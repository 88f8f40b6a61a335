/**
 * KILT's answer normalisation (`normalize_answer` in facebookresearch/KILT kilt/eval_downstream.py,
 * the SQuAD one) and the answer-overlap rule the batch import filters candidates with. Pure.
 *
 *   def normalize_answer(s):
 *       remove_articles: re.sub(r"\b(a|an|the)\b", " ", text)
 *       white_space_fix: " ".join(text.split())
 *       remove_punc:     "".join(ch for ch in text if ch not in set(string.punctuation))
 *       lower:           text.lower()
 *       return white_space_fix(remove_articles(remove_punc(lower(s))))
 *
 * Ported exactly, Python's semantics kept where JavaScript's differ: `string.punctuation` is the 32
 * ASCII marks only; Python 3's `\b` on a str is Unicode-aware (a word character is a letter, a digit
 * or `_` of any script: "éthe" keeps its "the"), so the boundaries are look-arounds on `\p{L}\p{N}_`
 * rather than JavaScript's ASCII-only `\b`; `str.split()` splits on Python's whitespace (which takes
 * U+001C–U+001F and U+0085 but not U+FEFF, unlike JavaScript's `\s`).
 */

/** Python's `string.punctuation`: the 32 ASCII marks (single UTF-16 units, so a character class is exact). */
const PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;
/** Python's `\b(a|an|the)\b` on a str (Unicode word characters). */
const ARTICLES = /(?<![\p{L}\p{N}_])(?:a|an|the)(?![\p{L}\p{N}_])/gu;
/** The characters Python's `str.isspace()` accepts, which `str.split()` splits on. */
// eslint-disable-next-line no-control-regex -- Python counts U+001C to U+001F as whitespace
export const PYTHON_WHITESPACE = /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/u;

/** KILT's `normalize_answer`: lower case, no ASCII punctuation, no articles a/an/the, whitespace collapsed. */
export function normalizeAnswer(s: string): string {
  return normalizeUnpunctuated(unpunctuated(s));
}

/** `normalizeAnswer`'s first two steps: the text lower-cased, without ASCII punctuation. */
export const unpunctuated = (s: string): string => s.toLowerCase().replace(PUNCTUATION, "");

/** `normalizeAnswer`'s last two steps, on an `unpunctuated` text: no articles, whitespace collapsed. */
export const normalizeUnpunctuated = (noPunctuation: string): string => answerWords(noPunctuation.replace(ARTICLES, " ")).join(" ");

/** Python's `text.split()`: the words between runs of whitespace, none empty. */
export function answerWords(text: string): string[] {
  return text.split(PYTHON_WHITESPACE).filter((w) => w !== "");
}

/** The set of normalised tokens of a text (`normalize_answer(s).split()`, as KILT's F1 takes them). */
export function answerTokens(s: string): Set<string> {
  return new Set(answerWords(normalizeAnswer(s)));
}

/**
 * The share of an answer's tokens found in a passage: |tokens(answer) ∩ tokens(passage)| / |tokens(answer)|,
 * both sets of normalised tokens. Null when the answer has no token once normalised (say, "The").
 */
export function answerOverlap(answer: ReadonlySet<string>, passage: ReadonlySet<string>): number | null {
  if (answer.size === 0) return null;
  let shared = 0;
  for (const token of answer) if (passage.has(token)) shared++;
  return shared / answer.size;
}

/**
 * The import's `minAnswerOverlap` rule: a passage passes when, for at least one of the question's
 * answers, the share of that answer's tokens the passage holds is at least `threshold`. It is the
 * answer's share, not the passage's: a paragraph holding a one-word answer among a hundred words
 * passes (the passage's own share would be 1%). A question with no answer (none with a token once
 * normalised) keeps every passage.
 */
export function passesAnswerOverlap(answers: readonly ReadonlySet<string>[], passageText: string, threshold: number): boolean {
  const scored = answers.filter((a) => a.size > 0);
  if (scored.length === 0) return true;
  const passage = answerTokens(passageText);
  return scored.some((a) => answerOverlap(a, passage)! >= threshold);
}

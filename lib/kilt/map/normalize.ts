/**
 * KILT's text normalisation for `match_answer` (kilt/kilt_utils.py), with Python's semantics:
 * `str.lower`, `string.punctuation`, `str.split()` on Unicode whitespace, and the removal of every
 * character of 3 or more UTF-8 bytes (code points from U+0800 up).
 */

const PUNCTUATION = new Set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~");

/** Python's `str.isspace` for one code point (what `str.split()` splits on). */
export function isPythonSpace(cp: number): boolean {
  if (cp <= 0x20) return cp === 0x20 || (cp >= 0x09 && cp <= 0x0d) || (cp >= 0x1c && cp <= 0x1f);
  if (cp < 0x85) return false;
  return (
    cp === 0x85 ||
    cp === 0xa0 ||
    cp === 0x1680 ||
    (cp >= 0x2000 && cp <= 0x200a) ||
    cp === 0x2028 ||
    cp === 0x2029 ||
    cp === 0x202f ||
    cp === 0x205f ||
    cp === 0x3000
  );
}

/** KILT's `normalize_answer`: lower case, then every ASCII punctuation character removed. */
export function normalizeAnswer(text: string): string {
  const lower = text.toLowerCase();
  let i = 0;
  while (i < lower.length && !PUNCTUATION.has(lower[i]!)) i++;
  if (i === lower.length) return lower;
  let out = lower.slice(0, i);
  for (; i < lower.length; i++) if (!PUNCTUATION.has(lower[i]!)) out += lower[i];
  return out;
}

/** The characters of 1 or 2 UTF-8 bytes only (KILT drops the rest: curly quotes, dashes, CJK, emoji). */
export function dropWideCharacters(text: string): string {
  let i = 0;
  while (i < text.length && text.charCodeAt(i) < 0x800) i++;
  if (i === text.length) return text;
  let out = text.slice(0, i);
  for (const ch of text.slice(i)) if (ch.codePointAt(0)! < 0x800) out += ch;
  return out;
}

export interface RawToken {
  text: string;
  /** Code-point offset of the token's first character in the text, and one past its last. */
  start: number;
  end: number;
}

/** Python's `text.split()`: the runs of non-whitespace, with their code-point offsets. */
export function splitTokens(text: string): RawToken[] {
  const tokens: RawToken[] = [];
  let cp = 0;
  let from = -1;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.codePointAt(i)!;
    if (isPythonSpace(code)) {
      if (from >= 0) tokens.push({ text: text.slice(from, i), start, end: cp });
      from = -1;
    } else if (from < 0) {
      from = i;
      start = cp;
    }
    if (code > 0xffff) i++;
    cp++;
  }
  if (from >= 0) tokens.push({ text: text.slice(from), start, end: cp });
  return tokens;
}

/** The evidence's tokens as `match_answer` makes them: normalised, split, wide characters dropped, lower case. */
export function answerTokensOf(evidence: string): string[] {
  return splitTokens(normalizeAnswer(evidence)).map((t) => dropWideCharacters(t.text).toLowerCase());
}

/** A paragraph token as `match_answer` makes it: wide characters dropped, then normalised (may be ""). */
export function paragraphTokenOf(raw: string): string {
  return normalizeAnswer(dropWideCharacters(raw));
}

/**
 * Words of KILT paragraphs, with offsets in Unicode code points (KILT's unit, Python string indexes),
 * and the helpers the judging screen needs to turn a highlight into the span the server checks.
 * Pure functions: no DOM, usable in the browser and in tests.
 */
import { sliceCodePoints } from "./codepoints";

/** A word of a paragraph: `start`/`end` in code points, end exclusive. */
export interface Word {
  start: number;
  end: number;
  text: string;
}

/** A word of a passage: a word of one of its paragraphs. */
export interface PassageWord extends Word {
  paragraphId: number;
}

export interface ParagraphText {
  id: number;
  text: string;
}

/** The span the judgment API takes: code points, end exclusive; `text` as the server slices it. */
export interface Span {
  startParagraphId: number;
  startCharacter: number;
  endParagraphId: number;
  endCharacter: number;
  text: string;
}

/** A highlight as word indexes into a passage's word list, inclusive on both ends. */
export interface WordRange {
  first: number;
  last: number;
}

let segmenter: Intl.Segmenter | undefined;
function wordSegmenter(): Intl.Segmenter {
  // No locale: the root rules, which include the dictionaries for CJK and Thai.
  segmenter ??= new Intl.Segmenter(undefined, { granularity: "word" });
  return segmenter;
}

/** Whitespace, punctuation and separators only: not a word. Symbols (emoji, ©, +) do count. */
const NOT_A_WORD = /^[\p{White_Space}\p{P}\p{Z}\p{Cc}\p{Cf}]*$/u;

/** Code points in a string (a surrogate pair counts once). */
function codePointCount(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // A high surrogate followed by a low one is one code point.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/**
 * The word tokens of a text, in order, with code-point offsets. Uses Intl.Segmenter's word
 * boundaries, so CJK is split by dictionary, a letter and its combining marks stay together, and
 * right-to-left and astral-plane letters are whole words; emoji and other symbols are tokens too.
 */
export function wordsOf(text: string): Word[] {
  const words: Word[] = [];
  let cp = 0; // code points before the current segment
  for (const s of wordSegmenter().segment(text)) {
    const length = codePointCount(s.segment);
    if (s.isWordLike || !NOT_A_WORD.test(s.segment)) words.push({ start: cp, end: cp + length, text: s.segment });
    cp += length;
  }
  return words;
}

/** A UTF-16 offset (what DOM selections and `String.prototype.slice` count) as a code-point offset. */
export function utf16ToCodePoint(text: string, utf16Offset: number): number {
  const end = Math.max(0, Math.min(utf16Offset, text.length));
  // An offset between the two halves of a surrogate pair counts the whole character as before it.
  return codePointCount(text.slice(0, end));
}

/** A code-point offset as a UTF-16 offset into the same string. */
export function codePointToUtf16(text: string, codePointOffset: number): number {
  let cp = 0;
  let i = 0;
  while (i < text.length && cp < codePointOffset) {
    const c = text.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
    cp++;
  }
  return i;
}

// ---------------------------------------------------------------------------------------------
// KILT paragraph kinds

export type ParagraphKind =
  /** `Section::::History.:Restoration.` — a header element: shown as a heading, never highlighted. */
  | { kind: "section"; title: string }
  /** `BULLET::::- …` — a list item; its words start after the prefix (offsets still count it). */
  | { kind: "bullet"; contentStart: number }
  | { kind: "text"; contentStart: number };

export const SECTION_PREFIX = "Section::::";
export const BULLET_PREFIX = "BULLET::::- ";

/** How a raw KILT paragraph is shown, and where its selectable content starts (code points). */
export function paragraphKind(text: string): ParagraphKind {
  if (text.startsWith(SECTION_PREFIX)) return { kind: "section", title: sectionTitle(text) };
  if (text.startsWith(BULLET_PREFIX)) return { kind: "bullet", contentStart: codePointCount(BULLET_PREFIX) };
  if (text.startsWith("BULLET::::")) return { kind: "bullet", contentStart: codePointCount("BULLET::::") };
  return { kind: "text", contentStart: 0 };
}

/**
 * A readable section name: `Section::::History.:Restoration.\n` → `History › Restoration`;
 * the lead (`Section::::Abstract.`) → `Introduction`.
 */
export function sectionTitle(section: string): string {
  const body = section.replace(/\n+$/, "").replace(/^Section::::/, "");
  if (body === "Abstract." || body === "") return "Introduction";
  return body
    .split(".:")
    .map((part) => part.replace(/\.$/, "").trim())
    .filter(Boolean)
    .join(" › ");
}

/** The words an annotator may highlight in one paragraph: none in a section header, none in a bullet's prefix. */
export function selectableWordsOf(text: string): Word[] {
  const kind = paragraphKind(text);
  if (kind.kind === "section") return [];
  return wordsOf(text).filter((w) => w.start >= kind.contentStart);
}

/** Every selectable word of a passage, in reading order. */
export function passageWords(paragraphs: readonly ParagraphText[]): PassageWord[] {
  const out: PassageWord[] = [];
  for (const p of paragraphs) for (const w of selectableWordsOf(p.text)) out.push({ ...w, paragraphId: p.id });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Spans

/**
 * The text of a KILT location as the server computes it: code-point slice, end exclusive; across
 * paragraphs, the tail of the start paragraph + whole middle paragraphs + the head of the end one.
 * Undefined when the location does not lie inside the given paragraphs.
 */
export function spanText(paragraphs: readonly ParagraphText[], loc: Omit<Span, "text">): string | undefined {
  const byId = new Map(paragraphs.map((p) => [p.id, p.text]));
  const first = byId.get(loc.startParagraphId);
  const last = byId.get(loc.endParagraphId);
  if (first === undefined || last === undefined || loc.endParagraphId < loc.startParagraphId) return undefined;
  if (loc.startParagraphId === loc.endParagraphId) {
    if (loc.endCharacter < loc.startCharacter) return undefined;
    return sliceCodePoints(first, loc.startCharacter, loc.endCharacter);
  }
  const middle: string[] = [];
  for (let id = loc.startParagraphId + 1; id < loc.endParagraphId; id++) {
    const text = byId.get(id);
    if (text === undefined) return undefined;
    middle.push(text);
  }
  return sliceCodePoints(first, loc.startCharacter) + middle.join("") + sliceCodePoints(last, 0, loc.endCharacter);
}

/** The API span of a highlight from word `first` to word `last` (inclusive, in either order). */
export function spanOfWords(paragraphs: readonly ParagraphText[], words: readonly PassageWord[], range: WordRange): Span | null {
  const a = words[Math.min(range.first, range.last)];
  const b = words[Math.max(range.first, range.last)];
  if (!a || !b) return null;
  const loc = { startParagraphId: a.paragraphId, startCharacter: a.start, endParagraphId: b.paragraphId, endCharacter: b.end };
  const text = spanText(paragraphs, loc);
  return text === undefined ? null : { ...loc, text };
}

/** The word range a stored span covers exactly (to restore a draft), or null when it does not fall on words. */
export function wordRangeOfSpan(words: readonly PassageWord[], span: Omit<Span, "text">): WordRange | null {
  const first = words.findIndex((w) => w.paragraphId === span.startParagraphId && w.start === span.startCharacter);
  const last = words.findIndex((w) => w.paragraphId === span.endParagraphId && w.end === span.endCharacter);
  return first >= 0 && last >= first ? { first, last } : null;
}

/** A point in a passage: a paragraph and a code-point offset inside it. */
export interface TextPoint {
  paragraphId: number;
  offset: number;
}

function comparePoints(a: TextPoint, b: TextPoint): number {
  return a.paragraphId - b.paragraphId || a.offset - b.offset;
}

/**
 * Snaps a selection outward to whole words: the first word that ends after `from`, through the last
 * word that starts before `to` (in either order). A selection that touches part of a word takes the
 * whole word; a collapsed one (a click) or one that covers no word (only spaces or punctuation) gives null.
 */
export function snapToWords(words: readonly PassageWord[], from: TextPoint, to: TextPoint): WordRange | null {
  const order = comparePoints(from, to);
  // A click (a collapsed selection) is not a highlight.
  if (order === 0) return null;
  const [start, end] = order < 0 ? [from, to] : [to, from];
  const first = words.findIndex((w) => comparePoints({ paragraphId: w.paragraphId, offset: w.end }, start) > 0);
  if (first < 0) return null;
  let last = -1;
  for (let i = words.length - 1; i >= 0; i--) {
    const w = words[i]!;
    if (comparePoints({ paragraphId: w.paragraphId, offset: w.start }, end) < 0) {
      last = i;
      break;
    }
  }
  return last < first ? null : { first, last };
}

// ---------------------------------------------------------------------------------------------
// Keyboard moves of a highlight

export type HighlightMove =
  /** Shift+→: the end edge one word right (starts with the first word when there is no highlight). */
  | "extend"
  /** Shift+←: the end edge one word left, never before the start edge. */
  | "shrink"
  /** Alt+← or [: the start edge one word left (grows the highlight). */
  | "start-left"
  /** Alt+→ or ]: the start edge one word right, never past the end edge. */
  | "start-right";

/** The highlight after a keyboard move, over a passage of `count` words. */
export function moveHighlight(range: WordRange | null, move: HighlightMove, count: number): WordRange | null {
  if (count <= 0) return null;
  if (!range) return { first: 0, last: 0 };
  const { first, last } = range;
  switch (move) {
    case "extend":
      return { first, last: Math.min(last + 1, count - 1) };
    case "shrink":
      return { first, last: Math.max(last - 1, first) };
    case "start-left":
      return { first: Math.max(first - 1, 0), last };
    case "start-right":
      return { first: Math.min(first + 1, last), last };
  }
}

/**
 * The word under a point (a tap or a click): the word of that paragraph that holds the offset, else
 * the next one after it (a tap on a space or a comma), else the paragraph's last. -1 when the
 * paragraph has no selectable word.
 */
export function wordAt(words: readonly PassageWord[], point: TextPoint): number {
  let last = -1;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w.paragraphId !== point.paragraphId) {
      if (w.paragraphId > point.paragraphId) break;
      continue;
    }
    if (w.end > point.offset) return i;
    last = i;
  }
  return last;
}

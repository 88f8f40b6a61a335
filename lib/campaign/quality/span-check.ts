import "server-only";
import type { Location } from "@/lib/kilt/codepoints";
import { sentencesOf } from "@/lib/kilt/sentences";
import { flatten, type PassageShape } from "./consensus";

/**
 * The span check of sufficient gold: pure, no database. A highlight on a gold passage expected
 * sufficient, with an expected span, is right only when
 *
 * 1. it covers at least half of the expected span (code points), and
 * 2. it is no longer than the sentence or sentences that hold the expected span (as
 *    `lib/kilt/sentences.ts` splits them) plus `slack` (0.2: 20% longer), or 3× the expected span,
 *    whichever is longer — and it holds no whole sentence of the passage outside those sentences.
 *
 * So a careful highlight of the evidence sentence, or of the answer alone, is right; a highlight of
 * the whole passage fails on any passage of two or more sentences. The last clause is what keeps
 * that true when the expected span is a whole sentence: 3× a sentence would otherwise admit a
 * whole passage of two or three sentences. A plain F1 threshold cannot tell these cases apart,
 * since gold spans range from a four-character answer to a whole sentence.
 *
 * Positions are code points, flattened over the passage's paragraphs (`flatten` of consensus.ts), so
 * spans and sentences crossing paragraphs compare like any others.
 */

export interface SpanCheckPassage {
  startParagraphId: number;
  /** The passage's paragraphs' text, in order from startParagraphId (KILT text: each ends in `\n`). */
  paragraphs: readonly string[];
}

export interface SpanCheck {
  right: boolean;
  /** Code points of the expected span the highlight covers, and the expected span's length. */
  covered: number;
  expectedLength: number;
  /** The highlight's length and the longest it may be. */
  length: number;
  limit: number;
  /** The sentences holding the expected span: their extent (first start to last end), in code points. */
  sentencesLength: number;
  /** A whole sentence outside those that hold the expected span lies inside the highlight. */
  holdsOtherSentence: boolean;
}

type Interval = [number, number];

function shapeOf(p: SpanCheckPassage): PassageShape {
  return { startParagraphId: p.startParagraphId, paragraphLengths: p.paragraphs.map((t) => Array.from(t).length) };
}

function intervalOf(shape: PassageShape, l: Location): Interval {
  return [flatten(shape, l.startParagraphId, l.startCharacter), flatten(shape, l.endParagraphId, l.endCharacter)];
}

function overlap(a: Interval, b: Interval): number {
  return Math.max(0, Math.min(a[1], b[1]) - Math.max(a[0], b[0]));
}

/** Every sentence of the passage as a flat interval, in reading order (a sentence never crosses a paragraph). */
export function passageSentenceIntervals(p: SpanCheckPassage): Interval[] {
  const out: Interval[] = [];
  let offset = 0;
  for (const text of p.paragraphs) {
    for (const s of sentencesOf(text)) out.push([offset + s.start, offset + s.end]);
    offset += Array.from(text).length;
  }
  return out;
}

/** The span check of one highlight against a sufficient gold passage's expected span (see the file's comment). */
export function checkGoldSpan(passage: SpanCheckPassage, expected: Location, span: Location, slack: number): SpanCheck {
  const shape = shapeOf(passage);
  const e = intervalOf(shape, expected);
  const s = intervalOf(shape, span);
  const expectedLength = Math.max(0, e[1] - e[0]);
  const length = Math.max(0, s[1] - s[0]);
  const covered = overlap(s, e);
  const sentences = passageSentenceIntervals(passage);
  // The sentences holding the expected span: those sharing a code point with it (an empty expected span: the one around it).
  const holding = sentences.filter((x) => (expectedLength > 0 ? overlap(x, e) > 0 : x[0] <= e[0] && e[0] <= x[1]));
  const extent: Interval = holding.length ? [Math.min(e[0], holding[0]![0]), Math.max(e[1], holding.at(-1)![1])] : e;
  const sentencesLength = extent[1] - extent[0];
  const limit = Math.max(sentencesLength * (1 + slack), 3 * expectedLength);
  const holdsOtherSentence = sentences.some((x) => !holding.includes(x) && x[1] > x[0] && s[0] <= x[0] && x[1] <= s[1]);
  const right = 2 * covered >= expectedLength && length <= limit && !holdsOtherSentence;
  return { right, covered, expectedLength, length, limit, sentencesLength, holdsOtherSentence };
}

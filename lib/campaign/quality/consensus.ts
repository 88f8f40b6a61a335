import "server-only";
import type { Location } from "@/lib/kilt/codepoints";

/**
 * Consensus over one passage's judgments: pure functions, no database. Positions are code points;
 * a location inside a passage is flattened to one index over the passage's paragraphs, so that
 * highlights crossing paragraphs compare like any others.
 */

export interface PassageShape {
  startParagraphId: number;
  /** Code-point length of each paragraph of the passage, in order from startParagraphId. */
  paragraphLengths: number[];
}

/** Index of (paragraph, character) in the passage, counting every code point before it. */
export function flatten(shape: PassageShape, paragraphId: number, character: number): number {
  let offset = 0;
  for (let i = 0; i < paragraphId - shape.startParagraphId; i++) offset += shape.paragraphLengths[i] ?? 0;
  return offset + character;
}

/** The location of a flat index (the inverse of `flatten`). `end` prefers the end of a paragraph. */
export function unflatten(shape: PassageShape, index: number, end = false): { paragraphId: number; character: number } {
  let rest = index;
  for (let i = 0; i < shape.paragraphLengths.length; i++) {
    const len = shape.paragraphLengths[i]!;
    if (rest < len || (end && rest === len) || i === shape.paragraphLengths.length - 1) {
      return { paragraphId: shape.startParagraphId + i, character: rest };
    }
    rest -= len;
  }
  return { paragraphId: shape.startParagraphId, character: 0 };
}

function interval(shape: PassageShape, l: Location): [number, number] {
  return [flatten(shape, l.startParagraphId, l.startCharacter), flatten(shape, l.endParagraphId, l.endCharacter)];
}

function overlap(a: [number, number], b: [number, number]): number {
  return Math.max(0, Math.min(a[1], b[1]) - Math.max(a[0], b[0]));
}

/** Whether two locations share at least one code point. */
export function locationsOverlap(shape: PassageShape, a: Location, b: Location): boolean {
  return overlap(interval(shape, a), interval(shape, b)) > 0;
}

/**
 * The consensus span of an endorsed passage: the code points highlighted by at least `threshold`
 * of the endorsing highlights, as one contiguous range from the first such code point to the last.
 * When no code point reaches the threshold, the highlight with the largest mean overlap with the
 * others (ties: the earliest given). Undefined when there is no highlight.
 */
export function consensusSpan(shape: PassageShape, highlights: readonly Location[], threshold: number): Location | undefined {
  if (!highlights.length) return undefined;
  const intervals = highlights.map((h) => interval(shape, h));
  // Sweep the interval boundaries: coverage changes only there.
  const events = new Map<number, number>();
  for (const [s, e] of intervals) {
    events.set(s, (events.get(s) ?? 0) + 1);
    events.set(e, (events.get(e) ?? 0) - 1);
  }
  const points = [...events.keys()].sort((a, b) => a - b);
  let coverage = 0;
  let first: number | undefined;
  let last: number | undefined;
  for (let i = 0; i < points.length - 1; i++) {
    coverage += events.get(points[i]!)!;
    if (coverage >= threshold) {
      first ??= points[i]!;
      last = points[i + 1]!;
    }
  }
  if (first !== undefined && last !== undefined) {
    const s = unflatten(shape, first);
    const e = unflatten(shape, last, true);
    return { startParagraphId: s.paragraphId, startCharacter: s.character, endParagraphId: e.paragraphId, endCharacter: e.character };
  }
  let best = 0;
  let bestScore = -1;
  intervals.forEach((a, i) => {
    const others = intervals.filter((_, j) => j !== i);
    const score = others.length ? others.reduce((n, b) => n + overlap(a, b), 0) / others.length : 0;
    if (score > bestScore) {
      best = i;
      bestScore = score;
    }
  });
  return highlights[best];
}

/** Smoothed gold accuracy, (K + correct) / (2K + judged) with K = 0.5. */
export function smoothedAccuracy(correct: number, judged: number): number {
  return (0.5 + correct) / (1 + judged);
}

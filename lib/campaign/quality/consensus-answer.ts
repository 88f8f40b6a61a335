import "server-only";
import type { Location } from "@/lib/kilt/codepoints";
import { answerOccurrences, answerSequences, holdsAnswer } from "@/lib/kilt/answer-span";
import { consensusSpan, flatten, unflatten, type PassageShape } from "./consensus";

/**
 * A consensus span that keeps the answer (issue 26): pure functions, no database. Positions are flat
 * code-point indexes over the passage's paragraphs, as in consensus.ts.
 */

/**
 * The passage's text (its paragraphs in order, each ending in "\n") sliced by code points: a plain
 * slice when the text has no surrogate pair (code points are then UTF-16 units), else a slice of its
 * code points.
 */
function slicerOf(paragraphs: readonly string[]): (from: number, to: number) => string {
  const text = paragraphs.join("");
  if (!/[\uD800-\uDFFF]/.test(text)) return (from, to) => text.slice(from, to);
  const points = Array.from(text);
  return (from, to) => points.slice(from, to).join("");
}

/** The answers' word sequences, computed once per answers array (a question's entries share it). */
const sequencesMemo = new WeakMap<readonly string[], string[][]>();
function sequencesOf(answers: readonly string[]): string[][] {
  let sequences = sequencesMemo.get(answers);
  if (!sequences) sequencesMemo.set(answers, (sequences = answerSequences(answers)));
  return sequences;
}

function toInterval(shape: PassageShape, l: Location): [number, number] {
  return [flatten(shape, l.startParagraphId, l.startCharacter), flatten(shape, l.endParagraphId, l.endCharacter)];
}

function toLocation(shape: PassageShape, [s, e]: [number, number]): Location {
  const a = unflatten(shape, s);
  const b = unflatten(shape, e, true);
  return { startParagraphId: a.paragraphId, startCharacter: a.character, endParagraphId: b.paragraphId, endCharacter: b.character };
}

/** The code points covered by at least one interval, as disjoint sorted runs. */
function unionOf(intervals: [number, number][]): [number, number][] {
  const runs: [number, number][] = [];
  for (const [s, e] of [...intervals].filter(([s, e]) => e > s).sort((a, b) => a[0] - b[0])) {
    const last = runs[runs.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else runs.push([s, e]);
  }
  return runs;
}

/**
 * The consensus span of an endorsed passage (`consensusSpan`), widened when it lost the answer:
 * when it holds none of the question's answers (normalised as KILT's `normalize_answer`, whole
 * words in a row) but one of the endorsing highlights does, it becomes the smallest span that covers
 * the consensus and one occurrence of an answer inside the endorsers' union (the code points at
 * least one endorser highlighted), and still holds that answer once its own text is normalised. Of
 * several occurrences, the one that gives the shortest span (ties: the earliest). Untouched when the
 * question has no answer, when the consensus holds one, or when no endorser's highlight does.
 *
 * `paragraphs`: the passage's paragraph texts, from `shape.startParagraphId` on (their code-point
 * lengths are `shape.paragraphLengths`).
 */
export function answerKeepingConsensus(
  shape: PassageShape,
  paragraphs: readonly string[],
  highlights: readonly Location[],
  threshold: number,
  answers: readonly string[],
): Location | undefined {
  return consensusKeepingAnswer(shape, paragraphs, highlights, threshold, answers).location;
}

/**
 * `answerKeepingConsensus`, and whether the span it gives holds an answer (`locationHoldsAnswer` of
 * it, found on the way; null when the question has no answer or there is no consensus).
 */
export function consensusKeepingAnswer(
  shape: PassageShape,
  paragraphs: readonly string[],
  highlights: readonly Location[],
  threshold: number,
  answers: readonly string[],
): { location: Location | undefined; holds: boolean | null } {
  const consensus = consensusSpan(shape, highlights, threshold);
  const sequences = sequencesOf(answers);
  if (!consensus || !sequences.length) return { location: consensus, holds: null };
  const slice = slicerOf(paragraphs);
  const textOf = ([s, e]: [number, number]) => slice(s, e);
  const [cs, ce] = toInterval(shape, consensus);
  if (holdsAnswer(textOf([cs, ce]), sequences)) return { location: consensus, holds: true };
  const intervals = highlights.map((h) => toInterval(shape, h));
  const holding = intervals.filter((i) => holdsAnswer(textOf(i), sequences));
  if (!holding.length) return { location: consensus, holds: false };
  // Occurrences inside the union: in each run of highlighted code points, and in each endorser's own
  // highlight (normalised alone, a highlight that cuts a word short may hold an answer its run does not).
  const occurrences: [number, number][] = [];
  for (const [s, e] of [...unionOf(intervals), ...holding]) {
    for (const o of answerOccurrences(textOf([s, e]), sequences)) occurrences.push([s + o.start, s + o.end]);
  }
  let best: [number, number] | undefined;
  for (const [os, oe] of occurrences) {
    const widened: [number, number] = [Math.min(cs, os), Math.max(ce, oe)];
    if (best && (widened[1] - widened[0] > best[1] - best[0] || (widened[1] - widened[0] === best[1] - best[0] && widened[0] >= best[0])))
      continue;
    if (holdsAnswer(textOf(widened), sequences)) best = widened;
  }
  return best ? { location: toLocation(shape, best), holds: true } : { location: consensus, holds: false };
}

/**
 * Whether the text an exported location covers holds one of the question's answers; null when the
 * question has no answer (none with a word once normalised). A location with -1 characters covers
 * its whole paragraphs (the `passage` export).
 */
export function locationHoldsAnswer(
  shape: PassageShape,
  paragraphs: readonly string[],
  location: Location,
  answers: readonly string[],
): boolean | null {
  const sequences = sequencesOf(answers);
  if (!sequences.length) return null;
  const first = location.startParagraphId - shape.startParagraphId;
  const last = location.endParagraphId - shape.startParagraphId;
  const text =
    location.startCharacter < 0 || location.endCharacter < 0
      ? paragraphs.slice(first, last + 1).join("")
      : slicerOf(paragraphs)(...toInterval(shape, location));
  return holdsAnswer(text, sequences);
}

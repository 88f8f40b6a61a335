import "server-only";
import type { Segment } from "./knowledge.contract";

// Marked text to Segment[] (pure). The database marks matches with two control characters, which
// KILT text never holds (the SQL turns any into spaces first), so no HTML is ever built or parsed.

export const MARK_START = "\u0001";
export const MARK_END = "\u0002";

/** Options of ts_headline: every word of the text, matches between the two markers. */
export const HEADLINE_OPTIONS = `HighlightAll=true, StartSel="${MARK_START}", StopSel="${MARK_END}"`;

function push(out: Segment[], text: string, match: boolean): void {
  if (!text) return;
  const last = out[out.length - 1];
  if (last && last.match === match) last.text += text;
  else out.push({ text, match });
}

/**
 * The matches of `marked` (a folded copy of `original` with markers) laid onto `original`, code point
 * by code point. When folding changed the length (a rare letter lower() expands), the text comes
 * back unmarked rather than marked in the wrong place.
 */
export function markedSegments(marked: string, original: string): Segment[] {
  const source = Array.from(original);
  const flags: boolean[] = [];
  let inside = false;
  for (const ch of marked) {
    if (ch === MARK_START) inside = true;
    else if (ch === MARK_END) inside = false;
    else flags.push(inside);
  }
  if (flags.length !== source.length) return original ? [{ text: original, match: false }] : [];
  const out: Segment[] = [];
  source.forEach((ch, i) => push(out, ch, flags[i]!));
  return out;
}

/** The first `count` code points of `text` marked (a title's matched prefix), the rest not. */
export function prefixSegments(text: string, count: number): Segment[] {
  const points = Array.from(text);
  const out: Segment[] = [];
  push(out, points.slice(0, count).join(""), true);
  push(out, points.slice(count).join(""), false);
  return out;
}

/**
 * A window of about `maxPoints` code points of `segments`: from a few words before the first match
 * (or the start), cut at spaces, with "…" where text was left out.
 */
export function snippetOf(segments: Segment[], maxPoints = 240): Segment[] {
  const points: { ch: string; match: boolean }[] = [];
  for (const s of segments) for (const ch of s.text) points.push({ ch, match: s.match });
  while (points.length && /\s/.test(points[points.length - 1]!.ch)) points.pop();
  if (points.length <= maxPoints) return segments.length ? rejoin(points) : [];
  const first = Math.max(
    0,
    points.findIndex((p) => p.match),
  );
  let start = Math.max(0, first - Math.floor(maxPoints / 4));
  while (start > 0 && start < first && !/\s/.test(points[start - 1]!.ch)) start++;
  let end = Math.min(points.length, start + maxPoints);
  while (end < points.length && end > start + maxPoints / 2 && !/\s/.test(points[end]!.ch)) end--;
  const out: Segment[] = [];
  if (start > 0) push(out, "…", false);
  for (const s of rejoin(points.slice(start, end))) push(out, s.text, s.match);
  if (end < points.length) push(out, "…", false);
  return out;
}

function rejoin(points: { ch: string; match: boolean }[]): Segment[] {
  const out: Segment[] = [];
  for (const p of points) push(out, p.ch, p.match);
  return out;
}

/** The plain text of segments. */
export const plainText = (segments: Segment[]) => segments.map((s) => s.text).join("");

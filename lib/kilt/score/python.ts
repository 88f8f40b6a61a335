import { PYTHON_WHITESPACE } from "@/lib/kilt/answer-overlap";

/**
 * The few Python `str` operations the evaluators lean on, with Python's semantics where
 * JavaScript's differ (its whitespace set: U+001C–U+001F and U+0085 are spaces, U+FEFF is not). Pure.
 */

const EDGES = new RegExp(`^${PYTHON_WHITESPACE.source}|${PYTHON_WHITESPACE.source}$`, "gu");

/** Python's `s.strip()`. */
export function pyStrip(s: string): string {
  return s.replace(EDGES, "");
}

/** Python's `s.split()`: the pieces between runs of whitespace, none empty. */
export function pySplit(s: string): string[] {
  return s.split(PYTHON_WHITESPACE).filter((w) => w !== "");
}

import { HIGHLIGHT_WHAT, type TaskKind } from "@/lib/campaign/annotate/task-verdicts.contract";

/**
 * Touch screens get their own texts: no keys to press, taps instead of drags. Decided as the judging
 * screen's CSS decides (`@media (pointer: coarse)` in judging-styles.tsx): a phone or a tablet, not a
 * laptop with a touch screen, whose main pointer is the mouse.
 */
export const COARSE_POINTER_QUERY = "(pointer: coarse)";

/** Whether the main pointer is a finger (false on the server). */
export function isCoarsePointer(): boolean {
  return typeof window !== "undefined" && window.matchMedia(COARSE_POINTER_QUERY).matches;
}

/** How to make a highlight, as a clause after "Highlight the words that answer the question": what this device offers. */
export function highlightHow(): string {
  return isCoarsePointer() ? "tap the first word of the answer, then its last" : "drag across them, or press Shift+→";
}

/** How to choose a verdict before submitting (fact checking: its two sufficient verdicts; `partial`: part of the evidence too). */
export function chooseVerdictPrompt(kind: TaskKind = "qa", o: { partial?: boolean } = {}): string {
  if (o.partial && kind !== "fact-checking")
    return isCoarsePointer()
      ? "Choose first: tap Sufficient, Part of the evidence, Not sufficient or Unreadable."
      : "Choose first: 1 Sufficient, P Part of the evidence, 2 Not sufficient or U Unreadable.";
  if (kind === "fact-checking")
    return isCoarsePointer()
      ? "Choose first: tap Supports, Refutes, Not enough or Unreadable."
      : "Choose first: 3 Supports, 4 Refutes, 2 Not enough or U Unreadable.";
  return isCoarsePointer()
    ? "Choose first: tap Sufficient, Not sufficient or Unreadable."
    : "Choose first: 1 Sufficient, 2 Not sufficient or U Unreadable.";
}

/** What to highlight for the task, and how on this device: "Highlight the object: the words that fill the relation: drag …". */
export function highlightPrompt(kind: TaskKind): string {
  return `Highlight ${HIGHLIGHT_WHAT[kind]}: ${highlightHow()}`;
}

/** Fact checking's sufficient verdict needs a label. */
export function chooseLabelPrompt(): string {
  return isCoarsePointer()
    ? "Say what the evidence does: tap Supports or Refutes."
    : "Say what the evidence does: 3 Supports or 4 Refutes.";
}

/** Part of the evidence needs its highlight: the part the passage holds. */
export function partialPrompt(kind: TaskKind): string {
  return `${highlightPrompt(kind)}: "Part of the evidence" needs the highlight of the part this passage holds.`;
}

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

/** How to choose a verdict before submitting. */
export function chooseVerdictPrompt(): string {
  return isCoarsePointer()
    ? "Choose first: tap Sufficient, Not sufficient or Unreadable."
    : "Choose first: 1 Sufficient, 2 Not sufficient or U Unreadable.";
}

// One line of text for a task line in a list (the question list): what a coordinator scans for,
// without the markers or separators of the KILT input.
import { taskDisplayOf, type TaskKind } from "./task-kind";

/** Words of context kept on each side of an entity-linking mention in a one-line summary. */
export const SUMMARY_CONTEXT_WORDS = 6;

function words(text: string): string[] {
  return text.split(/\s+/).filter(Boolean);
}

/**
 * A task line's input as one line of plain text:
 * - a question or a claim as it is;
 * - slot filling as `subject · relation · ?`;
 * - entity linking as the mention in «» with a few words each side (… where trimmed);
 * - dialogue as its last turn, with the number of turns before it.
 */
export function taskSummaryOf(kind: TaskKind, input: string): string {
  const shown = taskDisplayOf(kind, input);
  switch (shown.kind) {
    case "fact-checking":
      return shown.claim;
    case "slot-filling":
      return `${shown.subject} · ${shown.relation} · ?`;
    case "entity-linking": {
      const before = words(shown.before);
      const after = words(shown.after);
      const left = before.slice(-SUMMARY_CONTEXT_WORDS).join(" ");
      const right = after.slice(0, SUMMARY_CONTEXT_WORDS).join(" ");
      const lead = before.length > SUMMARY_CONTEXT_WORDS || shown.trimmedBefore ? "… " : "";
      const tail = after.length > SUMMARY_CONTEXT_WORDS || shown.trimmedAfter ? " …" : "";
      return `${lead}${left}${left ? " " : ""}«${shown.mention}»${right ? " " : ""}${right}${tail}`;
    }
    case "dialogue": {
      const last = shown.turns[shown.turns.length - 1];
      if (!last) return "";
      const earlier = shown.turns.length - 1;
      return earlier > 0 ? `${last.text} (after ${earlier} turn${earlier === 1 ? "" : "s"})` : last.text;
    }
    default:
      return shown.question;
  }
}

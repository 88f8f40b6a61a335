import "server-only";
import { appendOutputEntries } from "@/lib/kilt/line-edit";
import { parseGoldLine, parseGoldOutputs } from "@/lib/kilt/score/records";
import type { GoldRecord } from "@/lib/kilt/score/types";
import type { QuestionProvenance } from "../report/kilt-provenance";
import type { PerGold } from "./runs.contract";

// The three gold lines a campaign question gives a run's scorer, as KILT files (pure): the original
// (the imported line), the endorsed (the original's answers, and as provenance only the campaign's
// endorsed passages, one output each as the export writes them), and both (the KILT export's line).
// A question the export leaves out (unanswerable, or no endorsed passage yet) is in neither of the
// last two: as KILT scores only the ids of its gold file.

type OutputEntry = Record<string, unknown>;

/** The gold lines of a question (null: not in that gold). Ids are written as strings, as the export writes them. */
export function goldLinesOf(q: Pick<QuestionProvenance, "originalLine" | "status" | "entries">): PerGold<string | null> {
  const original = appendOutputEntries(q.originalLine, []);
  if (q.status !== "endorsed") return { original, endorsed: null, both: null };
  return { original, endorsed: endorsedLine(original, q.entries), both: appendOutputEntries(q.originalLine, q.entries) };
}

/** The original line with its outputs' answers only (their provenance dropped, answer-less outputs left out), then the endorsed entries. */
function endorsedLine(original: string, entries: readonly string[]): string {
  const line = JSON.parse(original) as { output?: OutputEntry[] };
  const answers = (Array.isArray(line.output) ? line.output : [])
    .filter((o) => o && typeof o === "object" && "answer" in o)
    .map(({ provenance: _, ...rest }) => rest);
  return JSON.stringify({ ...line, output: [...answers, ...entries.map((e) => JSON.parse(e) as OutputEntry)] });
}

/** The gold records of a question as the scorer reads its gold lines (a line the scorer refuses leaves the question out of that gold). */
export function goldsFromLines(q: Pick<QuestionProvenance, "originalLine" | "status" | "entries">): PerGold<GoldRecord | null> {
  const lines = goldLinesOf(q);
  return { original: recordOf(lines.original), endorsed: recordOf(lines.endorsed), both: recordOf(lines.both) };
}

/**
 * The records goldsFromLines gives, built without writing the endorsed and both lines and parsing
 * them back: the original line is parsed once, each entry once, and the two other records are put
 * together from them as the scorer would read their lines (each output entry is checked by itself,
 * the answers and titles kept once in line order). An original line the scorer refuses goes
 * through the lines themselves (its endorsed and both lines may still be read).
 */
export function goldsOf(q: Pick<QuestionProvenance, "originalLine" | "status" | "entries">): PerGold<GoldRecord | null> {
  // The line as its original gold line reads it: an id that is not a string is written as one (appendOutputEntries).
  let value = JSON.parse(q.originalLine) as { id?: unknown; output: unknown[] };
  if ("id" in value && typeof value.id !== "string") value = JSON.parse(appendOutputEntries(q.originalLine, [])) as typeof value;
  const parsed = parseGoldLine(value);
  if (!parsed.ok) return goldsFromLines(q);
  const original = parsed.record;
  const added = q.status === "endorsed" ? parseGoldOutputs(q.entries.map((e) => JSON.parse(e) as unknown)) : null;
  if (!added) return { original, endorsed: null, both: null };
  const answers = [...new Set([...original.answers, ...added.answers])];
  // The endorsed line keeps the original's entries that hold an answer key, without their provenance.
  const kept = value.output.filter((o) => o !== null && typeof o === "object" && "answer" in o).length;
  const endorsedOutputs = [...Array.from({ length: kept }, () => ({ provenance: null })), ...added.outputs];
  const { id, input } = original;
  return {
    original,
    endorsed: endorsedOutputs.length ? { id, input, answers, titles: added.titles, outputs: endorsedOutputs } : null,
    both: {
      id,
      input,
      answers,
      titles: [...new Set([...original.titles, ...added.titles])],
      outputs: [...original.outputs, ...added.outputs],
    },
  };
}

function recordOf(line: string | null): GoldRecord | null {
  if (line === null) return null;
  const parsed = parseGoldLine(JSON.parse(line));
  return parsed.ok ? parsed.record : null;
}

/** Whether two lists of strings hold the same strings in the same order (a gold's answers, a question's stored entries). */
export const sameStrings = (a: readonly string[], b: readonly string[]) =>
  a === b || (a.length === b.length && a.every((x, i) => x === b[i]));

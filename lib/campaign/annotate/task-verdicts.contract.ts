/**
 * How each KILT task is judged: the verdict's question, what the highlight is, whether a sufficient
 * verdict needs one, and fact checking's label. Pure and client-safe: the verdict bar, the crowd
 * training item and the server's checks (judgment-input.ts) read the same rules.
 */
import { z } from "zod";
import { FACT_LABELS, TASK_KIND_NAMES, type FactLabel, type TaskKind } from "@/lib/kilt/task-kind";

export type { FactLabel, TaskKind };

/** A fact-checking label as a judgment sends it: exactly SUPPORTS or REFUTES. */
export const factLabelSchema = z.enum(FACT_LABELS, "must be SUPPORTS or REFUTES (upper case, as KILT writes them)");

/** The verdict bar's question, per task. */
export const VERDICT_QUESTION: Record<TaskKind, string> = {
  qa: "Does the passage answer the question?",
  "fact-checking": "Enough evidence to decide the claim?",
  "slot-filling": "Does the passage state the subject's relation?",
  "entity-linking": "Is this page the entity the mention refers to?",
  dialogue: "Does the passage hold the knowledge the reply uses?",
};

/** What the highlight marks, per task (entity linking needs none). */
export const HIGHLIGHT_WHAT: Record<TaskKind, string> = {
  qa: "the words that answer the question",
  "fact-checking": "the words that support or refute the claim",
  "slot-filling": "the object: the words that fill the relation",
  "entity-linking": "nothing: no highlight is needed",
  dialogue: "the words the reply draws on",
};

/** A sufficient verdict needs a highlight, except for entity linking (the page itself is the evidence). */
export function needsSpan(kind: TaskKind): boolean {
  return kind !== "entity-linking";
}

/** What the sufficient verdict's label reads, per label. */
export const LABEL_NAMES: Record<FactLabel, string> = { SUPPORTS: "Supports", REFUTES: "Refutes" };

/**
 * What is wrong with a verdict for its task, as a field and a message (422), or null: a sufficient
 * verdict needs a highlight (not for entity linking) and, for fact checking, a label; a label goes
 * only with a sufficient fact-checking verdict.
 */
export function taskVerdictProblem(
  kind: TaskKind,
  j: { verdict: "sufficient" | "insufficient" | "partial"; span: unknown; label?: FactLabel | null },
): { field: string; message: string } | null {
  const label = j.label ?? null;
  if (j.verdict === "sufficient" && !j.span && needsSpan(kind))
    return { field: "span", message: "is required when the verdict is sufficient" };
  if (kind !== "fact-checking" && label !== null)
    return { field: "label", message: `only goes with fact checking; this passage's task is ${TASK_KIND_NAMES[kind]}` };
  if (kind === "fact-checking" && j.verdict === "sufficient" && label === null)
    return { field: "label", message: "is required (SUPPORTS or REFUTES) when a fact-checking verdict is sufficient" };
  return null;
}

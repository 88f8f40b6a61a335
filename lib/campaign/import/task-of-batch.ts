import "server-only";
import { detectTaskKind, taskLineProblem, TASK_KIND_NAMES, type TaskKind } from "@/lib/kilt/task-kind";
import type { BatchTask } from "./import-batch.contract";
import type { Problems } from "./import-problems";
import type { ImportFile, ParsedQuery } from "./read-batch-files";

/**
 * The batch's task: detected from the task file, or the coordinator's choice over it (`task`),
 * with the report's sentence saying which and why. Every line is then checked for that kind, each
 * problem on its line.
 */
export function taskOfBatch(file: ImportFile, parsed: readonly ParsedQuery[], chosen: TaskKind | undefined, problems: Problems): BatchTask {
  const detected = detectTaskKind(file.fileName, parsed);
  const kind = chosen ?? detected.kind;
  // The dataset detection found (named by the file name or by every line's meta) is of the detected
  // kind: it stays when the choice agrees, and goes when the coordinator chose another kind.
  const dataset = chosen === undefined || chosen === detected.kind ? detected.dataset : null;
  const reason =
    chosen === undefined || chosen === detected.kind
      ? `Detected ${TASK_KIND_NAMES[detected.kind]}: ${detected.reason}.${chosen ? " Confirmed by the import's task option." : ""}`
      : `Imported as ${TASK_KIND_NAMES[chosen]}, as chosen; detection said ${TASK_KIND_NAMES[detected.kind]} (${detected.reason}).`;
  for (const q of parsed) {
    const problem = taskLineProblem(kind, q);
    if (problem) problems.add(file.fileName, q.lineNumber, problem.field, problem.message);
    if (problems.full) break;
  }
  return { kind, detected: detected.kind, dataset, reason };
}

/**
 * Decoys per 100 passages for a batch of this kind. A decoy is a paragraph without any answer
 * token, expected insufficient; that holds for QA, slot filling and dialogue. A fact-checking
 * answer is a label (SUPPORTS), whose words say nothing about the claim, and an entity-linking
 * answer is the page itself (a paragraph of the right page is the right entity): both get none.
 */
export function decoysPer100Of(kind: TaskKind, per100: number): number {
  return kind === "fact-checking" || kind === "entity-linking" ? 0 : per100;
}

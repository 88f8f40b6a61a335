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

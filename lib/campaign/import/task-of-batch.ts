import "server-only";
import { datasetOfFileName, datasetOfMeta, detectTaskKind, taskLineProblem, TASK_KIND_NAMES, type TaskKind } from "@/lib/kilt/task-kind";
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
  const dataset = chosen === undefined ? detected.dataset : sameKindDataset(file.fileName, parsed, chosen);
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

/** The dataset named by the file name or the first line's meta, kept only when it is a dataset of the chosen kind. */
function sameKindDataset(fileName: string, parsed: readonly ParsedQuery[], kind: TaskKind): string | null {
  const named = datasetOfFileName(fileName) ?? datasetOfMeta(parsed[0]?.meta);
  return named && detectTaskKind(fileName, parsed).kind === kind ? named : null;
}

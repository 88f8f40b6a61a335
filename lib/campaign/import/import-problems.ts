import "server-only";
import { AppError } from "@/lib/errors";
import type { ImportProblem } from "@/lib/kilt/jsonl";

/** Reading stops collecting after this many problems; the message says so. */
export const MAX_PROBLEMS = 200;

/** The error of a rejected import: 422 with every problem (file, line, field) in `details.problems`. */
export function importFailed(problems: ImportProblem[]): AppError {
  const sorted = [...problems].sort((a, b) => (a.file === b.file ? a.line - b.line : a.file < b.file ? -1 : 1)).slice(0, MAX_PROBLEMS);
  const first = sorted[0]!;
  const where = `${first.file} line ${first.line}${first.field && first.field !== "(line)" ? `, ${first.field}` : ""}`;
  const more =
    problems.length > 1
      ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? "s" : ""}${problems.length >= MAX_PROBLEMS ? "; reading stopped" : ""})`
      : "";
  return new AppError("invalid", `Nothing was imported. ${where}: ${first.message}${more}.`, { problems: sorted });
}

/** The problems found in an import so far. */
export class Problems {
  readonly list: ImportProblem[] = [];
  add(file: string, line: number, field: string, message: string): void {
    this.list.push({ file, line, field, message });
  }
  get full(): boolean {
    return this.list.length >= MAX_PROBLEMS;
  }
}

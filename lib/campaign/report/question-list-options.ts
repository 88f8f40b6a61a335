import "server-only";
import { z } from "zod";
import type { TaskKind } from "@/lib/kilt/task-kind";
import { pageSize, searchText } from "@/lib/list-options.contract";

// The question list's options and shapes, apart from its query (question-list.ts), so that the CLI
// and client code can use them without the database modules.

/**
 * Which questions a list shows; each is one condition on the question's tallies, or (`waiting…`) on
 * its passages: the questions that wait for the coordinator's word, in all or for one reason
 * (quality/adjudication-waiting.ts `waitingSql`).
 */
export const QUESTION_FILTERS = [
  "all",
  "disputed",
  "unanswerable",
  "answered",
  "open",
  "waiting",
  "waiting-split",
  "waiting-explained",
  "waiting-decoy",
  "waiting-gold",
] as const;
export type QuestionFilter = (typeof QUESTION_FILTERS)[number];

/** The list's options, as they arrive in a query string (`?show=disputed&q=lighthouse&after=120`). */
export const questionListQuerySchema = z.object({
  show: z.enum(QUESTION_FILTERS, { error: `must be one of ${QUESTION_FILTERS.join(", ")}` }).default("all"),
  q: searchText,
  after: z.coerce.number().int().positive("must be a question id").optional(),
  limit: pageSize(200, 50),
});
export type QuestionListQuery = z.infer<typeof questionListQuerySchema>;

export interface QuestionListRow {
  id: number;
  kiltId: string;
  input: string;
  batchName: string;
  /** The KILT task of its batch: how its input reads. */
  taskKind: TaskKind;
  lineNumber: number;
  passages: number;
  finished: number;
  endorsed: number;
  disputed: number;
  /** A gold passage expected sufficient finished unendorsed: the question leaves the export. */
  unanswerable: boolean;
}

export interface QuestionList {
  questions: QuestionListRow[];
  /** The `after` of the next page, or null on the last one. */
  next: number | null;
  /** Questions per filter in the whole campaign (the search left aside). */
  counts: Record<QuestionFilter, number>;
}

// Where a listed question stands is an outcome rule (quality/outcome.ts).
export { questionOutcome, type QuestionOutcome } from "../quality/outcome";

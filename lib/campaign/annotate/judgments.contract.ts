// A judgment as its annotator sends and sees it: the comment and flags they may attach for the
// coordinators (issue 14), the stored judgment and its revision, and their history's rows.
import { z } from "zod";
import type { FactLabel, JudgmentFlag, TaskKind } from "@/db/schema";
import type { Location } from "@/lib/kilt/codepoints";

export type { JudgmentFlag };

/** The flags in the order the judging page shows them (db/schema.ts JUDGMENT_FLAGS, checked by the database too). */
export const FLAG_LABELS = {
  broken_text: "Broken text",
  offensive: "Offensive",
  question_wrong: "Question wrong",
} as const satisfies Record<JudgmentFlag, string>;

export const JUDGMENT_FLAG_NAMES = Object.keys(FLAG_LABELS) as JudgmentFlag[];

/** At most 2000 characters, counted in code points as the database does (`char_length`). */
export const COMMENT_MAX = 2000;

/** A comment: 1–2000 code points, or null (none). */
export const commentSchema = z
  .string("must be text or null")
  .refine((s) => s.length > 0, "must not be empty (send null for no comment)")
  .refine((s) => Array.from(s).length <= COMMENT_MAX, `must be at most ${COMMENT_MAX} characters`)
  .nullable();

/** Flags: a set of the known names. */
export const flagsSchema = z
  .array(
    z.enum(JUDGMENT_FLAG_NAMES as [JudgmentFlag, ...JudgmentFlag[]], `must be one of ${JUDGMENT_FLAG_NAMES.join(", ")}`),
    "must be a list of flags",
  )
  .refine((f) => new Set(f).size === f.length, "must not repeat a flag");

/** The two as a submission or revision carries them (both optional: none). */
export const notesShape = {
  comment: commentSchema.optional(),
  flags: flagsSchema.optional(),
};

/** The notes of a parsed body, absent ones as none. */
export function notesOf(input: { comment?: string | null; flags?: JudgmentFlag[] }): { comment: string | null; flags: JudgmentFlag[] } {
  return { comment: input.comment ?? null, flags: [...(input.flags ?? [])] };
}

/** The flags as a PostgreSQL array literal (the names need no quoting). */
export function flagsLiteral(flags: readonly JudgmentFlag[]): string {
  return `{${flags.join(",")}}`;
}

/** A highlight as a judgment stores it (judgment-span.ts's `spanSchema`). */
export type JudgmentSpan = Location & { text: string };

/**
 * A verdict as annotators give it: `partial` ("part of the evidence", single passages of batches
 * that ask for it) is stored as insufficient with its highlight (judgments.partial), so counts,
 * gold and aggregation read it as not sufficient.
 */
export type VerdictName = "sufficient" | "insufficient" | "partial";

/** A stored judgment as its annotator sees it: by its claim's handle, no database id. */
export interface JudgmentView {
  claim: string;
  verdict: VerdictName;
  /** Fact checking: the label of a sufficient verdict (SUPPORTS or REFUTES); null otherwise. */
  label: FactLabel | null;
  unreadable: boolean;
  /** Code points, end exclusive, with the text they cover (an evidence set: its first member's). */
  span: JudgmentSpan | null;
  /** An evidence set's sufficient verdict: one highlight per member, in member order; null otherwise. */
  spans?: JudgmentSpan[] | null;
  /** The time the server measured (from handing out the task, or the previous judgment, to receiving this one); not the client's hint. */
  durationMs: number;
  createdAt: Date;
  comment: string | null;
  flags: JudgmentFlag[];
}

/** A revised judgment as its annotator sees it: the submission's view and its revision number. */
export type RevisedJudgmentView = JudgmentView & { revision: number; revisedAt: Date | null };

/**
 * One of the caller's judgments as their history shows it: by its claim's handle (no database id),
 * with the question, the passage's text and their own verdict, highlight and notes — never gold,
 * counts or anyone else's verdicts. `locked` says why it cannot be revised now (null: it can).
 */
export interface MyJudgment {
  claim: string;
  query: { id: string; input: string; kind: TaskKind };
  passage: { title: string; paragraphs: { id: number; text: string; section: string }[] };
  /** An evidence set: every member (the first is `passage`); absent for a single passage. */
  members?: { title: string; paragraphs: { id: number; text: string; section: string }[] }[];
  verdict: VerdictName;
  label: FactLabel | null;
  unreadable: boolean;
  span: JudgmentSpan | null;
  /** An evidence set's sufficient verdict: one highlight per member; null otherwise. */
  spans?: JudgmentSpan[] | null;
  comment: string | null;
  flags: JudgmentFlag[];
  revision: number;
  submittedAt: string;
  revisedAt: string | null;
  locked: string | null;
}

/** The history's verdict filter: "insufficient" is not sufficient, readable and not partial; "partial" part of the evidence; "unreadable" the unreadable ones. */
export const MY_JUDGMENT_VERDICTS = ["sufficient", "insufficient", "partial", "unreadable"] as const;
export type MyJudgmentVerdict = (typeof MY_JUDGMENT_VERDICTS)[number];

/** What the history is filtered by (`?verdict=&q=`): nothing given, every judgment. */
export interface MyJudgmentsFilter {
  verdict?: MyJudgmentVerdict;
  /** A part of the question's text. */
  q?: string;
}

// A judgment's comment and flags (issue 14): what the annotator may attach for the coordinators.
// Pure (zod only): the judging page and the server share it.
import { z } from "zod";
import type { JudgmentFlag } from "@/db/schema";

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
  .array(z.enum(JUDGMENT_FLAG_NAMES as [JudgmentFlag, ...JudgmentFlag[]], `must be one of ${JUDGMENT_FLAG_NAMES.join(", ")}`), "must be a list of flags")
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

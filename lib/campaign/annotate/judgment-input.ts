import "server-only";
import { z } from "zod";
import { sha256 } from "@/lib/auth/crypto";
import { invalidField } from "@/lib/errors";
import type { TaskKind } from "@/lib/kilt/task-kind";
import { claimHandleSchema } from "./assignment";
import { spanSchema } from "./judgment-span";
import { notesOf, notesShape } from "./judgments.contract";
import { factLabelSchema, taskVerdictProblem, type FactLabel } from "./task-verdicts.contract";

/** The longest time a judgment can take (24 h): the bound of the client's hint and of the time the server measures. */
export const MAX_DURATION_MS = 24 * 3600 * 1000;

export const verdictSchema = z.enum(["sufficient", "insufficient"], "must be 'sufficient' or 'insufficient'");

/** The time the client says a verdict took: a hint only, bounded like the time the server measures. */
export const clientDurationSchema = z.number().int().min(0, "must be 0 or more").max(MAX_DURATION_MS, "must be under a day");

/** Fact checking's label: absent or null for every other verdict. */
export const labelSchema = factLabelSchema.nullable().optional();

/**
 * How a verdict, its span, its label and the unreadable mark go together: the rules of a judgment and
 * of a crowd worker's training answer alike (lib/crowd/training.ts), so a worker is trained on the
 * rules it works by. The rules that depend on the passage's task (a sufficient verdict needs a span
 * except for entity linking; fact checking needs a label) are `checkTaskVerdict`'s, once the task is read.
 */
export function checkVerdictRules(
  a: { verdict: "sufficient" | "insufficient"; span: unknown; unreadable: boolean; label?: FactLabel | null },
  ctx: z.RefinementCtx,
): void {
  if (a.verdict === "insufficient" && a.label != null)
    ctx.addIssue({ code: "custom", path: ["label"], message: "must be null when the verdict is insufficient" });
  if (a.verdict === "insufficient" && a.span)
    ctx.addIssue({ code: "custom", path: ["span"], message: "must be null when the verdict is insufficient" });
  if (a.unreadable && a.verdict !== "insufficient")
    ctx.addIssue({ code: "custom", path: ["unreadable"], message: "an unreadable passage is judged insufficient" });
}

export const judgmentInputSchema = z
  .object({
    verdict: verdictSchema,
    span: spanSchema.nullable(),
    unreadable: z.boolean().default(false),
    /** Fact checking: SUPPORTS or REFUTES, required with a sufficient verdict (checkTaskVerdict). */
    label: labelSchema,
    /** The time the client says it took: stored as `client_duration_ms`, a hint only (the server measures its own). */
    durationMs: clientDurationSchema,
    idempotencyKey: z.string().min(8, "must be at least 8 characters").max(200),
    ...notesShape,
  })
  .superRefine((j, ctx) => {
    checkVerdictRules(j, ctx);
    const s = j.span;
    if (s && (s.endParagraphId < s.startParagraphId || (s.endParagraphId === s.startParagraphId && s.endCharacter <= s.startCharacter))) {
      ctx.addIssue({ code: "custom", path: ["span", "endCharacter"], message: "the span must end after it starts" });
    }
  });

export type JudgmentInput = z.infer<typeof judgmentInputSchema>;

/** The rules of the passage's task (task-verdicts.contract.ts), as a 422 naming the field. */
export function checkTaskVerdict(
  kind: TaskKind,
  j: { verdict: "sufficient" | "insufficient"; span: unknown; label?: FactLabel | null },
): void {
  const problem = taskVerdictProblem(kind, j);
  if (problem) throw invalidField(problem.field, problem.message);
}

/** The query string of POST /api/claims/:handle/judgment: `next=1` answers with the next task too, other than `after` (the prefetched claim). */
export const judgmentQuerySchema = z
  .object({
    next: z.literal("1", "must be 1 (answer with the next task) or absent").optional(),
    after: claimHandleSchema.optional(),
  })
  .superRefine((q, ctx) => {
    if (q.after !== undefined && q.next === undefined) ctx.addIssue({ code: "custom", path: ["after"], message: "only goes with next=1" });
  });

/**
 * The body's fingerprint: a replay must carry the same body as the first submission. No comment and
 * no flags leave it as it was before they existed; `extra` tells a revision from a submission. The
 * label is part of it (a null label is left out, as before labels existed).
 */
export function requestHash(claimId: number, input: JudgmentInput, extra: Record<string, unknown> = {}): string {
  const { idempotencyKey: _key, comment: _c, flags: _f, label, ...rest } = input;
  const { comment, flags } = notesOf(input);
  const notes = { ...(comment === null ? {} : { comment }), ...(flags.length ? { flags } : {}) };
  return sha256(JSON.stringify({ claimId, ...rest, span: rest.span && { ...rest.span }, ...(label ? { label } : {}), ...notes, ...extra }));
}

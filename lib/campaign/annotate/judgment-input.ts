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

/**
 * A judgment's verdict: `partial` ("part of the evidence", with its highlight) where the batch asks for
 * it, on single passages only (checkSetVerdict). A crowd worker's training answer keeps the two verdicts.
 */
export const judgmentVerdictSchema = z.enum(["sufficient", "insufficient", "partial"], "must be 'sufficient', 'insufficient' or 'partial'");

/** An evidence set's highlights: one per member, in member order (2–8 members). */
export const memberSpansSchema = z
  .array(spanSchema, "must be a list of spans, one per member")
  .min(2, "a set has at least 2 members")
  .max(8, "a set has at most 8 members");

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
    verdict: judgmentVerdictSchema,
    /** The highlight of a single passage (sufficient or partial); null for an evidence set (see `spans`). */
    span: spanSchema.nullable(),
    /** An evidence set's sufficient verdict: one highlight per member, in member order (checkSetVerdict). */
    spans: memberSpansSchema.nullable().optional(),
    unreadable: z.boolean().default(false),
    /** Fact checking: SUPPORTS or REFUTES, required with a sufficient verdict (checkTaskVerdict). */
    label: labelSchema,
    /** The time the client says it took: stored as `client_duration_ms`, a hint only (the server measures its own). */
    durationMs: clientDurationSchema,
    idempotencyKey: z.string().min(8, "must be at least 8 characters").max(200),
    ...notesShape,
  })
  .superRefine((j, ctx) => {
    if (j.verdict === "partial") {
      if (!j.span)
        ctx.addIssue({ code: "custom", path: ["span"], message: "is required with 'partial': highlight the part of the evidence" });
      if (j.unreadable) ctx.addIssue({ code: "custom", path: ["unreadable"], message: "an unreadable passage is judged insufficient" });
      if (j.label != null) ctx.addIssue({ code: "custom", path: ["label"], message: "must be null when the verdict is partial" });
    } else {
      checkVerdictRules({ ...j, verdict: j.verdict }, ctx);
    }
    if (j.spans && j.verdict !== "sufficient")
      ctx.addIssue({ code: "custom", path: ["spans"], message: "only goes with a sufficient verdict on an evidence set" });
    if (j.spans && j.span) ctx.addIssue({ code: "custom", path: ["span"], message: "must be null when `spans` gives a set's highlights" });
    for (const [path, s] of [[["span"], j.span] as const, ...(j.spans ?? []).map((s, i) => [["spans", i], s] as const)]) {
      if (s && (s.endParagraphId < s.startParagraphId || (s.endParagraphId === s.startParagraphId && s.endCharacter <= s.startCharacter))) {
        ctx.addIssue({ code: "custom", path: [...path, "endCharacter"], message: "the span must end after it starts" });
      }
    }
  });

export type JudgmentInput = z.infer<typeof judgmentInputSchema>;

/** The rules of the passage's task (task-verdicts.contract.ts), as a 422 naming the field. */
export function checkTaskVerdict(
  kind: TaskKind,
  j: { verdict: "sufficient" | "insufficient" | "partial"; span: unknown; label?: FactLabel | null },
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

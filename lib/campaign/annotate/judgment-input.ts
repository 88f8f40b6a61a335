import "server-only";
import { z } from "zod";
import { sha256 } from "@/lib/auth/crypto";
import { claimHandleSchema } from "./assignment";
import { spanSchema } from "./judgment-span";
import { notesOf, notesShape } from "./judgments.contract";

/** The longest time a judgment can take (24 h): the bound of the client's hint and of the time the server measures. */
export const MAX_DURATION_MS = 24 * 3600 * 1000;

export const verdictSchema = z.enum(["sufficient", "insufficient"], "must be 'sufficient' or 'insufficient'");

/** The time the client says a verdict took: a hint only, bounded like the time the server measures. */
export const clientDurationSchema = z.number().int().min(0, "must be 0 or more").max(MAX_DURATION_MS, "must be under a day");

/**
 * How a verdict, its span and the unreadable mark go together: the rules of a judgment and of a crowd
 * worker's training answer alike (lib/crowd/training.ts), so a worker is trained on the rules it works by.
 */
export function checkVerdictRules(
  a: { verdict: "sufficient" | "insufficient"; span: unknown; unreadable: boolean },
  ctx: z.RefinementCtx,
): void {
  if (a.verdict === "sufficient" && !a.span)
    ctx.addIssue({ code: "custom", path: ["span"], message: "is required when the verdict is sufficient" });
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
 * no flags leave it as it was before they existed; `extra` tells a revision from a submission.
 */
export function requestHash(claimId: number, input: JudgmentInput, extra: Record<string, unknown> = {}): string {
  const { idempotencyKey: _key, comment: _c, flags: _f, ...rest } = input;
  const { comment, flags } = notesOf(input);
  const notes = { ...(comment === null ? {} : { comment }), ...(flags.length ? { flags } : {}) };
  return sha256(JSON.stringify({ claimId, ...rest, span: rest.span && { ...rest.span }, ...notes, ...extra }));
}

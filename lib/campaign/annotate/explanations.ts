import "server-only";
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { EXPLANATION_REASONS, type ExplanationReason } from "@/db/schema";
import type { Actor } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import { codePointLength } from "@/lib/kilt/codepoints";
import { requireActiveAnnotator } from "./annotator-access";
import { MAX_EXPLANATION_LENGTH, type ExplanationReasonKey } from "./ask.contract";
import { askQueryIdSchema, requireAsked } from "./ask";

/** The body of POST /api/campaigns/:id/explanations: why no passage answers the question. */
export const explanationInputSchema = z
  .object({
    queryId: askQueryIdSchema,
    reason: z.enum(EXPLANATION_REASONS, `must be one of ${EXPLANATION_REASONS.join(", ")}`),
    // UTF-16 units bound the parse; the rule itself counts code points.
    text: z
      .string()
      .max(MAX_EXPLANATION_LENGTH * 2, `must be at most ${MAX_EXPLANATION_LENGTH} characters`)
      .refine((t) => codePointLength(t) <= MAX_EXPLANATION_LENGTH, `must be at most ${MAX_EXPLANATION_LENGTH} characters`)
      .default(""),
  })
  .strict()
  .superRefine((e, ctx) => {
    if (e.reason === "other" && e.text.trim() === "")
      ctx.addIssue({ code: "custom", path: ["text"], message: "is required when the reason is 'other'" });
  });

// The client-safe labels name exactly the schema's reasons.
const _sameReasons: [ExplanationReason, ExplanationReasonKey] extends [ExplanationReasonKey, ExplanationReason] ? true : never = true;
void _sameReasons;
export type ExplanationInput = z.infer<typeof explanationInputSchema>;

/**
 * An annotator's explanation of why none of a question's passages answers it, instead of proposing
 * one: kept with the question (the question view, the dashboard, the judgments export and the export
 * report show it). 409 unless `getAsk` asks the caller about this question; crowd workers are refused.
 */
export async function explainQuestion(
  db: Db,
  actor: Actor,
  campaignId: number,
  input: ExplanationInput,
): Promise<{ reason: ExplanationReason }> {
  const { user, campaign } = await requireActiveAnnotator(db, actor, campaignId, { fresh: true });
  if (user.role === "crowd") throw new AppError("forbidden", "Crowd workers do not explain questions.");
  await db.transaction(async (tx) => {
    const question = await requireAsked(tx, user, campaign, input.queryId);
    await tx.execute(sql`insert into explanations (query_id, campaign_id, user_id, reason, text)
      values (${question.id}, ${campaign.id}, ${user.id}, ${input.reason}, ${input.text.trim()})`);
  });
  return { reason: input.reason };
}

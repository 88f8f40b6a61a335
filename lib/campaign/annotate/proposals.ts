import "server-only";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { rowsOf, type Db, type Tx } from "@/db/client";
import type { Campaign, PassageOrigin } from "@/db/schema";
import type { Actor, UserActor } from "@/lib/auth/actor";
import { AppError, invalidField } from "@/lib/errors";
import { newClaimHandle } from "../claims.internal";
import { requireActiveAnnotator } from "./annotator-access";
import { MAX_PROPOSAL_PARAGRAPHS } from "./ask.contract";
import { askQueryIdSchema, requireAsked, type AskedQuestion } from "./ask";
import { checkSpan, spanSchema } from "./judgments";

const contentParagraph = z
  .number()
  .int("must be a whole number")
  .min(1, "must be 1 or more (paragraph 0 is the page's title)")
  .max(1_000_000);

/** The body of POST /api/campaigns/:id/proposals: a passage of a page and the span in it that answers the question (code points, end exclusive). */
export const proposalInputSchema = z
  .object({
    queryId: askQueryIdSchema,
    wikipediaId: z.string().min(1, "must not be empty").max(200, "must be at most 200 characters"),
    startParagraphId: contentParagraph,
    endParagraphId: contentParagraph,
    span: spanSchema,
  })
  .strict()
  .superRefine((p, ctx) => {
    if (p.endParagraphId < p.startParagraphId)
      ctx.addIssue({ code: "custom", path: ["endParagraphId"], message: "must not be before startParagraphId" });
    else if (p.endParagraphId - p.startParagraphId >= MAX_PROPOSAL_PARAGRAPHS) {
      ctx.addIssue({ code: "custom", path: ["endParagraphId"], message: `a passage spans at most ${MAX_PROPOSAL_PARAGRAPHS} paragraphs` });
    }
    const s = p.span;
    if (s.endParagraphId < s.startParagraphId || (s.endParagraphId === s.startParagraphId && s.endCharacter <= s.startCharacter)) {
      ctx.addIssue({ code: "custom", path: ["span", "endCharacter"], message: "the span must end after it starts" });
    }
  });

export type ProposalInput = z.infer<typeof proposalInputSchema>;

/** The page's paragraphs of the passage, checked: the range lies within the page and the span within the range, reading its text. */
async function checkedPassage(db: Db, input: ProposalInput): Promise<void> {
  const [page] = rowsOf<{ n: number; slice: string[] }>(
    await db.execute(sql`select array_length(paragraphs, 1)::int as n,
      array_to_json(paragraphs[${input.startParagraphId + 1} : ${input.endParagraphId + 1}]) as slice
      from pages where wikipedia_id = ${input.wikipediaId}`),
  );
  if (!page)
    throw invalidField(
      "wikipediaId",
      `no page ${JSON.stringify(input.wikipediaId.slice(0, 200))} in the knowledge source`,
      "no such page in the knowledge source",
    );
  if (input.endParagraphId >= page.n) {
    throw invalidField(
      "endParagraphId",
      `the page has paragraphs 0–${page.n - 1}`,
      `must be at most ${page.n - 1} (the page's last paragraph)`,
    );
  }
  checkSpan({ start_paragraph_id: input.startParagraphId, end_paragraph_id: input.endParagraphId, slice: page.slice }, input.span);
}

/**
 * An annotator's proposal of another passage for the question `getAsk` asks them about: a new
 * passage of that question (origin `annotator` with their pseudonym, R open slots, never gold) that
 * the assignment hands to R other annotators like any candidate — or, when the question already has
 * a passage at that location, the proposal is merged into it (its origins gain the proposer). An
 * ended claim of the proposer on the passage keeps the assignment from ever giving it to them: the
 * claim statement skips passages the caller ever claimed (claims_passage_user_key), at no extra cost.
 * One transaction; 409 unless the caller is asked about this question, or the batch is not launched.
 */
export async function proposePassage(db: Db, actor: Actor, campaignId: number, input: ProposalInput): Promise<{ merged: boolean }> {
  const { user, campaign } = await requireActiveAnnotator(db, actor, campaignId, { fresh: true });
  if (user.role === "crowd") throw new AppError("forbidden", "Crowd workers do not propose passages.");
  await checkedPassage(db, input);
  const merged = await db.transaction(async (tx) => {
    const question = await requireAsked(tx, user, campaign, input.queryId);
    const [me] = rowsOf<{ pseudonym: string }>(await tx.execute(sql`select pseudonym from users where id = ${user.id}`));
    const origin: PassageOrigin = { kind: "annotator", annotator: me!.pseudonym };
    const { passageId, merged } = await placePassage(tx, user, campaign, question, input, origin);
    await tx.execute(sql`insert into proposals (passage_id, query_id, campaign_id, user_id, start_paragraph_id, start_character,
        end_paragraph_id, end_character, span_text)
      values (${passageId}, ${question.id}, ${campaign.id}, ${user.id}, ${input.span.startParagraphId}, ${input.span.startCharacter},
        ${input.span.endParagraphId}, ${input.span.endCharacter}, ${input.span.text})`);
    // Judged (or claimed) by nobody yet as far as the proposer goes: this ended claim is what the claim statement excludes.
    await tx.execute(sql`insert into claims (handle, passage_id, user_id, campaign_id, expires_at, ended_at)
      values (${newClaimHandle()}, ${passageId}, ${user.id}, ${campaign.id}, now(), now())`);
    return merged;
  });
  return { merged };
}

/** Inserts the proposed passage (its batch counts one passage more), or merges the proposal into the question's passage at that location. */
async function placePassage(
  tx: Tx,
  user: UserActor,
  campaign: Campaign,
  question: AskedQuestion,
  input: ProposalInput,
  origin: PassageOrigin,
): Promise<{ passageId: number; merged: boolean }> {
  // Locked as the passage count's update will (FOR NO KEY UPDATE: two proposals in one batch take turns rather than
  // deadlock upgrading shared locks); a status change waits for it, judgments and claims do not (key share, no lock).
  const [batch] = rowsOf<{ id: number }>(
    await tx.execute(sql`select id::float8 as id from batches where id = ${question.batchId} and status = 'launched' for no key update`),
  );
  if (!batch) throw new AppError("conflict", "This question's batch is not running: passages can be proposed only while it is launched.");
  const [inserted] = rowsOf<{ id: number }>(
    await tx.execute(sql`insert into passages (query_id, campaign_id, batch_id, wikipedia_id, start_paragraph_id, end_paragraph_id, origins, open_slots)
      values (${question.id}, ${campaign.id}, ${question.batchId}, ${input.wikipediaId}, ${input.startParagraphId}, ${input.endParagraphId},
        ${JSON.stringify([origin])}::jsonb, ${campaign.judgmentsPerPassage})
      on conflict (query_id, wikipedia_id, start_paragraph_id, end_paragraph_id) do nothing
      returning id::float8 as id`),
  );
  if (inserted) {
    await tx.execute(sql`update batches set passage_count = passage_count + 1 where id = ${question.batchId}`);
    return { passageId: inserted.id, merged: false };
  }
  const [existing] = rowsOf<{ id: number; mine: boolean }>(
    await tx.execute(sql`select p.id::float8 as id, exists (select 1 from claims c where c.passage_id = p.id and c.user_id = ${user.id}) as mine
      from passages p where p.query_id = ${question.id} and p.wikipedia_id = ${input.wikipediaId}
        and p.start_paragraph_id = ${input.startParagraphId} and p.end_paragraph_id = ${input.endParagraphId}
      for no key update`),
  );
  if (!existing) throw new Error("passage location conflict without a passage");
  if (existing.mine)
    throw new AppError("conflict", "You judged this passage already: propose another one, or explain why none answers the question.");
  await tx.execute(sql`update passages set origins = origins || ${JSON.stringify([origin])}::jsonb where id = ${existing.id}`);
  return { passageId: existing.id, merged: true };
}

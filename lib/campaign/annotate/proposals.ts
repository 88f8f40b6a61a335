import "server-only";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { rowsOf, type Db, type Tx } from "@/db/client";
import type { Campaign, PassageOrigin, SetMember } from "@/db/schema";
import type { Actor, UserActor } from "@/lib/auth/actor";
import { AppError, invalidField } from "@/lib/errors";
import { newClaimHandle } from "../claims.internal";
import { requireActiveAnnotator } from "./annotator-access";
import { MAX_PROPOSAL_PARAGRAPHS } from "./ask.contract";
import { askQueryIdSchema, requireAsked, type AskedQuestion } from "./ask";
import { MAX_DURATION_MS } from "./judgment-input";
import { checkSpan, spanSchema } from "./judgments";

const contentParagraph = z
  .number()
  .int("must be a whole number")
  .min(1, "must be 1 or more (paragraph 0 is the page's title)")
  .max(1_000_000);

/** One passage of a proposal: content paragraphs of a page and the span in them that answers (code points, end exclusive). */
const proposedPassageShape = {
  wikipediaId: z.string().min(1, "must not be empty").max(200, "must be at most 200 characters"),
  startParagraphId: contentParagraph,
  endParagraphId: contentParagraph,
  span: spanSchema,
};

type ProposedPassage = { wikipediaId: string; startParagraphId: number; endParagraphId: number; span: z.infer<typeof spanSchema> };

/** The range and span rules of one proposed passage, reported under `prefix` (`[]` or `["also"]`). */
function checkRange(p: ProposedPassage, ctx: z.RefinementCtx, prefix: string[]) {
  if (p.endParagraphId < p.startParagraphId)
    ctx.addIssue({ code: "custom", path: [...prefix, "endParagraphId"], message: "must not be before startParagraphId" });
  else if (p.endParagraphId - p.startParagraphId >= MAX_PROPOSAL_PARAGRAPHS) {
    ctx.addIssue({
      code: "custom",
      path: [...prefix, "endParagraphId"],
      message: `a passage spans at most ${MAX_PROPOSAL_PARAGRAPHS} paragraphs`,
    });
  }
  const s = p.span;
  if (s.endParagraphId < s.startParagraphId || (s.endParagraphId === s.startParagraphId && s.endCharacter <= s.startCharacter)) {
    ctx.addIssue({ code: "custom", path: [...prefix, "span", "endCharacter"], message: "the span must end after it starts" });
  }
}

/**
 * The body of POST /api/campaigns/:id/proposals: a passage of a page and the span in it that answers
 * the question (code points, end exclusive); with `also`, a second passage (another page, or apart on
 * the same one) with its span: the two are proposed as one evidence set, sufficient together.
 */
export const proposalInputSchema = z
  .object({
    queryId: askQueryIdSchema,
    ...proposedPassageShape,
    also: z.object(proposedPassageShape).strict().optional(),
  })
  .strict()
  .superRefine((p, ctx) => {
    checkRange(p, ctx, []);
    if (!p.also) return;
    checkRange(p.also, ctx, ["also"]);
    if (
      p.also.wikipediaId === p.wikipediaId &&
      p.also.startParagraphId <= p.endParagraphId &&
      p.startParagraphId <= p.also.endParagraphId
    ) {
      ctx.addIssue({ code: "custom", path: ["also", "startParagraphId"], message: "must not overlap the first passage" });
    }
  });
export type ProposalInput = z.infer<typeof proposalInputSchema>;

/** The page's paragraphs of a proposed passage, checked: the range lies within the page and the span within the range, reading its text (fields under `prefix`). */
async function checkedPassage(db: Db, input: ProposedPassage, prefix = ""): Promise<void> {
  const [page] = rowsOf<{ n: number; slice: string[] }>(
    await db.execute(sql`select array_length(paragraphs, 1)::int as n,
      array_to_json(paragraphs[${input.startParagraphId + 1} : ${input.endParagraphId + 1}]) as slice
      from pages where wikipedia_id = ${input.wikipediaId}`),
  );
  if (!page)
    throw invalidField(
      `${prefix}wikipediaId`,
      `no page ${JSON.stringify(input.wikipediaId.slice(0, 200))} in the knowledge source`,
      "no such page in the knowledge source",
    );
  if (input.endParagraphId >= page.n) {
    throw invalidField(
      `${prefix}endParagraphId`,
      `the page has paragraphs 0–${page.n - 1}`,
      `must be at most ${page.n - 1} (the page's last paragraph)`,
    );
  }
  checkSpan(
    { start_paragraph_id: input.startParagraphId, end_paragraph_id: input.endParagraphId, slice: page.slice },
    input.span,
    `${prefix}span`,
  );
}

/** The proposal's passages in page order (numeric page ids by number, then paragraphs): one, or the two of a set. */
function membersOf(input: ProposalInput): ProposedPassage[] {
  const first: ProposedPassage = {
    wikipediaId: input.wikipediaId,
    startParagraphId: input.startParagraphId,
    endParagraphId: input.endParagraphId,
    span: input.span,
  };
  if (!input.also) return [first];
  const pageKey = (id: string) => (/^[0-9]{1,18}$/.test(id) ? id.padStart(20, "0") : id);
  const before = (a: ProposedPassage, b: ProposedPassage) =>
    pageKey(a.wikipediaId) < pageKey(b.wikipediaId) || (a.wikipediaId === b.wikipediaId && a.startParagraphId < b.startParagraphId);
  return before(first, input.also) ? [first, input.also] : [input.also, first];
}

/**
 * An annotator's proposal of another passage for the question `getAsk` asks them about: a new
 * passage of that question (origin `annotator` with their pseudonym, never gold) that the assignment
 * hands to other annotators like any candidate — or, when the question already has a passage at that
 * location (one finished without the proposer: `requireAsked` allows no other), the proposal is merged
 * into it (its origins gain the proposer) and changes none of its judgments.
 *
 * The proposer's own highlight is the new passage's first judgment (`sufficient`, their span) when the
 * campaign's T is 2 or more, so R − 1 other annotators finish it and a campaign of exactly R
 * annotators can: it counts, is exported and agrees like any judgment, and the proposer cannot revise
 * it (`revisionRefusal`). With T = 1 one sufficient judgment endorses, so counting the proposer's would
 * let them endorse their own passage alone: the passage then waits for R judgments by others, as
 * every passage did before. Either way the proposer never judges it (again): their ended claim and
 * judgment keep the claim statement from handing it to them (claims_passage_user_key).
 * One transaction; 409 unless the caller is asked about this question, or the batch is not launched.
 */
export async function proposePassage(db: Db, actor: Actor, campaignId: number, input: ProposalInput): Promise<{ merged: boolean }> {
  const { user, campaign } = await requireActiveAnnotator(db, actor, campaignId, { fresh: true });
  if (user.role === "crowd") throw new AppError("forbidden", "Crowd workers do not propose passages.");
  await checkedPassage(db, input);
  if (input.also) await checkedPassage(db, input.also, "also.");
  const members = membersOf(input);
  const merged = await db.transaction(async (tx) => {
    const question = await requireAsked(tx, user, campaign, input.queryId);
    const [me] = rowsOf<{ pseudonym: string }>(await tx.execute(sql`select pseudonym from users where id = ${user.id}`));
    const origin: PassageOrigin = { kind: "annotator", annotator: me!.pseudonym };
    const selfJudged = campaign.endorsementThreshold >= 2;
    const { passageId, merged } = await placePassage(tx, user, campaign, question, members, origin, selfJudged);
    const s = members[0]!.span;
    await tx.execute(sql`insert into proposals (passage_id, query_id, campaign_id, user_id, start_paragraph_id, start_character,
        end_paragraph_id, end_character, span_text, member_spans)
      values (${passageId}, ${question.id}, ${campaign.id}, ${user.id}, ${s.startParagraphId}, ${s.startCharacter},
        ${s.endParagraphId}, ${s.endCharacter}, ${s.text}, ${memberSpansOf(members)}::jsonb)`);
    // An ended claim, so the claim statement never hands the passage to its proposer (and the judgment below has its claim).
    const [claim] = rowsOf<{ id: number }>(
      await tx.execute(sql`insert into claims (handle, passage_id, user_id, campaign_id, expires_at, ended_at)
        values (${newClaimHandle()}, ${passageId}, ${user.id}, ${campaign.id}, now(), now()) returning id::float8 as id`),
    );
    if (selfJudged && !merged) await insertProposerJudgment(tx, user, question, passageId, claim!.id, members);
    return merged;
  });
  return { merged };
}

/** A set proposal's spans, one per member, as judgments.member_spans holds them (json), or null for one passage. */
function memberSpansOf(members: ProposedPassage[]): string | null {
  return members.length > 1 ? JSON.stringify(members.map((m) => m.span)) : null;
}

/**
 * Inserts the proposed passage or set (its batch counts one passage more), or merges the proposal
 * into the question's passage at that location (for a set: the same members).
 */
async function placePassage(
  tx: Tx,
  user: UserActor,
  campaign: Campaign,
  question: AskedQuestion,
  members: ProposedPassage[],
  origin: PassageOrigin,
  selfJudged: boolean,
): Promise<{ passageId: number; merged: boolean }> {
  const input = members[0]!;
  const setMembers: SetMember[] | null =
    members.length > 1
      ? members.map((m) => ({ wikipediaId: m.wikipediaId, startParagraphId: m.startParagraphId, endParagraphId: m.endParagraphId }))
      : null;
  const setKey = members
    .slice(1)
    .map((m) => `${m.wikipediaId}:${m.startParagraphId}-${m.endParagraphId}`)
    .join("|");
  // Locked as the passage count's update will (FOR NO KEY UPDATE: two proposals in one batch take turns rather than
  // deadlock upgrading shared locks); a status change waits for it, judgments and claims do not (key share, no lock).
  const [batch] = rowsOf<{ id: number }>(
    await tx.execute(sql`select id::float8 as id from batches where id = ${question.batchId} and status = 'launched' for no key update`),
  );
  if (!batch) throw new AppError("conflict", "This question's batch is not running: passages can be proposed only while it is launched.");
  const [inserted] = rowsOf<{ id: number }>(
    await tx.execute(sql`insert into passages (query_id, campaign_id, batch_id, wikipedia_id, start_paragraph_id, end_paragraph_id, origins,
        set_members, set_key, judgment_count, sufficient_count, open_slots)
      values (${question.id}, ${campaign.id}, ${question.batchId}, ${input.wikipediaId}, ${input.startParagraphId}, ${input.endParagraphId},
        ${JSON.stringify([origin])}::jsonb, ${setMembers ? JSON.stringify(setMembers) : null}::jsonb, ${setKey},
        ${selfJudged ? 1 : 0}, ${selfJudged ? 1 : 0}, ${campaign.judgmentsPerPassage - (selfJudged ? 1 : 0)})
      on conflict (query_id, wikipedia_id, start_paragraph_id, end_paragraph_id, set_key) do nothing
      returning id::float8 as id`),
  );
  if (inserted) {
    await tx.execute(sql`update batches set passage_count = passage_count + 1 where id = ${question.batchId}`);
    return { passageId: inserted.id, merged: false };
  }
  const [existing] = rowsOf<{ id: number; mine: boolean }>(
    await tx.execute(sql`select p.id::float8 as id, exists (select 1 from claims c where c.passage_id = p.id and c.user_id = ${user.id}) as mine
      from passages p where p.query_id = ${question.id} and p.wikipedia_id = ${input.wikipediaId}
        and p.start_paragraph_id = ${input.startParagraphId} and p.end_paragraph_id = ${input.endParagraphId} and p.set_key = ${setKey}
      for no key update`),
  );
  if (!existing) throw new Error("passage location conflict without a passage");
  if (existing.mine)
    throw new AppError("conflict", "You judged this passage already: propose another one, or explain why none answers the question.");
  await tx.execute(sql`update passages set origins = origins || ${JSON.stringify([origin])}::jsonb where id = ${existing.id}`);
  return { passageId: existing.id, merged: true };
}

/**
 * The proposer's highlight as the new passage's first counted judgment (its counters were inserted
 * as 1 judgment, 1 sufficient, R − 1 open slots; with T ≥ 2 that neither finishes nor decides it). Its
 * time is the server's, from the proposer's previous judgment in the campaign (the one that finished
 * the question) to now — the time spent finding the passage — clamped to [0, 24 h] as a judgment's is.
 */
async function insertProposerJudgment(
  tx: Tx,
  user: UserActor,
  question: AskedQuestion,
  passageId: number,
  claimId: number,
  members: ProposedPassage[],
) {
  const s = members[0]!.span;
  await tx.execute(sql`insert into judgments (passage_id, user_id, claim_id, campaign_id, batch_id, verdict, unreadable,
      start_paragraph_id, start_character, end_paragraph_id, end_character, span_text, member_spans, duration_ms, idempotency_key, request_hash)
    select ${passageId}, ${user.id}, ${claimId}, p.campaign_id, p.batch_id, 'sufficient', false,
      ${s.startParagraphId}, ${s.startCharacter}, ${s.endParagraphId}, ${s.endCharacter}, ${s.text}, ${memberSpansOf(members)}::jsonb,
      least(greatest(round(extract(epoch from (clock_timestamp() - coalesce((select pj.created_at from judgments pj
        where pj.user_id = ${user.id} and pj.campaign_id = p.campaign_id order by pj.created_at desc limit 1), clock_timestamp()))) * 1000), 0),
        ${MAX_DURATION_MS})::int,
      ${"proposal:" + newClaimHandle()}, 'proposal'
    from passages p where p.id = ${passageId} and p.query_id = ${question.id}`);
}

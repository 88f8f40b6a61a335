import "server-only";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { rowsOf, type Db } from "@/db/client";
import { ADJUDICATION_DECISIONS, type AdjudicationDecision } from "@/db/schema";
import { requireCoordinator, requireUser, type Actor } from "@/lib/auth/actor";
import { recordAudit } from "@/lib/audit/audit";
import { AppError, invalidField, isUniqueViolation, parseInput } from "@/lib/errors";
import { checkSpan, spanSchema } from "../annotate/judgments";
import { getCampaign } from "../campaigns";
import type { AdjudicationView } from "./adjudication.contract";
import { countedJudgmentsOf } from "./counted-judgments";

/**
 * The coordinator's final word on a passage (as INCEpTION's curation): endorse it (with a span, or
 * the consensus span) or reject it, with a reason. A live (not reverted) decision overrides the vote
 * wherever "endorsed" is read for the export: the KILT export and the runs' golds (through
 * report/kilt-provenance.ts, `applyAdjudications`), and the question view. It applies to closed
 * batches too: the seal keeps the votes as they were, the coordinator's word is read on top of them.
 * A decision on a decoy or on negative gold is recorded, but such a passage is never exported.
 * Every decision and revert is written to the audit log.
 */

export const ADJUDICATION_REASON_MAX = 2000;

export const adjudicationInputSchema = z
  .object({
    decision: z.enum(ADJUDICATION_DECISIONS, "must be 'endorse' or 'reject'"),
    /** Endorse only: the span to export (code points, end exclusive, inside the passage); null or absent: the consensus span. */
    span: spanSchema.nullable().default(null),
    reason: z
      .string("must be a text")
      .trim()
      .min(1, "must not be empty: say why")
      .max(ADJUDICATION_REASON_MAX, `must be at most ${ADJUDICATION_REASON_MAX} characters`),
  })
  .strict()
  .superRefine((a, ctx) => {
    if (a.decision === "reject" && a.span)
      ctx.addIssue({ code: "custom", path: ["span"], message: "must be null when the decision is reject" });
    const s = a.span;
    if (s && (s.endParagraphId < s.startParagraphId || (s.endParagraphId === s.startParagraphId && s.endCharacter <= s.startCharacter))) {
      ctx.addIssue({ code: "custom", path: ["span", "endCharacter"], message: "the span must end after it starts" });
    }
  });

export type AdjudicationInput = z.input<typeof adjudicationInputSchema>;

/** Which decisions a list shows: a question's or the whole campaign's; the reverted ones too on request. */
export const adjudicationListQuerySchema = z.object({
  queryId: z.coerce.number().int().positive("must be a question id").optional(),
  reverted: z.enum(["0", "1"], "must be 0 or 1").default("0"),
});
export type AdjudicationListQuery = z.input<typeof adjudicationListQuerySchema>;

interface AdjudicationRow {
  id: string | number;
  passage_id: string | number;
  query_id: string | number;
  decision: AdjudicationDecision;
  start_paragraph_id: number | null;
  start_character: number | null;
  end_paragraph_id: number | null;
  end_character: number | null;
  span_text: string | null;
  reason: string;
  created_by: string | number | null;
  created_by_username: string;
  created_at: string | Date;
  reverted_at: string | Date | null;
  reverted_by: string | number | null;
}

const iso = (t: string | Date) => new Date(t).toISOString();

function viewOf(r: AdjudicationRow): AdjudicationView {
  return {
    id: Number(r.id),
    passageId: Number(r.passage_id),
    queryId: Number(r.query_id),
    decision: r.decision,
    span:
      r.start_paragraph_id === null || r.span_text === null
        ? null
        : {
            startParagraphId: r.start_paragraph_id,
            startCharacter: r.start_character!,
            endParagraphId: r.end_paragraph_id!,
            endCharacter: r.end_character!,
            text: r.span_text,
          },
    reason: r.reason,
    by: { id: r.created_by === null ? null : Number(r.created_by), username: r.created_by_username },
    at: iso(r.created_at),
    revertedAt: r.reverted_at === null ? null : iso(r.reverted_at),
    revertedBy: r.reverted_by === null ? null : Number(r.reverted_by),
  };
}

const SELECT_ADJUDICATION = sql`
  select a.id, a.passage_id, p.query_id, a.decision, a.start_paragraph_id, a.start_character, a.end_paragraph_id,
         a.end_character, a.span_text, a.reason, a.created_by, a.created_by_username, a.created_at, a.reverted_at, a.reverted_by
  from adjudications a join passages p on p.id = a.passage_id`;

interface PassageForDecision {
  id: string | number;
  start_paragraph_id: number;
  end_paragraph_id: number;
  slice: string[] | null;
  sealed: boolean;
  /** An evidence set: it exports the consensus of the highlights in each member, never a coordinator's span. */
  is_set: boolean;
}

/** The campaign's passage (not found: another campaign's, or none), with its paragraphs for the span check. */
async function passageOf(db: Db, campaignId: number, passageId: number): Promise<PassageForDecision> {
  const [p] = rowsOf<PassageForDecision>(
    await db.execute(sql`
      select p.id, p.start_paragraph_id, p.end_paragraph_id, b.sealed_judgments_per_passage is not null as sealed,
             p.set_members is not null as is_set,
             array_to_json(pg.paragraphs[p.start_paragraph_id + 1 : p.end_paragraph_id + 1]) as slice
      from passages p join pages pg on pg.wikipedia_id = p.wikipedia_id join batches b on b.id = p.batch_id
      where p.id = ${passageId} and p.campaign_id = ${campaignId}`),
  );
  if (!p) throw new AppError("not_found", `No passage with id ${passageId} in campaign ${campaignId}.`);
  return p;
}

/** Whether the passage has a consensus span to export: at least one counted sufficient highlight (in a closed batch: counted at close). */
async function hasConsensus(db: Db, p: PassageForDecision, judgmentsPerPassage: number): Promise<boolean> {
  const from = p.sealed
    ? sql`(select * from judgments where passage_id = ${Number(p.id)} and counted_at_close) counted`
    : countedJudgmentsOf([Number(p.id)], judgmentsPerPassage);
  const [row] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from ${from} where verdict = 'sufficient'`));
  return (row?.n ?? 0) > 0;
}

/**
 * Records the coordinator's decision on a passage of the campaign. A new decision replaces the live
 * one (reverted and replaced in one transaction). Endorse without a span exports the consensus span,
 * so it needs one: when no counted annotator highlighted the passage, the span must be given.
 */
export async function adjudicatePassage(
  db: Db,
  actor: Actor,
  campaignId: number,
  passageId: number,
  input: AdjudicationInput | unknown,
): Promise<AdjudicationView> {
  requireCoordinator(actor);
  const user = requireUser(actor);
  // Parsed here, after the caller is known to be a coordinator (the route hands the body on as it came).
  const decision = parseInput(adjudicationInputSchema, input);
  const campaign = await getCampaign(db, actor, campaignId);
  const p = await passageOf(db, campaignId, passageId);
  if (decision.span && p.is_set)
    throw invalidField(
      "span",
      `must be null: passage ${passageId} is an evidence set, which exports the consensus of the highlights in each of its members`,
    );
  if (decision.span) checkSpan(p, decision.span);
  else if (decision.decision === "endorse" && !(await hasConsensus(db, p, campaign.judgmentsPerPassage))) {
    throw invalidField(
      "span",
      `is required: no counted annotator highlighted passage ${passageId}, so it has no consensus span; give the span to export`,
    );
  }
  try {
    return await db.transaction(async (tx) => {
      // The passage's row lock orders concurrent decisions on it: each replaces the one before.
      await tx.execute(sql`select id from passages where id = ${passageId} for update`);
      const replaced = rowsOf<{ id: string | number }>(
        await tx.execute(sql`
          update adjudications set reverted_at = now(), reverted_by = ${user.id}
          where passage_id = ${passageId} and reverted_at is null returning id`),
      );
      const s = decision.span;
      const [row] = rowsOf<{ id: string | number }>(
        await tx.execute(sql`
          insert into adjudications (campaign_id, passage_id, decision, start_paragraph_id, start_character, end_paragraph_id, end_character,
                                     span_text, reason, created_by, created_by_username)
          values (${campaignId}, ${passageId}, ${decision.decision}, ${s?.startParagraphId ?? null}, ${s?.startCharacter ?? null},
                  ${s?.endParagraphId ?? null}, ${s?.endCharacter ?? null}, ${s?.text ?? null}, ${decision.reason}, ${user.id}, ${user.username})
          returning id`),
      );
      await recordAudit(tx, actor, {
        action: "passage.adjudicate",
        targetType: "passage",
        targetId: passageId,
        details: {
          campaignId,
          adjudicationId: Number(row!.id),
          decision: decision.decision,
          span: s ?? null,
          reason: decision.reason,
          replaced: replaced.length ? Number(replaced[0]!.id) : null,
        },
      });
      const [view] = rowsOf<AdjudicationRow>(await tx.execute(sql`${SELECT_ADJUDICATION} where a.id = ${Number(row!.id)}`));
      return viewOf(view!);
    });
  } catch (error) {
    if (isUniqueViolation(error, "adjudications_live_key")) {
      throw new AppError("conflict", `Another decision on passage ${passageId} was recorded at the same moment; reload and try again.`);
    }
    throw error;
  }
}

/** Reverts the live decision on a passage: the vote decides again. Not found when there is none. */
export async function revertAdjudication(db: Db, actor: Actor, campaignId: number, passageId: number): Promise<AdjudicationView> {
  requireCoordinator(actor);
  const user = requireUser(actor);
  await getCampaign(db, actor, campaignId);
  await passageOf(db, campaignId, passageId);
  return db.transaction(async (tx) => {
    const [row] = rowsOf<{ id: string | number }>(
      await tx.execute(sql`
        update adjudications set reverted_at = now(), reverted_by = ${user.id}
        where passage_id = ${passageId} and campaign_id = ${campaignId} and reverted_at is null returning id`),
    );
    if (!row) throw new AppError("not_found", `Passage ${passageId} has no live decision to revert.`);
    const [view] = rowsOf<AdjudicationRow>(await tx.execute(sql`${SELECT_ADJUDICATION} where a.id = ${Number(row.id)}`));
    await recordAudit(tx, actor, {
      action: "passage.adjudication_revert",
      targetType: "passage",
      targetId: passageId,
      details: {
        campaignId,
        adjudicationId: Number(row.id),
        decision: view!.decision,
        reason: view!.reason,
        by: view!.created_by_username,
      },
    });
    return viewOf(view!);
  });
}

/** A question's or the campaign's decisions, live ones only unless `reverted=1`, newest first. */
export async function listAdjudications(
  db: Db,
  actor: Actor,
  campaignId: number,
  query: AdjudicationListQuery = {},
): Promise<AdjudicationView[]> {
  requireCoordinator(actor);
  const q = adjudicationListQuerySchema.parse(query);
  await getCampaign(db, actor, campaignId);
  const byQuery = q.queryId === undefined ? sql`` : sql`and p.query_id = ${q.queryId}`;
  const live = q.reverted === "1" ? sql`` : sql`and a.reverted_at is null`;
  return rowsOf<AdjudicationRow>(
    await db.execute(
      sql`${SELECT_ADJUDICATION} where a.campaign_id = ${campaignId} ${byQuery} ${live} order by a.created_at desc, a.id desc limit 10000`,
    ),
  ).map(viewOf);
}

// ── Internal: read by the export and the question view (their callers authorized) ──

/** The live decisions on these passages, by passage id. */
export async function liveAdjudicationsOf(db: Db, passageIds: number[]): Promise<Map<number, AdjudicationView>> {
  if (!passageIds.length) return new Map();
  const rows = rowsOf<AdjudicationRow>(
    await db.execute(sql`${SELECT_ADJUDICATION} where a.passage_id = any(${sql.param(passageIds)}::bigint[]) and a.reverted_at is null`),
  );
  return new Map(rows.map((r) => [Number(r.passage_id), viewOf(r)]));
}

/** What a passage's outcome needs to be overridden (the report rows have these). */
interface Adjudicable {
  id: string | number;
  expected_verdict: "sufficient" | "insufficient" | null;
  outcome: { endorsed: boolean; missesGold: boolean };
  adjudication?: AdjudicationView;
}

/**
 * Applies the live decisions to passages read with their vote's outcome, in place: endorse makes a
 * passage endorsed (never negative gold or a decoy: those are never exported), reject makes it not
 * endorsed; either way a decided gold passage no longer makes its question unanswerable (the
 * coordinator said what it is). Each decided passage gets its `adjudication`.
 */
export function applyAdjudications<P extends Adjudicable>(ps: P[], live: Map<number, AdjudicationView>): P[] {
  for (const p of ps) {
    const a = live.get(Number(p.id));
    if (!a) continue;
    p.adjudication = a;
    p.outcome = { ...p.outcome, endorsed: a.decision === "endorse" && p.expected_verdict !== "insufficient", missesGold: false };
  }
  return ps;
}

/** `meta.adjudicated_by` of an exported passage the coordinator decided. */
export function adjudicatedByMeta(a: AdjudicationView): { username: string; reason: string; at: string } {
  return { username: a.by.username, reason: a.reason, at: a.at };
}

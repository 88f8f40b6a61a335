import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { annotatorStandings, campaigns, claims, judgments, users, type Campaign } from "@/db/schema";
import { recordAudit } from "@/lib/audit/audit";
import { requireCoordinator, type Actor } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import { getCampaign } from "../campaigns";
import { recountPassages } from "./recount.internal";
import type { AnnotatorListQuery, Page } from "@/lib/list-options.contract";
import { annotatorPageRows, annotatorRows, annotatorRowsOf } from "../report/annotator-rows";
import type { AnnotatorRow } from "../report/annotators.contract";
import { campaignAccessChanged } from "../annotate/annotator-access";
import { smoothedAccuracy } from "./consensus";
import { checkGoldSpan } from "./span-check";
import type { FactLabel, TaskKind } from "@/lib/kilt/task-kind";

/** What a gold passage expects: its verdict and, optionally, its span (code points, end exclusive). */
export interface GoldExpectation {
  expectedVerdict: "sufficient" | "insufficient" | null;
  expectedStartParagraphId: number | null;
  expectedStartCharacter: number | null;
  expectedEndParagraphId: number | null;
  expectedEndCharacter: number | null;
}

/** A gold passage as the span check needs it: what it expects, and its paragraphs (needed when it expects a span). */
export interface GoldPassage extends GoldExpectation {
  startParagraphId: number;
  /** The passage's paragraphs from startParagraphId; null only when no span check can apply. */
  paragraphs: readonly string[] | null;
  /** The task of its batch (absent: QA). Entity linking takes no span check. */
  taskKind?: TaskKind;
  /** Fact checking: the line's dataset label (its first answer), SUPPORTS or REFUTES. */
  expectedLabel?: string | null;
  /**
   * An evidence set: each member's first paragraph id, paragraphs (null when no member
   * expects a span) and expected span; the columns above are then not read for the span check.
   */
  members?: readonly GoldMember[] | null;
}

/** One member of a gold set as the span check reads it. */
export interface GoldMember {
  startParagraphId: number;
  paragraphs: readonly string[] | null;
  expectedSpan: SpanLocation | null;
}

type SpanLocation = { startParagraphId: number; startCharacter: number; endParagraphId: number; endCharacter: number };

/**
 * Whether a judgment on a gold passage is right: its verdict; on sufficient fact-checking gold, its
 * label matching the line's dataset label; and on sufficient gold with an expected span, its span
 * passing the span check (span-check.ts: it covers half of the expected span and is no longer than
 * the sentences holding it plus `slack`, or 3× the expected span). Gold without an expected span,
 * entity-linking gold (the page is the evidence: no span is asked for) and negative gold (expected
 * insufficient) are judged by the verdict (and label) alone. The one place gold correctness is decided.
 */
export function isGoldCorrect(
  passage: GoldPassage,
  judgment: {
    verdict: "sufficient" | "insufficient" | "partial";
    span: SpanLocation | null;
    spans?: readonly SpanLocation[] | null;
    label?: FactLabel | null;
  },
  slack: number,
): boolean {
  // "Part of the evidence" is not sufficient: right only where insufficient is.
  if ((judgment.verdict === "partial" ? "insufficient" : judgment.verdict) !== passage.expectedVerdict) return false;
  if (passage.expectedVerdict !== "sufficient") return true;
  if (passage.taskKind === "fact-checking" && passage.expectedLabel && (judgment.label ?? null) !== passage.expectedLabel) return false;
  if (passage.taskKind === "entity-linking") return true;
  // A gold set is right only with a highlight passing the span check in each member that expects one.
  if (passage.members) return passage.members.every((m, i) => memberSpanRight(m, judgment.spans?.[i] ?? null, slack));
  if (passage.expectedStartParagraphId === null) return true;
  if (!judgment.span) return false;
  if (!passage.paragraphs) throw new Error("isGoldCorrect: the passage's paragraphs are needed for the span check");
  const expected = {
    startParagraphId: passage.expectedStartParagraphId,
    startCharacter: passage.expectedStartCharacter!,
    endParagraphId: passage.expectedEndParagraphId!,
    endCharacter: passage.expectedEndCharacter!,
  };
  return checkGoldSpan({ startParagraphId: passage.startParagraphId, paragraphs: passage.paragraphs }, expected, judgment.span, slack)
    .right;
}

function memberSpanRight(member: GoldMember, span: SpanLocation | null, slack: number): boolean {
  if (!member.expectedSpan) return true;
  if (!span) return false;
  if (!member.paragraphs) throw new Error("isGoldCorrect: a gold set member's paragraphs are needed for the span check");
  return checkGoldSpan({ startParagraphId: member.startParagraphId, paragraphs: member.paragraphs }, member.expectedSpan, span, slack)
    .right;
}

/** The two kinds of gold the gold rule weighs apart: sufficient gold, and negative gold (expected insufficient, decoys included). */
export interface GoldCounts {
  goldJudged: number;
  goldCorrect: number;
  negativeGoldJudged: number;
  negativeGoldCorrect: number;
}

/** Each kind's judged and correct, from the standing's counts (gold_judged counts both kinds). */
export function goldKinds(c: GoldCounts): {
  sufficient: { judged: number; correct: number };
  negative: { judged: number; correct: number };
} {
  return {
    sufficient: { judged: c.goldJudged - c.negativeGoldJudged, correct: c.goldCorrect - c.negativeGoldCorrect },
    negative: { judged: c.negativeGoldJudged, correct: c.negativeGoldCorrect },
  };
}

/** A standing's gold counts as the write statement (or a revision) returns them. */
export function goldCountsOf(r: {
  gold_judged: number | null;
  gold_correct: number | null;
  negative_gold_judged: number | null;
  negative_gold_correct: number | null;
}): GoldCounts {
  return {
    goldJudged: r.gold_judged ?? 0,
    goldCorrect: r.gold_correct ?? 0,
    negativeGoldJudged: r.negative_gold_judged ?? 0,
    negativeGoldCorrect: r.negative_gold_correct ?? 0,
  };
}

/**
 * The gold rule, per kind of gold: after `minJudgments` judgments of one kind (sufficient gold, or
 * negative gold with decoys), an annotator whose smoothed accuracy (0.5 + correct) / (1 + judged)
 * on that kind is below `threshold` is to be paused. Each bot kind scores about 0 on one kind at
 * least (always-insufficient on sufficient gold, always-sufficient on negative gold, whole-passage
 * and first-word highlights on sufficient gold through the span check), while an honest annotator
 * right 75% of the time stays above 0.3 on both; one pooled figure could not tell them apart.
 */
export function breaksGoldRule(c: GoldCounts, rule: { minJudgments: number; threshold: number }): boolean {
  const kinds = goldKinds(c);
  // The threshold is stored as a `real`: 0.3 reads back as 0.30000001192…, which would pause an
  // annotator exactly at it (1 right of 4: 0.3). Six decimals give back the value the coordinator set.
  const threshold = Number(rule.threshold.toFixed(6));
  return [kinds.sufficient, kinds.negative].some(
    (k) => k.judged > 0 && k.judged >= rule.minJudgments && smoothedAccuracy(k.correct, k.judged) < threshold,
  );
}

/**
 * Pauses an annotator in a campaign: they get no more passages, their live claims end, and their
 * judgments stop counting (their slots reopen) until resumed. `by` null: the gold rule.
 */
export async function setStanding(
  db: Db,
  campaign: Campaign,
  userId: number,
  change: { status: "paused"; reason: "coordinator" | "gold_rule" | "speed_rule"; by: number | null } | { status: "active" },
): Promise<void> {
  await db.transaction(async (tx) => {
    const values =
      change.status === "paused"
        ? { status: "paused" as const, pauseReason: change.reason, pausedAt: new Date(), pausedBy: change.by }
        : { status: "active" as const, pauseReason: null, pausedAt: null, pausedBy: null };
    await tx
      .insert(annotatorStandings)
      .values({ campaignId: campaign.id, userId, ...values })
      .onConflictDoUpdate({
        target: [annotatorStandings.campaignId, annotatorStandings.userId],
        set: { ...values, updatedAt: new Date() },
      });
    const ended =
      change.status === "paused"
        ? await tx
            .update(claims)
            .set({ endedAt: new Date() })
            .where(and(eq(claims.campaignId, campaign.id), eq(claims.userId, userId), isNull(claims.endedAt)))
            .returning({ passageId: claims.passageId })
        : [];
    const judged = await tx
      .select({ passageId: judgments.passageId })
      .from(judgments)
      .where(and(eq(judgments.campaignId, campaign.id), eq(judgments.userId, userId)));
    await recountPassages(
      tx,
      campaign,
      [...ended, ...judged].map((r) => r.passageId),
    );
  });
  campaignAccessChanged(); // the cached standing of this process goes at once (other processes: ≤ 1 s)
}

async function campaignRow(db: Db, campaignId: number): Promise<Campaign> {
  const [row] = await db.select().from(campaigns).where(eq(campaigns.id, campaignId));
  if (!row) throw new AppError("not_found", `No campaign with id ${campaignId}.`);
  return row;
}

async function assertAnnotator(db: Db, userId: number): Promise<void> {
  const [u] = await db.select({ role: users.role }).from(users).where(eq(users.id, userId));
  // A crowd worker's account is an annotator of its one campaign: coordinators pause and resume it too.
  if (!u || (u.role !== "annotator" && u.role !== "crowd")) throw new AppError("not_found", `No annotator with id ${userId}.`);
}

/** A coordinator pauses an annotator in a campaign. */
export async function pauseAnnotator(db: Db, actor: Actor, campaignId: number, userId: number): Promise<AnnotatorStanding> {
  const { userId: by } = requireCoordinator(actor);
  const campaign = await campaignRow(db, campaignId);
  await assertAnnotator(db, userId);
  await setStanding(db, campaign, userId, { status: "paused", reason: "coordinator", by });
  await recordAudit(db, actor, { action: "standing.pause", targetType: "user", targetId: userId, details: { campaignId } });
  return getStanding(db, actor, campaignId, userId);
}

/** A coordinator resumes an annotator: their judgments count again (up to R per passage). */
export async function resumeAnnotator(db: Db, actor: Actor, campaignId: number, userId: number): Promise<AnnotatorStanding> {
  requireCoordinator(actor);
  const campaign = await campaignRow(db, campaignId);
  await assertAnnotator(db, userId);
  await setStanding(db, campaign, userId, { status: "active" });
  await recordAudit(db, actor, { action: "standing.resume", targetType: "user", targetId: userId, details: { campaignId } });
  return getStanding(db, actor, campaignId, userId);
}

export type AnnotatorStanding = AnnotatorRow;

/**
 * The annotators who judged in a campaign (or have a standing there), with their figures, a page at
 * a time: sorted by any column in the database (ties by user id), `q` a part of the username. Every
 * member's figures are computed from the tallies to rank them (a few rows per annotator, not per
 * judgment); only the page's rows are sent.
 */
export async function listStandings(db: Db, actor: Actor, campaignId: number, query: AnnotatorListQuery): Promise<Page<AnnotatorStanding>> {
  requireCoordinator(actor);
  await getCampaign(db, actor, campaignId);
  return annotatorPageRows(db, campaignId, query);
}

export async function getStanding(db: Db, actor: Actor, campaignId: number, userId: number): Promise<AnnotatorStanding> {
  requireCoordinator(actor);
  await getCampaign(db, actor, campaignId);
  const [found] = await annotatorRows(db, campaignId, { userId });
  if (found) return found;
  const [u] = await db.select({ username: users.username }).from(users).where(eq(users.id, userId));
  return annotatorRowsOf(
    [],
    [{ userId, username: u?.username ?? "?", status: null, pauseReason: null, goldJudged: null, goldCorrect: null }],
  )[0]!;
}

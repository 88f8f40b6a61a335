import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { annotatorStandings, campaigns, claims, judgments, users, type Campaign } from "@/db/schema";
import { recordAudit } from "@/lib/audit/audit";
import { requireCoordinator, type Actor } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import { getCampaign } from "../campaigns";
import { recountPassages } from "../internal/recount";
import type { AnnotatorListQuery, Page } from "@/lib/lists/list-options";
import { annotatorPageRows, annotatorRows, annotatorRowsOf, type AnnotatorRow } from "../report/annotator-rows";
import { campaignAccessChanged } from "../annotate/annotator-access";

/** Whether a judgment on a gold passage is right: its verdict, and its span overlapping the expected one. */
export function isGoldCorrect(
  passage: { expectedVerdict: "sufficient" | "insufficient" | null; expectedStartParagraphId: number | null; expectedStartCharacter: number | null; expectedEndParagraphId: number | null; expectedEndCharacter: number | null },
  judgment: { verdict: "sufficient" | "insufficient"; span: { startParagraphId: number; startCharacter: number; endParagraphId: number; endCharacter: number } | null },
): boolean {
  if (judgment.verdict !== passage.expectedVerdict) return false;
  if (passage.expectedStartParagraphId === null || !judgment.span) return true;
  // Compare (paragraph, character) pairs: the spans overlap when each starts before the other ends.
  const before = (p1: number, c1: number, p2: number, c2: number) => p1 < p2 || (p1 === p2 && c1 < c2);
  const s = judgment.span;
  return (
    before(s.startParagraphId, s.startCharacter, passage.expectedEndParagraphId!, passage.expectedEndCharacter!) &&
    before(passage.expectedStartParagraphId, passage.expectedStartCharacter!, s.endParagraphId, s.endCharacter)
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
      .onConflictDoUpdate({ target: [annotatorStandings.campaignId, annotatorStandings.userId], set: { ...values, updatedAt: new Date() } });
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
    await recountPassages(tx, campaign, [...ended, ...judged].map((r) => r.passageId));
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
  return annotatorRowsOf([], [{ userId, username: u?.username ?? "?", status: null, pauseReason: null, goldJudged: null, goldCorrect: null }])[0]!;
}

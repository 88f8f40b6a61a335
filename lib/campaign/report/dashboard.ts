import "server-only";
import { asc, eq } from "drizzle-orm";
import { rawClientOf, type Db } from "@/db/client";
import { batches } from "@/db/schema";
import { requireCoordinator, type Actor } from "@/lib/auth/actor";
import { fleissKappa, krippendorffAlphaNominal, verdictProfiles } from "@/lib/metrics/agreement";
import { finishOutlook, projectFinish } from "@/lib/metrics/progress";
import { getCampaign } from "../campaigns";
import { annotatorSkills, campaignFit, endorsedByFit } from "../quality/aggregation";
import { waitingCounts } from "../quality/adjudication-waiting";
import { isEndorsed, isFinished } from "../quality/outcome";
import {
  activitySpan,
  compactTallies,
  disputedQuestions,
  judgmentsOverTime,
  passageCells,
  questionCounts,
  type PassageCell,
} from "../tallies.internal";
import { goldSummary } from "./gold-summary";
import { notedJudgments } from "./noted-judgments";
import { responseCounts } from "./response-counts";
import { unfillableSlots } from "./unfillable-slots";
import type { Dashboard, Progress } from "./dashboard.contract";

/** Annotators the dashboard lists by skill. */
export const SKILL_ROWS = 50;

const WINDOW_MINUTES = 60;
const MAX_POINTS = 120;
const BIN_CHOICES = [1, 5, 15, 30, 60, 180, 360, 720, 1440, 10080];

/** The smallest bin (in minutes) that shows `spanMinutes` in at most 120 points. */
export function chartBinMinutes(spanMinutes: number): number {
  return BIN_CHOICES.find((b) => spanMinutes / b < MAX_POINTS) ?? BIN_CHOICES[BIN_CHOICES.length - 1]!;
}

/** Sums cells into slots, finished and endorsed passages, and agreement on the counted verdicts. */
export function progressOf(cells: readonly PassageCell[], r: number, t: number): Progress {
  let passages = 0;
  let filled = 0;
  let claimed = 0;
  let open = 0;
  let finished = 0;
  let endorsed = 0;
  for (const c of cells) {
    passages += c.passages;
    filled += c.judgments * c.passages;
    claimed += c.claimed;
    open += c.open;
    // A cell holds passages with the same counts: all finished at R judgments, else the decided ones.
    finished += isFinished({ judgmentCount: c.judgments, isDecided: false }, r) ? c.passages : c.decided;
    if (isEndorsed(c.sufficient, t)) endorsed += c.passages;
  }
  const slots = passages * r;
  const profiles = verdictProfiles(cells.map((c) => ({ judgments: c.judgments, sufficient: c.sufficient, passages: c.passages })));
  return {
    passages,
    slots,
    filled,
    claimed,
    open,
    notNeeded: Math.max(0, slots - filled - claimed - open),
    finishedPassages: finished,
    endorsedPassages: endorsed,
    alpha: krippendorffAlphaNominal(profiles),
    kappa: fleissKappa(profiles),
  };
}

/** The campaign's batches, oldest first. */
const batchList = (q: Db, campaignId: number) =>
  q
    .select({ id: batches.id, name: batches.name, status: batches.status })
    .from(batches)
    .where(eq(batches.campaignId, campaignId))
    .orderBy(asc(batches.id));

/** Everything the live dashboard shows, read from the tallies (cost independent of the number of passages). */
export async function getDashboard(db: Db, actor: Actor, campaignId: number, now = new Date()): Promise<Dashboard> {
  requireCoordinator(actor);
  const campaign = await getCampaign(db, actor, campaignId);
  await compactTallies(db);
  const r = campaign.judgmentsPerPassage;
  const t = campaign.endorsementThreshold;
  const since = new Date(now.getTime() - WINDOW_MINUTES * 60_000);
  const reads = async (q: Db) => {
    const [batchRows, cells, questions, span, disputed, noted, responses, gold, waiting, unfillable] = await Promise.all([
      batchList(q, campaignId),
      passageCells(q, campaignId),
      questionCounts(q, campaignId),
      activitySpan(q, campaignId, since),
      disputedQuestions(q, campaignId, 20),
      notedJudgments(q, campaignId),
      responseCounts(q, campaignId),
      goldSummary(q, campaignId),
      waitingCounts(q, campaignId),
      unfillableSlots(q, campaignId),
    ]);
    const binMinutes = span.first && span.last ? chartBinMinutes((span.last.getTime() - span.first.getTime()) / 60_000 + 1) : 1;
    const points = span.first ? await judgmentsOverTime(q, campaignId, binMinutes) : [];
    return { batchRows, cells, questions, span, disputed, noted, responses, gold, waiting, unfillable, binMinutes, points };
  };
  // PostgreSQL runs the reads in parallel on the pool. PGlite runs one statement at a time and lets
  // other requests' transactions in between ours: one read-only transaction keeps them together,
  // so the dashboard waits for a writer once, not once per statement (bench/dashboard).
  const { batchRows, cells, questions, span, disputed, noted, responses, gold, waiting, unfillable, binMinutes, points } =
    rawClientOf(db).kind === "pglite" ? await db.transaction((tx) => reads(tx), { accessMode: "read only" }) : await reads(db);

  const batchProgress = batchRows.map((b) => ({
    id: b.id,
    name: b.name,
    status: b.status,
    ...progressOf(
      cells.filter((c) => c.batchId === b.id),
      r,
      t,
    ),
  }));
  const live = new Set(batchRows.filter((b) => b.status !== "closed").map((b) => b.id));
  const remainingSlots = batchProgress.filter((b) => live.has(b.id)).reduce((s, b) => s + b.open + b.claimed, 0);
  const projected = projectFinish({ remainingSlots, judgmentsInWindow: span.recent, windowMinutes: WINDOW_MINUTES });
  // The Dawid–Skene fit (cached while nothing it reads changes): the skills, and under
  // `dawid-skene` the endorsed figures (finished passages with a posterior of at least 0.5).
  const fit = await campaignFit(db, campaign);
  if (campaign.aggregation === "dawid-skene") {
    const endorsed = await endorsedByFit(db, campaign, fit);
    for (const b of batchProgress) b.endorsedPassages = endorsed.get(b.id) ?? 0;
  }
  const totals = progressOf(cells, r, t);
  if (campaign.aggregation === "dawid-skene") totals.endorsedPassages = batchProgress.reduce((s, b) => s + b.endorsedPassages, 0);
  const outlook = finishOutlook({ slots: totals.slots, remainingSlots, judgmentsInWindow: span.recent, windowMinutes: WINDOW_MINUTES });

  return {
    campaign: { id: campaign.id, name: campaign.name, judgmentsPerPassage: r, endorsementThreshold: t, aggregation: campaign.aggregation },
    generatedAt: now.toISOString(),
    totals,
    batches: batchProgress,
    questions,
    activity: { binMinutes, points: fillBins(points, binMinutes) },
    projection: {
      windowMinutes: WINDOW_MINUTES,
      judgmentsInWindow: span.recent,
      perHour: projected.perHour,
      remainingSlots,
      secondsLeft: projected.secondsLeft,
      outlook,
    },
    disputed,
    noted,
    responses,
    gold,
    skills: await annotatorSkills(db, fit, SKILL_ROWS),
    waiting,
    unfillable,
  };
}

/** Adds the empty bins between the first and last so the chart's time axis is even. */
export function fillBins(points: readonly { at: Date; judgments: number }[], binMinutes: number): { at: string; judgments: number }[] {
  if (!points.length) return [];
  const step = binMinutes * 60_000;
  const byTime = new Map(points.map((p) => [p.at.getTime(), p.judgments]));
  const out: { at: string; judgments: number }[] = [];
  for (let at = points[0]!.at.getTime(); at <= points[points.length - 1]!.at.getTime(); at += step) {
    out.push({ at: new Date(at).toISOString(), judgments: byTime.get(at) ?? 0 });
  }
  return out;
}

import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import type { Aggregation } from "@/db/schema";
import type { CampaignView } from "../campaigns";
import { countedJudgmentsOf } from "./counted-judgments";
import { fitDawidSkene, type DawidSkeneFit, type Verdict, type Vote } from "./dawid-skene";
import type { PassageOutcome } from "./outcome";
import type { AnnotatorSkill } from "../report/dashboard.contract";

// What "endorsed" means in a campaign (its `aggregation` setting), in one place: majority (T of the
// R counted votes, the tallies' rule) or Dawid–Skene (a finished passage whose posterior P(sufficient)
// is at least 0.5). The fit (dawid-skene.ts, pure) runs over the campaign's counted judgments with
// the gold passages' expected verdicts as known labels, and is cached per campaign under a
// fingerprint of what it was fitted on, so repeated reads do not refit. Internal: callers authorize.

/** The campaign's Dawid–Skene fit, by the campaign's own ids. */
export interface CampaignFit {
  /** Passage id → P(sufficient); only passages with counted judgments (gold among them: clamped to its expected verdict). */
  posteriors: ReadonlyMap<number, number>;
  /** User id → estimated accuracy Σ_c prior(c)·P(says c | truth c); annotators with counted judgments. */
  skills: ReadonlyMap<number, number>;
  /** User id → counted judgments in the fit. */
  judgments: ReadonlyMap<number, number>;
  priors: { sufficient: number; insufficient: number };
  /** User id → confusion matrix, "observed|true" → P. */
  errors: ReadonlyMap<number, Record<string, number>>;
  /** Counted judgments fitted. */
  votes: number;
}

/** The annotator's accuracy from their confusion matrix: Σ over true classes of prior · P(observed = true). */
export function accuracyOf(errors: Record<string, number>, priors: { sufficient: number; insufficient: number }): number {
  return priors.sufficient * (errors["sufficient|sufficient"] ?? 0) + priors.insufficient * (errors["insufficient|insufficient"] ?? 0);
}

/** Whether a posterior endorses a passage once it is finished. */
export const POSTERIOR_THRESHOLD = 0.5;

/** The fit's inputs, and what they are read from: counted judgments (open batches: countedJudgmentsOf; closed: as counted at close) and gold. */
async function readFitInput(
  db: Db,
  campaign: Pick<CampaignView, "id" | "judgmentsPerPassage">,
): Promise<{ votes: Vote[]; gold: Map<string, Verdict> }> {
  const openPassages = sql`array(select p.id from passages p join batches b on b.id = p.batch_id
    where p.campaign_id = ${campaign.id} and b.sealed_judgments_per_passage is null)`;
  const rows = rowsOf<{ passage_id: string | number; user_id: string | number; verdict: Verdict }>(
    await db.execute(sql`
      select passage_id, user_id, verdict from ${countedJudgmentsOf(openPassages, campaign.judgmentsPerPassage)}
      union all
      select j.passage_id, j.user_id, j.verdict from judgments j join batches b on b.id = j.batch_id
      where j.campaign_id = ${campaign.id} and b.sealed_judgments_per_passage is not null and j.counted_at_close
      order by 1, 2`),
  );
  const votes = rows.map((r) => ({ passage: String(r.passage_id), annotator: String(r.user_id), verdict: r.verdict }));
  const voted = new Set(votes.map((v) => v.passage));
  const goldRows = rowsOf<{ id: string | number; expected_verdict: Verdict }>(
    await db.execute(
      sql`select id, expected_verdict from passages where campaign_id = ${campaign.id} and is_gold and expected_verdict is not null`,
    ),
  );
  const gold = new Map(goldRows.filter((g) => voted.has(String(g.id))).map((g) => [String(g.id), g.expected_verdict] as const));
  return { votes, gold };
}

/**
 * What the fit depends on, cheaply: the campaign's judgments (how many, the newest id, the sum of
 * revisions), its standings (how many, the latest change: a pause or a resume), its batches (how
 * many, how many sealed), its gold passages and R. Any new, revised or removed judgment, pause,
 * resume or close changes it.
 */
async function fingerprintOf(db: Db, campaign: Pick<CampaignView, "id" | "judgmentsPerPassage">): Promise<string> {
  const [row] = rowsOf<{ f: string }>(
    await db.execute(sql`
      select concat_ws('|',
        (select concat_ws(',', count(*), max(id), sum(revision)) from judgments where campaign_id = ${campaign.id}),
        (select concat_ws(',', count(*), max(updated_at)::text, count(*) filter (where status = 'paused')) from annotator_standings where campaign_id = ${campaign.id}),
        (select concat_ws(',', count(*), count(*) filter (where sealed_judgments_per_passage is not null)) from batches where campaign_id = ${campaign.id}),
        (select concat_ws(',', count(*), max(id), count(*) filter (where expected_verdict = 'sufficient')) from passages where campaign_id = ${campaign.id} and is_gold),
        ${campaign.judgmentsPerPassage}::int) as f`),
  );
  return row!.f;
}

function campaignFitOf(fit: DawidSkeneFit, votes: readonly Vote[]): CampaignFit {
  const posteriors = new Map<number, number>();
  for (const [passage, p] of fit.pSufficient) posteriors.set(Number(passage), p);
  const errors = new Map<number, Record<string, number>>();
  const skills = new Map<number, number>();
  for (const [annotator, matrix] of fit.errors) {
    errors.set(Number(annotator), matrix);
    skills.set(Number(annotator), accuracyOf(matrix, fit.priors));
  }
  const judgments = new Map<number, number>();
  for (const v of votes) judgments.set(Number(v.annotator), (judgments.get(Number(v.annotator)) ?? 0) + 1);
  return { posteriors, skills, judgments, priors: fit.priors, errors, votes: votes.length };
}

const EMPTY_FIT: CampaignFit = {
  posteriors: new Map(),
  skills: new Map(),
  judgments: new Map(),
  priors: { sufficient: 0.5, insufficient: 0.5 },
  errors: new Map(),
  votes: 0,
};

/**
 * Fits kept per database and campaign (this process), the most recently used last: per database
 * because campaign ids repeat across databases (tests open several in one process).
 */
const MAX_CACHED = 32;
type FitCache = Map<number, { fingerprint: string; fit: Promise<CampaignFit> }>;
const caches = new WeakMap<Db, FitCache>();
let fitsRun = 0;

/** How many fits this process has run (the cache's tests read it). */
export function fitCount(): number {
  return fitsRun;
}

/**
 * The campaign's Dawid–Skene fit over its counted judgments, gold clamped: from the cache when
 * nothing it depends on changed since (fingerprintOf), else fitted anew.
 */
export async function campaignFit(db: Db, campaign: Pick<CampaignView, "id" | "judgmentsPerPassage">): Promise<CampaignFit> {
  const fingerprint = await fingerprintOf(db, campaign);
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const hit = cache.get(campaign.id);
  if (hit && hit.fingerprint === fingerprint) {
    cache.delete(campaign.id);
    cache.set(campaign.id, hit);
    return hit.fit;
  }
  const fit = (async () => {
    const { votes, gold } = await readFitInput(db, campaign);
    if (!votes.length) return EMPTY_FIT;
    fitsRun++;
    return campaignFitOf(fitDawidSkene(votes, { gold }), votes);
  })();
  cache.delete(campaign.id);
  cache.set(campaign.id, { fingerprint, fit });
  while (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value!);
  // A failed read is not kept: the next call tries again.
  fit.catch(() => {
    if (cache.get(campaign.id)?.fit === fit) cache.delete(campaign.id);
  });
  return fit;
}

/** How a passage's endorsement and confidence are read under one aggregation. */
export interface EndorsementRule {
  aggregation: Aggregation;
  /** Whether the passage is endorsed, from its majority outcome (finished, endorsed by T votes) and, under Dawid–Skene, its posterior. */
  endorses(passageId: number, outcome: Pick<PassageOutcome, "finished" | "endorsed">): boolean;
  /** The passage's confidence: its posterior (Dawid–Skene), or the share of its counted votes that say sufficient (majority); null without votes. */
  confidence(passageId: number, votes: { sufficient: number; judgments: number }): number | null;
}

/** The rule of `aggregation` (default: the campaign's setting); Dawid–Skene reads the campaign's fit. */
export async function endorsementRuleOf(
  db: Db,
  campaign: Pick<CampaignView, "id" | "judgmentsPerPassage" | "aggregation">,
  aggregation: Aggregation = campaign.aggregation,
): Promise<EndorsementRule> {
  if (aggregation === "majority") {
    return {
      aggregation,
      endorses: (_, outcome) => outcome.endorsed,
      confidence: (_, v) => (v.judgments > 0 ? v.sufficient / v.judgments : null),
    };
  }
  const fit = await campaignFit(db, campaign);
  return {
    aggregation,
    endorses: (id, outcome) => outcome.finished && (fit.posteriors.get(id) ?? 0) >= POSTERIOR_THRESHOLD,
    confidence: (id) => fit.posteriors.get(id) ?? null,
  };
}

/**
 * The finished passages a Dawid–Skene fit endorses, counted per batch (a closed batch's passages as
 * sealed at close): the dashboard's endorsed figure under `dawid-skene`.
 */
export async function endorsedByFit(
  db: Db,
  campaign: Pick<CampaignView, "id" | "judgmentsPerPassage">,
  fit: CampaignFit,
): Promise<Map<number, number>> {
  const rows = rowsOf<{ id: string | number; batch_id: string | number }>(
    await db.execute(sql`
      select p.id, p.batch_id from passages p join batches b on b.id = p.batch_id
      where p.campaign_id = ${campaign.id}
        and (coalesce(p.sealed_is_decided, p.is_decided)
             or coalesce(p.sealed_judgment_count, p.judgment_count) >= coalesce(b.sealed_judgments_per_passage, ${campaign.judgmentsPerPassage}))`),
  );
  const byBatch = new Map<number, number>();
  for (const r of rows) {
    if ((fit.posteriors.get(Number(r.id)) ?? 0) < POSTERIOR_THRESHOLD) continue;
    byBatch.set(Number(r.batch_id), (byBatch.get(Number(r.batch_id)) ?? 0) + 1);
  }
  return byBatch;
}

/** The annotators of the fit (those with counted judgments), least skilled first (the suspects on top), at most `limit`. */
export async function annotatorSkills(db: Db, fit: CampaignFit, limit: number): Promise<{ annotators: AnnotatorSkill[]; total: number }> {
  const ranked = [...fit.skills].sort((a, b) => a[1] - b[1] || a[0] - b[0]).slice(0, limit);
  if (!ranked.length) return { annotators: [], total: 0 };
  const names = new Map(
    rowsOf<{ id: string | number; username: string }>(
      await db.execute(sql`select id, username from users where id = any(${sql.param(ranked.map(([id]) => id))}::bigint[])`),
    ).map((u) => [Number(u.id), u.username]),
  );
  const annotators = ranked.map(([userId, skill]) => {
    const e = fit.errors.get(userId) ?? {};
    return {
      userId,
      username: names.get(userId) ?? `user ${userId}`,
      skill,
      sensitivity: e["sufficient|sufficient"] ?? 0,
      specificity: e["insufficient|insufficient"] ?? 0,
      judgments: fit.judgments.get(userId) ?? 0,
    };
  });
  return { annotators, total: fit.skills.size };
}

import "server-only";
import { and, eq, inArray, or, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import {
  batches,
  campaignMembers,
  campaigns,
  crowdWorkers,
  passages,
  users,
  type Aggregation,
  type BatchStatus,
  type Campaign,
} from "@/db/schema";
import { recordAudit } from "@/lib/audit/audit";
import { requireCoordinator, requireUser, type Actor } from "@/lib/auth/actor";
import { AppError, invalidField } from "@/lib/errors";
import { likePattern, pageOf, type CampaignListQuery, type Page } from "@/lib/list-options.contract";
import { newestFirst } from "@/db/keyset";
import { retallyOutcomes } from "./tallies.internal";
import { campaignAccessChanged } from "./annotate/annotator-access";
import type { CreateCampaignInput, MembersInput, UpdateCampaignInput } from "./settings.contract";

// Drizzle writes a column of the selected table without its table name, which a correlated
// subquery would read as its own column: name the outer row explicitly.
const outerCampaignId = sql.raw(`"campaigns"."id"`);

export interface CampaignView {
  id: number;
  name: string;
  judgmentsPerPassage: number;
  endorsementThreshold: number;
  showAnswers: boolean;
  goldMinJudgments: number;
  goldAccuracyThreshold: number;
  leaseMinutes: number;
  /** The lease as stored (leaseMinutes rounds it). */
  leaseSeconds: number;
  earlyStop: boolean;
  askWhenNoneSufficient: boolean;
  instructions: string;
  allAnnotators: boolean;
  sessionGoal: number | null;
  warnFastShare: number;
  warnMinAgreement: number;
  warnMinJudgments: number;
  goldSpanSlack: number;
  decoysPer100: number;
  /** What "endorsed" means: majority (T of R) or dawid-skene (posterior ≥ 0.5 once finished). */
  aggregation: Aggregation;
  memberIds: number[];
  createdAt: Date;
  updatedAt: Date;
}

function toView(c: Campaign, memberIds: number[]): CampaignView {
  return {
    id: c.id,
    name: c.name,
    judgmentsPerPassage: c.judgmentsPerPassage,
    endorsementThreshold: c.endorsementThreshold,
    showAnswers: c.showAnswers,
    goldMinJudgments: c.goldMinJudgments,
    goldAccuracyThreshold: c.goldAccuracyThreshold,
    leaseMinutes: Math.round(c.leaseSeconds / 60),
    leaseSeconds: c.leaseSeconds,
    earlyStop: c.earlyStop,
    askWhenNoneSufficient: c.askWhenNoneSufficient,
    instructions: c.instructions,
    allAnnotators: c.allAnnotators,
    sessionGoal: c.sessionGoal,
    warnFastShare: c.warnFastShare,
    warnMinAgreement: c.warnMinAgreement,
    warnMinJudgments: c.warnMinJudgments,
    goldSpanSlack: c.goldSpanSlack,
    decoysPer100: c.decoysPer100,
    aggregation: c.aggregation,
    memberIds,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  };
}

/** The columns of an input: the lease as seconds (leaseSeconds when sent, else leaseMinutes × 60). */
function columnsOf<T extends Partial<CreateCampaignInput>>(input: T): Omit<T, "leaseMinutes" | "leaseSeconds"> & { leaseSeconds?: number } {
  const { leaseMinutes, leaseSeconds, ...rest } = input;
  const seconds = leaseSeconds ?? (leaseMinutes === undefined ? undefined : leaseMinutes * 60);
  return { ...rest, ...(seconds === undefined ? {} : { leaseSeconds: seconds }) };
}

export async function createCampaign(db: Db, actor: Actor, input: CreateCampaignInput): Promise<CampaignView> {
  const { userId } = requireCoordinator(actor);
  const [row] = await db
    .insert(campaigns)
    .values({ ...columnsOf(input), createdBy: userId })
    .returning();
  if (!row) throw new Error("insert returned no row");
  await recordAudit(db, actor, { action: "campaign.create", targetType: "campaign", targetId: row.id, details: { name: row.name } });
  return toView(row, []);
}

export async function getCampaign(db: Db, actor: Actor, id: number): Promise<CampaignView> {
  requireCoordinator(actor);
  const [row] = await db.select().from(campaigns).where(eq(campaigns.id, id));
  if (!row) throw new AppError("not_found", `No campaign with id ${id}.`);
  const members = await db.select({ userId: campaignMembers.userId }).from(campaignMembers).where(eq(campaignMembers.campaignId, id));
  return toView(
    row,
    members.map((m) => m.userId).sort((a, b) => a - b),
  );
}

/** Changes settings. R is fixed once annotation has started (open slots are counted from it); T and the rest may change. */
export async function updateCampaign(db: Db, actor: Actor, id: number, input: UpdateCampaignInput): Promise<CampaignView> {
  requireCoordinator(actor);
  const current = await getCampaign(db, actor, id);
  const r = input.judgmentsPerPassage ?? current.judgmentsPerPassage;
  const t = input.endorsementThreshold ?? current.endorsementThreshold;
  if (t > r) {
    throw invalidField("endorsementThreshold", `${t} exceeds judgmentsPerPassage ${r}`, `must not exceed judgmentsPerPassage (${r})`);
  }
  if (input.judgmentsPerPassage !== undefined && input.judgmentsPerPassage !== current.judgmentsPerPassage) {
    const [started] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(passages)
      .where(and(eq(passages.campaignId, id), sql`${passages.judgmentCount} + ${passages.claimCount} > 0`));
    if ((started?.n ?? 0) > 0) {
      throw new AppError("conflict", "Judgments per passage cannot change once annotation has started in this campaign.", {
        field: "judgmentsPerPassage",
      });
    }
  }
  await db.transaction(async (tx) => {
    await tx
      .update(campaigns)
      .set({ ...columnsOf(input), updatedAt: new Date() })
      .where(eq(campaigns.id, id));
    if (input.judgmentsPerPassage !== undefined) {
      // Nothing is judged or claimed yet (checked above): every passage has R open slots.
      await tx.update(passages).set({ openSlots: input.judgmentsPerPassage }).where(eq(passages.campaignId, id));
    }
    // Finished and endorsed passages (and so agreement with the majority) are counted with R and T.
    if (r !== current.judgmentsPerPassage || t !== current.endorsementThreshold) await retallyOutcomes(tx, id);
    await recordAudit(tx, actor, { action: "campaign.update", targetType: "campaign", targetId: id, details: { changes: input } });
  });
  campaignAccessChanged(); // cached campaign rows and memberships of this process (other processes: ≤ 1 s)
  return getCampaign(db, actor, id);
}

/** Who works on a campaign: every annotator (present and future), or the listed ones. */
export async function setCampaignMembers(db: Db, actor: Actor, id: number, input: MembersInput): Promise<CampaignView> {
  requireCoordinator(actor);
  await getCampaign(db, actor, id);
  const ids = [...new Set(input.userIds)];
  if (ids.length) {
    const found = await db.select({ id: users.id, role: users.role }).from(users).where(inArray(users.id, ids));
    const annotators = new Set(found.filter((u) => u.role === "annotator").map((u) => u.id));
    const bad = ids.filter((u) => !annotators.has(u));
    if (bad.length) {
      throw invalidField(
        "userIds",
        `${bad.join(", ")} ${bad.length > 1 ? "are not annotators" : "is not an annotator"}`,
        `not annotators: ${bad.join(", ")}`,
      );
    }
  }
  await db.transaction(async (tx) => {
    await tx.update(campaigns).set({ allAnnotators: input.allAnnotators, updatedAt: new Date() }).where(eq(campaigns.id, id));
    await tx.delete(campaignMembers).where(eq(campaignMembers.campaignId, id));
    if (ids.length) await tx.insert(campaignMembers).values(ids.map((userId) => ({ campaignId: id, userId })));
    await recordAudit(tx, actor, {
      action: "campaign.members",
      targetType: "campaign",
      targetId: id,
      details: { allAnnotators: input.allAnnotators, userIds: ids },
    });
  });
  campaignAccessChanged(); // cached campaign rows and memberships of this process (other processes: ≤ 1 s)
  return getCampaign(db, actor, id);
}

export type CampaignStatus = "empty" | "draft" | "running" | "paused" | "complete" | "closed";

export interface CampaignSummary {
  id: number;
  name: string;
  batches: number;
  launchedBatches: number;
  /** running: a batch is launched; paused: none launched but one paused; complete: not all closed, but every slot filled (none open or claimed); closed: all closed; draft: only drafts left. */
  status: CampaignStatus;
  queries: number;
  passages: number;
  /** Slots (passages × R) and counted judgments, from the tallies. */
  slots: number;
  filled: number;
  createdAt: Date;
}

/**
 * Campaigns newest first with their size, status and progress, a page at a time (keyset on the id;
 * the figures are read for the page's rows only), optionally those whose name contains `q` (coordinators).
 */
export async function listCampaigns(db: Db, actor: Actor, query: CampaignListQuery): Promise<Page<CampaignSummary>> {
  requireCoordinator(actor);
  const rows = await newestFirst(
    db
      .select({
        id: campaigns.id,
        name: campaigns.name,
        r: campaigns.judgmentsPerPassage,
        /** Batches per status, e.g. {"launched": 2, "closed": 1}. */
        statuses: sql<Record<string, number> | null>`(select json_object_agg(status, n) from (
        select ${batches.status} as status, count(*)::int as n from ${batches} where ${batches.campaignId} = ${outerCampaignId} group by 1) b)`,
        queries: sql<number>`(select coalesce(sum(${batches.queryCount}), 0)::int from ${batches} where ${batches.campaignId} = ${outerCampaignId})`,
        passages: sql<number>`(select coalesce(sum(n), 0)::float8 from (
        select passages as n from passage_tallies where campaign_id = ${outerCampaignId}
        union all select passages from passage_tally_deltas where campaign_id = ${outerCampaignId}) p)`,
        filled: sql<number>`(select coalesce(sum(n), 0)::float8 from (
        select passages * judgment_count as n from passage_tallies where campaign_id = ${outerCampaignId}
        union all select passages * judgment_count from passage_tally_deltas where campaign_id = ${outerCampaignId}) f)`,
        unfilled: sql<number>`(select coalesce(sum(n), 0)::float8 from (
        select open + claimed as n from passage_tallies where campaign_id = ${outerCampaignId}
        union all select open + claimed from passage_tally_deltas where campaign_id = ${outerCampaignId}) u)`,
        createdAt: campaigns.createdAt,
      })
      .from(campaigns)
      .$dynamic(),
    campaigns.id,
    nameMatches(query.q),
    query,
  );
  const summaries = rows.map(({ r, statuses, unfilled, ...c }) => {
    const of = (status: BatchStatus) => statuses?.[status] ?? 0;
    const count = Object.values(statuses ?? {}).reduce((a, b) => a + b, 0);
    const allClosed = count > 0 && of("closed") === count;
    const complete = !allClosed && Number(c.passages) > 0 && Number(unfilled) === 0 && of("draft") === 0;
    const status: CampaignStatus =
      count === 0
        ? "empty"
        : complete
          ? "complete"
          : of("launched")
            ? "running"
            : of("paused")
              ? "paused"
              : of("draft")
                ? "draft"
                : "closed";
    return {
      ...c,
      batches: count,
      launchedBatches: of("launched"),
      passages: Number(c.passages),
      filled: Number(c.filled),
      slots: Number(c.passages) * r,
      status,
    };
  });
  return pageOf(summaries, query.limit);
}

const nameMatches = (q: string | undefined) => (q ? sql`${campaigns.name} ilike ${likePattern(q)}` : undefined);

export interface MyCampaign {
  id: number;
  name: string;
  hasLaunchedBatch: boolean;
}

/** The campaigns an annotator works on (all-annotator campaigns and those they were added to), newest first, a page at a time. */
export async function listMyCampaigns(db: Db, actor: Actor, query: CampaignListQuery): Promise<Page<MyCampaign>> {
  const user = requireUser(actor);
  const mine = db
    .select({
      id: campaigns.id,
      name: campaigns.name,
      hasLaunchedBatch: sql<boolean>`exists (select 1 from ${batches} where ${batches.campaignId} = ${outerCampaignId} and ${batches.status} = 'launched')`,
    })
    .from(campaigns)
    .leftJoin(campaignMembers, and(eq(campaignMembers.campaignId, campaigns.id), eq(campaignMembers.userId, user.id)));
  const where = and(
    // A crowd worker's account sees the one campaign it entered, never another.
    user.role === "crowd"
      ? sql`exists (select 1 from ${crowdWorkers} where ${crowdWorkers.campaignId} = ${campaigns.id} and ${crowdWorkers.userId} = ${user.id})`
      : or(eq(campaigns.allAnnotators, true), sql`${campaignMembers.userId} is not null`),
    nameMatches(query.q),
  );
  return pageOf(await newestFirst(mine.$dynamic(), campaigns.id, where, query), query.limit);
}

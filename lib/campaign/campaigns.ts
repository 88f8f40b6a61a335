import { and, asc, eq, or, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { batches, campaignMembers, campaigns, passages, queries } from "@/db/schema";

// Drizzle writes a column of the selected table without its table name, which a correlated
// subquery would read as its own column: name the outer row explicitly.
const outerCampaignId = sql.raw(`"campaigns"."id"`);
import { requireCoordinator, requireUser, type Actor } from "@/lib/auth/actor";

export interface CampaignSummary {
  id: number;
  name: string;
  batches: number;
  launchedBatches: number;
  queries: number;
  passages: number;
  createdAt: Date;
}

/** Every campaign with its size (coordinators). */
export async function listCampaigns(db: Db, actor: Actor): Promise<CampaignSummary[]> {
  requireCoordinator(actor);
  return db
    .select({
      id: campaigns.id,
      name: campaigns.name,
      batches: sql<number>`(select count(*)::int from ${batches} where ${batches.campaignId} = ${outerCampaignId})`,
      launchedBatches: sql<number>`(select count(*)::int from ${batches} where ${batches.campaignId} = ${outerCampaignId} and ${batches.status} = 'launched')`,
      queries: sql<number>`(select count(*)::int from ${queries} where ${queries.campaignId} = ${outerCampaignId})`,
      passages: sql<number>`(select count(*)::int from ${passages} where ${passages.campaignId} = ${outerCampaignId})`,
      createdAt: campaigns.createdAt,
    })
    .from(campaigns)
    .orderBy(asc(campaigns.name));
}

/** The campaigns an annotator works on: all-annotator campaigns and those they were added to. */
export async function listMyCampaigns(db: Db, actor: Actor): Promise<{ id: number; name: string; hasLaunchedBatch: boolean }[]> {
  const user = requireUser(actor);
  return db
    .select({
      id: campaigns.id,
      name: campaigns.name,
      hasLaunchedBatch: sql<boolean>`exists (select 1 from ${batches} where ${batches.campaignId} = ${outerCampaignId} and ${batches.status} = 'launched')`,
    })
    .from(campaigns)
    .leftJoin(campaignMembers, and(eq(campaignMembers.campaignId, campaigns.id), eq(campaignMembers.userId, user.id)))
    .where(or(eq(campaigns.allAnnotators, true), sql`${campaignMembers.userId} is not null`))
    .orderBy(asc(campaigns.name));
}

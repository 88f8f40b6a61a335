import { and, asc, eq, or, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { batches, campaignMembers, campaigns, passages, queries } from "@/db/schema";
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
      batches: sql<number>`(select count(*)::int from ${batches} where ${batches.campaignId} = ${campaigns.id})`,
      launchedBatches: sql<number>`(select count(*)::int from ${batches} where ${batches.campaignId} = ${campaigns.id} and ${batches.status} = 'launched')`,
      queries: sql<number>`(select count(*)::int from ${queries} where ${queries.campaignId} = ${campaigns.id})`,
      passages: sql<number>`(select count(*)::int from ${passages} where ${passages.campaignId} = ${campaigns.id})`,
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
      hasLaunchedBatch: sql<boolean>`exists (select 1 from ${batches} where ${batches.campaignId} = ${campaigns.id} and ${batches.status} = 'launched')`,
    })
    .from(campaigns)
    .leftJoin(campaignMembers, and(eq(campaignMembers.campaignId, campaigns.id), eq(campaignMembers.userId, user.id)))
    .where(or(eq(campaigns.allAnnotators, true), sql`${campaignMembers.userId} is not null`))
    .orderBy(asc(campaigns.name));
}

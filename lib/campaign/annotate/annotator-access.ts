import { and, eq } from "drizzle-orm";
import type { Db, Tx } from "@/db/client";
import { annotatorStandings, campaignMembers, campaigns, type Campaign } from "@/db/schema";
import { requireUser, type Actor, type UserActor } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";

/** The annotator's campaign, if they work on it and are not paused; otherwise a clear refusal. */
export async function requireActiveAnnotator(db: Db | Tx, actor: Actor, campaignId: number): Promise<{ user: UserActor; campaign: Campaign }> {
  const user = requireUser(actor);
  if (user.role !== "annotator") throw new AppError("forbidden", "Only annotators judge passages.");
  const [row] = await db
    .select({ campaign: campaigns, member: campaignMembers.userId, standing: annotatorStandings.status })
    .from(campaigns)
    .leftJoin(campaignMembers, and(eq(campaignMembers.campaignId, campaigns.id), eq(campaignMembers.userId, user.id)))
    .leftJoin(annotatorStandings, and(eq(annotatorStandings.campaignId, campaigns.id), eq(annotatorStandings.userId, user.id)))
    .where(eq(campaigns.id, campaignId));
  if (!row || (!row.campaign.allAnnotators && row.member === null)) {
    throw new AppError("not_found", `No campaign with id ${campaignId} for you.`);
  }
  if (row.standing === "paused") {
    throw new AppError("forbidden", "Your work on this campaign is paused. Your coordinator can resume it.", { paused: true });
  }
  return { user, campaign: row.campaign };
}

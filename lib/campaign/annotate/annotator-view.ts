import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { claims } from "@/db/schema";
import { requireUser, type Actor } from "@/lib/auth/actor";
import { requireActiveAnnotator } from "./annotator-access";
import type { AnnotatorCampaignView } from "./judging.contract";

/**
 * A campaign as its annotator sees it. The authorization is `requireActiveAnnotator`'s: annotators on the
 * campaign only (not found otherwise), and a paused annotator is refused with `details.paused`.
 */
export async function getAnnotatorCampaign(db: Db, actor: Actor, campaignId: number): Promise<AnnotatorCampaignView> {
  const { campaign } = await requireActiveAnnotator(db, actor, campaignId);
  return { id: campaign.id, name: campaign.name, instructions: campaign.instructions, showAnswers: campaign.showAnswers };
}

/** The campaigns in which the caller has ever been given a passage (their own work only), to say "Continue" rather than "Start". */
export async function listMyStartedCampaignIds(db: Db, actor: Actor): Promise<Set<number>> {
  const user = requireUser(actor);
  const rows = await db.selectDistinct({ campaignId: claims.campaignId }).from(claims).where(eq(claims.userId, user.id));
  return new Set(rows.map((r) => Number(r.campaignId)));
}

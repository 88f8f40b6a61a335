import { notFound } from "next/navigation";
import { requireSignedIn } from "./page-auth";

/**
 * The start of an annotator's campaign page (`/annotate/[campaignId]/…`): the signed-in annotator and
 * the campaign id from the path (404 when it is not one); null for other roles, who see the layout's
 * "Not allowed".
 */
export async function annotatorCampaignPage(params: Promise<{ campaignId: string }>) {
  const { db, actor } = await requireSignedIn();
  if (actor.role !== "annotator") return null;
  const idText = (await params).campaignId;
  const id = /^[1-9][0-9]{0,14}$/.test(idText) ? Number(idText) : NaN;
  if (!Number.isSafeInteger(id)) notFound();
  return { db, actor, campaignId: id };
}

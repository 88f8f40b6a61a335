import type { ReactNode } from "react";
import { orNotFound } from "@/components/or-not-found";
import { annotatorCampaignPage } from "@/app/_server/annotate-page";

type AnnotatorCampaign = NonNullable<Awaited<ReturnType<typeof annotatorCampaignPage>>>;

/**
 * An annotator's page in a campaign (`/annotate/[campaignId]/…`): nothing for other roles (the
 * layout says "Not allowed"), the 404 page for a bad campaign id or what the render does not find.
 */
export async function annotatorCampaignView(
  params: Promise<{ campaignId: string }>,
  render: (page: AnnotatorCampaign) => Promise<ReactNode>,
): Promise<ReactNode> {
  const page = await annotatorCampaignPage(params);
  if (!page) return null;
  return orNotFound(() => render(page));
}

import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { campaignPage } from "@/app/_server/page-auth";
import { orNotFound } from "@/components/or-not-found";

/** The `params` of a page under /campaigns/[id]. */
export type CampaignParams = { params: Promise<{ id: string }> };

/** `generateMetadata` of a campaign's sub-page: "Import · <campaign>", or "Not allowed". */
export function campaignTitle(prefix: string) {
  return async ({ params }: CampaignParams): Promise<Metadata> => {
    const loaded = await campaignPage((await params).id);
    return { title: loaded ? `${prefix} · ${loaded.campaign.name}` : "Not allowed" };
  };
}

/** A page below a campaign: the way back to it, then the page's heading and body. */
export function CampaignSubpage({
  campaign,
  title,
  className = "page",
  children,
}: {
  campaign: { id: number; name: string };
  title: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <main className={className}>
      <p className="breadcrumb">
        <Link href={`/campaigns/${campaign.id}`}>← {campaign.name}</Link>
      </p>
      <h1>{title}</h1>
      {children}
    </main>
  );
}

type CampaignLoaded = NonNullable<Awaited<ReturnType<typeof campaignPage>>>;

/**
 * The read of a page below a campaign's child (`/campaigns/[id]/runs/[runId]`, …): null for other
 * roles (the layout says "Not allowed"); a 404 for a bad child id or what the read does not find.
 */
export async function campaignChildPage<T>(
  idText: string,
  childText: string,
  read: (loaded: CampaignLoaded, childId: number) => Promise<T>,
): Promise<T | null> {
  const loaded = await campaignPage(idText);
  if (!loaded) return null;
  if (!/^[1-9][0-9]{0,14}$/.test(childText)) notFound();
  return orNotFound(() => read(loaded, Number(childText)));
}

/**
 * A plain page below a campaign: its title ("Import · <campaign>"), then the way back, the heading
 * and the body made from the campaign. Use as `export const generateMetadata = page.generateMetadata`
 * and `export default page.Page`.
 */
export function campaignSubpage(titlePrefix: string, heading: ReactNode, body: (campaign: CampaignLoaded["campaign"]) => ReactNode) {
  async function Page({ params }: CampaignParams) {
    const campaign = (await campaignPage((await params).id))?.campaign;
    if (!campaign) return null;
    return (
      <CampaignSubpage campaign={campaign} title={heading}>
        {body(campaign)}
      </CampaignSubpage>
    );
  }
  return { generateMetadata: campaignTitle(titlePrefix), Page };
}

import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { campaignPage } from "@/app/_server/page-auth";

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

import { campaignTitle, CampaignSubpage, type CampaignParams } from "@/components/campaigns/campaign-subpage";
import { ImportForm } from "@/components/campaigns/import-form";
import { TextIndexPanel } from "@/components/campaigns/text-index-panel";
import { campaignPage } from "@/app/_server/page-auth";
import "../../campaigns.css";

export const generateMetadata = campaignTitle("Import");

export default async function ImportPage({ params }: CampaignParams) {
  const campaign = (await campaignPage((await params).id))?.campaign;
  if (!campaign) return null;
  return (
    <CampaignSubpage campaign={campaign} title="Import a batch">
      <p className="muted intro">
        Upload the Wikipedia pages first (skip this when they are already in the knowledge source), then the questions and their
        retrieved candidates. Every line is checked; a file with a bad line stores nothing.
      </p>
      <ImportForm campaignId={campaign.id} campaignName={campaign.name} />
      <TextIndexPanel />
    </CampaignSubpage>
  );
}

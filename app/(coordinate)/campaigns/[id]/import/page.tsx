import { campaignSubpage } from "@/components/campaigns/campaign-subpage";
import { ImportForm } from "@/components/campaigns/import-form";
import { TextIndexPanel } from "@/components/campaigns/text-index-panel";
import "../../campaigns.css";

const page = campaignSubpage("Import", "Import a batch", (campaign) => (
  <>
    <p className="muted intro">
      Upload the Wikipedia pages first (skip this when they are already in the knowledge source), then the questions and their retrieved
      candidates. Every line is checked; a file with a bad line stores nothing.
    </p>
    <ImportForm campaignId={campaign.id} campaignName={campaign.name} />
    <TextIndexPanel />
  </>
));

export const generateMetadata = page.generateMetadata;
export default page.Page;

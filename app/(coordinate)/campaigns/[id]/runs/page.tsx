import { campaignSubpage } from "@/components/campaigns/campaign-subpage";
import { Leaderboard } from "@/components/campaigns/runs/leaderboard";
import { RunList } from "@/components/campaigns/runs/run-list";
import { RunUploadForm } from "@/components/campaigns/runs/run-upload-form";
import "../../campaigns.css";

export const dynamic = "force-dynamic";

/** A campaign's runs: the upload form, the leaderboard against the three golds, and the list of runs. */
const page = campaignSubpage("Runs", "Runs", (campaign) => (
  <>
    <p className="muted intro">
      Upload a system’s predictions for this campaign’s questions (a KILT guess file) to score it as KILT’s evaluator does, against three
      golds: the questions’ original provenance, the passages the campaign endorsed, and both (the KILT export). The figures follow the
      campaign’s current outcomes.
    </p>
    <RunUploadForm campaignId={campaign.id} />
    <Leaderboard campaignId={campaign.id} />
    <RunList campaignId={campaign.id} />
  </>
));

export const generateMetadata = page.generateMetadata;
export default page.Page;

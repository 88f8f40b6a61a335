import Link from "next/link";
import { campaignChildSubpage } from "@/components/campaigns/campaign-child-subpage";
import { CampaignSubpage } from "@/components/campaigns/campaign-subpage";
import { RunQuestions } from "@/components/campaigns/runs/run-questions";
import { requireRun } from "@/lib/campaign/runs/list-runs";
import { formatTime } from "@/lib/format";
import { runResultsUrl } from "@/components/api/runs";
import "../../../campaigns.css";

export const dynamic = "force-dynamic";

/** The campaign and the run of the address; not found for a bad or unknown run id. */
const subpage = campaignChildSubpage(
  "runId",
  (loaded, runId) => requireRun(loaded.db, loaded.actor, loaded.campaign.id, runId),
  ({ campaign, run }) => `${run.name} · Runs · ${campaign.name}`,
);

export const generateMetadata = subpage.generateMetadata;

/** One run's questions, each with its R-precision against the three golds and a link to its drill-down. */
export default subpage.render(({ campaign, run }) => (
  <CampaignSubpage campaign={campaign} title={`Run “${run.name}”`}>
    <p className="breadcrumb">
      <Link href={`/campaigns/${campaign.id}/runs`}>← Runs and leaderboard</Link>
    </p>
    <p className="muted intro">
      {run.questions.toLocaleString("en")} questions, uploaded {formatTime(run.createdAt)}
      {run.createdBy ? ` by ${run.createdBy}` : ""}; predicts{" "}
      {[run.hasProvenance && "provenance", run.hasAnswers && "answers"].filter(Boolean).join(" and ")}.{" "}
      <a href={runResultsUrl(campaign.id, run.id)} download>
        Download its scores (JSON)
      </a>
    </p>
    <RunQuestions campaignId={campaign.id} runId={run.id} />
  </CampaignSubpage>
));

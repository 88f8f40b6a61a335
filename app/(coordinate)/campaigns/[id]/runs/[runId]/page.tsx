import type { Metadata } from "next";
import Link from "next/link";
import { campaignChildPage, CampaignSubpage } from "@/components/campaigns/campaign-subpage";
import { RunQuestions } from "@/components/campaigns/runs/run-questions";
import { requireRun } from "@/lib/campaign/runs/list-runs";
import { formatTime } from "@/lib/format";
import { runResultsUrl } from "@/components/api/runs";
import "../../../campaigns.css";

type Props = { params: Promise<{ id: string; runId: string }> };

export const dynamic = "force-dynamic";

/** The campaign and the run of the address; not found for a bad or unknown run id. */
async function load(params: Props["params"]) {
  const { id, runId } = await params;
  return campaignChildPage(id, runId, (loaded, runId) => requireRun(loaded.db, loaded.actor, loaded.campaign.id, runId));
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const loaded = await load(params);
  return { title: loaded ? `${loaded.run.name} · Runs · ${loaded.campaign.name}` : "Not allowed" };
}

/** One run's questions, each with its R-precision against the three golds and a link to its drill-down. */
export default async function RunPage({ params }: Props) {
  const loaded = await load(params);
  if (!loaded) return null;
  const { campaign, run } = loaded;
  return (
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
  );
}

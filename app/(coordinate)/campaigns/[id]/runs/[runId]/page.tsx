import Link from "next/link";
import { notFound } from "next/navigation";
import { campaignTitle, CampaignSubpage } from "@/components/campaigns/campaign-subpage";
import { RunName } from "@/components/campaigns/runs/run-name";
import { RunQuestions } from "@/components/campaigns/runs/run-questions";
import { campaignPage } from "@/lib/server/page-auth";
import "../../../campaigns.css";

type Props = { params: Promise<{ id: string; runId: string }> };

export const dynamic = "force-dynamic";

export const generateMetadata = campaignTitle("Run");

/** One run's questions, each with its R-precision against the three golds and a link to its drill-down. */
export default async function RunPage({ params }: Props) {
  const { id, runId } = await params;
  const campaign = (await campaignPage(id))?.campaign;
  if (!campaign) return null;
  if (!/^[1-9][0-9]{0,14}$/.test(runId)) notFound();
  return (
    <CampaignSubpage campaign={campaign} title={<RunName campaignId={campaign.id} runId={Number(runId)} />}>
      <p className="breadcrumb">
        <Link href={`/campaigns/${campaign.id}/runs`}>← Runs and leaderboard</Link>
      </p>
      <RunQuestions campaignId={campaign.id} runId={Number(runId)} />
    </CampaignSubpage>
  );
}

import Link from "next/link";
import { notFound } from "next/navigation";
import { campaignTitle, CampaignSubpage } from "@/components/campaigns/campaign-subpage";
import { QuestionDrilldown } from "@/components/campaigns/runs/question-drilldown";
import { RunName } from "@/components/campaigns/runs/run-name";
import { campaignPage } from "@/lib/server/page-auth";
import "../../../../../campaigns.css";

type Props = { params: Promise<{ id: string; runId: string; kiltId: string }> };

export const dynamic = "force-dynamic";

export const generateMetadata = campaignTitle("Question of a run");

/** The segment as the KILT id it encodes (a malformed escape is taken as it is). */
function kiltIdOf(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** One question of a run: the gold evidence sets, the run's ranked list with hits marked, the first complete rank, per gold. */
export default async function RunQuestionPage({ params }: Props) {
  const { id, runId, kiltId: segment } = await params;
  const campaign = (await campaignPage(id))?.campaign;
  if (!campaign) return null;
  if (!/^[1-9][0-9]{0,14}$/.test(runId)) notFound();
  const run = Number(runId);
  const kiltId = kiltIdOf(segment);
  return (
    <CampaignSubpage campaign={campaign} title={`Question ${kiltId}`}>
      <p className="breadcrumb">
        <Link href={`/campaigns/${campaign.id}/runs/${run}`}>
          ← <RunName campaignId={campaign.id} runId={run} plain />
        </Link>
      </p>
      <QuestionDrilldown campaignId={campaign.id} runId={run} kiltId={kiltId} />
    </CampaignSubpage>
  );
}

import type { Metadata } from "next";
import Link from "next/link";
import { campaignChildPage, CampaignSubpage } from "@/components/campaigns/campaign-subpage";
import { QuestionDrilldown } from "@/components/campaigns/runs/question-drilldown";
import { requireRun } from "@/lib/campaign/runs/list-runs";
import "../../../../../campaigns.css";

type Props = { params: Promise<{ id: string; runId: string; kiltId: string }> };

export const dynamic = "force-dynamic";

/** The segment as the KILT id it encodes (Next hands the segment over still escaped; a malformed escape is taken as it is). */
function kiltIdOf(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The campaign, the run and the KILT id of the address; not found for a bad or unknown run id. */
async function load(params: Props["params"]) {
  const { id, runId, kiltId } = await params;
  return campaignChildPage(id, runId, async (loaded, run) => ({
    ...(await requireRun(loaded.db, loaded.actor, loaded.campaign.id, run)),
    kiltId: kiltIdOf(kiltId),
  }));
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const loaded = await load(params);
  return { title: loaded ? `${loaded.kiltId} · ${loaded.run.name} · ${loaded.campaign.name}` : "Not allowed" };
}

/** One question of a run: the gold evidence sets, the run's ranked list with hits marked, the first complete rank, per gold. */
export default async function RunQuestionPage({ params }: Props) {
  const loaded = await load(params);
  if (!loaded) return null;
  const { campaign, run, kiltId } = loaded;
  return (
    <CampaignSubpage campaign={campaign} title={`Question ${kiltId}`}>
      <p className="breadcrumb">
        <Link href={`/campaigns/${campaign.id}/runs/${run.id}`}>← Run “{run.name}”</Link>
      </p>
      <QuestionDrilldown campaignId={campaign.id} runId={run.id} kiltId={kiltId} />
    </CampaignSubpage>
  );
}

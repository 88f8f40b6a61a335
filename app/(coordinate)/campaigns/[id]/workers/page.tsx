import { campaignTitle, CampaignSubpage, type CampaignParams } from "@/components/campaigns/campaign-subpage";
import { WorkerSessions } from "@/components/campaigns/worker-sessions";
import { listWorkerSessions } from "@/lib/crowd/workers-report";
import { workerListQuerySchema } from "@/lib/crowd/workers-report.contract";
import { campaignPage } from "@/app/_server/page-auth";
import "../../campaigns.css";

export const dynamic = "force-dynamic";

export const generateMetadata = campaignTitle("Crowd workers");

/** The payment report of a crowd campaign: the first page rendered here, the rest paged, searched and filtered through the API. */
export default async function WorkersPage({ params }: CampaignParams) {
  const loaded = await campaignPage((await params).id);
  if (!loaded) return null;
  const { db, actor, campaign } = loaded;
  const first = await listWorkerSessions(db, actor, campaign.id, workerListQuerySchema.parse({}));
  return (
    <CampaignSubpage campaign={campaign} title="Crowd workers">
      <p className="hint">
        One row per worker and session, newest first: the platform&apos;s ids, how the session ended and the code the worker was given, the
        work in it (judgments, those that count, active time) and the worker&apos;s gold accuracy, agreement with the majority and standing
        — to approve, reject and bonus on the platform.
      </p>
      <WorkerSessions campaignId={campaign.id} initialPage={{ workers: first.rows, next: first.next }} />
    </CampaignSubpage>
  );
}

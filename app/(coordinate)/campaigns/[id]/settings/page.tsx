import { CampaignForm } from "@/components/campaigns/campaign-form";
import { CrowdSettingsSection } from "@/components/campaigns/crowd-form";
import { campaignTitle, CampaignSubpage, type CampaignParams } from "@/components/campaigns/campaign-subpage";
import { campaignPage } from "@/app/_server/page-auth";
import "../../campaigns.css";

export const generateMetadata = campaignTitle("Settings");

export default async function CampaignSettingsPage({ params }: CampaignParams) {
  const campaign = (await campaignPage((await params).id))?.campaign;
  if (!campaign) return null;
  return (
    <CampaignSubpage campaign={campaign} title="Settings">
      <div className="card form-card">
        <CampaignForm
          campaignId={campaign.id}
          initial={{
            name: campaign.name,
            judgmentsPerPassage: campaign.judgmentsPerPassage,
            endorsementThreshold: campaign.endorsementThreshold,
            showAnswers: campaign.showAnswers,
            goldMinJudgments: campaign.goldMinJudgments,
            goldAccuracyThreshold: campaign.goldAccuracyThreshold,
            leaseMinutes: campaign.leaseMinutes,
            earlyStop: campaign.earlyStop,
            askWhenNoneSufficient: campaign.askWhenNoneSufficient,
            instructions: campaign.instructions,
            allAnnotators: campaign.allAnnotators,
            sessionGoal: campaign.sessionGoal,
            warnFastShare: campaign.warnFastShare,
            warnMinAgreement: campaign.warnMinAgreement,
            warnMinJudgments: campaign.warnMinJudgments,
            goldSpanSlack: campaign.goldSpanSlack,
            decoysPer100: campaign.decoysPer100,
            aggregation: campaign.aggregation,
          }}
        />
      </div>
      <div className="card form-card">
        <CrowdSettingsSection campaignId={campaign.id} />
      </div>
    </CampaignSubpage>
  );
}

import { CampaignForm } from "@/components/campaigns/campaign-form";
import { CrowdSettingsSection } from "@/components/campaigns/crowd-form";
import { campaignSubpage } from "@/components/campaigns/campaign-subpage";
import "../../campaigns.css";

const page = campaignSubpage("Settings", "Settings", (campaign) => (
  <>
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
  </>
));

export const generateMetadata = page.generateMetadata;
export default page.Page;

import type { Metadata } from "next";
import Link from "next/link";
import { CampaignForm } from "@/components/campaigns/campaign-form";
import { campaignPage } from "@/lib/server/page-auth";
import "../../campaigns.css";

type Props = { params: Promise<{ id: string }> };


export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const campaign = (await campaignPage((await params).id))?.campaign;
  return { title: campaign ? `Settings · ${campaign.name}` : "Not allowed" };
}

export default async function CampaignSettingsPage({ params }: Props) {
  const campaign = (await campaignPage((await params).id))?.campaign;
  if (!campaign) return null;
  return (
    <main className="page">
      <p className="breadcrumb">
        <Link href={`/campaigns/${campaign.id}`}>← {campaign.name}</Link>
      </p>
      <h1>Settings</h1>
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
            instructions: campaign.instructions,
            allAnnotators: campaign.allAnnotators,
          }}
        />
      </div>
    </main>
  );
}

import type { Metadata } from "next";
import { annotatorCampaignView } from "@/components/annotate/annotator-page";
import { JudgingScreen } from "@/components/annotate/judging-screen";
import { PausedScreen } from "@/components/annotate/status-screens";
import { getShortcuts } from "@/lib/campaign/annotate/user-shortcuts";
import { getAnnotatorCampaign } from "@/lib/campaign/annotate/annotator-view";
import { AppError } from "@/lib/errors";

type Props = { params: Promise<{ campaignId: string }> };

export const metadata: Metadata = { title: "Judging" };

export default async function JudgingPage({ params }: Props) {
  return annotatorCampaignView(params, async ({ db, actor, campaignId: id }) => {
    try {
      const [campaign, { shortcuts, keys }] = await Promise.all([getAnnotatorCampaign(db, actor, id), getShortcuts(db, actor)]);
      return <JudgingScreen campaign={campaign} shortcuts={{ enabled: shortcuts.enabled, keys }} userId={actor.id} />;
    } catch (error) {
      if (error instanceof AppError && (error.details as { paused?: boolean } | undefined)?.paused) return <PausedScreen />;
      throw error;
    }
  });
}

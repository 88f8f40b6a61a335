import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { JudgingScreen } from "@/components/annotation/judging-screen";
import { PausedScreen } from "@/components/annotation/status-screens";
import { getShortcuts } from "@/lib/annotation/user-shortcuts";
import { getAnnotatorCampaign } from "@/lib/campaign/annotate/annotator-view";
import { AppError } from "@/lib/errors";
import { annotatorCampaignPage } from "@/app/_server/annotate-page";

type Props = { params: Promise<{ campaignId: string }> };

export const metadata: Metadata = { title: "Judging" };

export default async function JudgingPage({ params }: Props) {
  const page = await annotatorCampaignPage(params);
  if (!page) return null;
  const { db, actor, campaignId: id } = page;
  try {
    const [campaign, { shortcuts, keys }] = await Promise.all([getAnnotatorCampaign(db, actor, id), getShortcuts(db, actor)]);
    return <JudgingScreen campaign={campaign} shortcuts={{ enabled: shortcuts.enabled, keys }} userId={actor.id} />;
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") notFound();
    if (error instanceof AppError && (error.details as { paused?: boolean } | undefined)?.paused) return <PausedScreen />;
    throw error;
  }
}

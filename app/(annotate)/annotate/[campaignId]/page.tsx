import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { JudgingScreen } from "@/components/annotation/judging-screen";
import { PausedScreen } from "@/components/annotation/status-screens";
import { getShortcuts } from "@/lib/annotation/user-shortcuts";
import { getAnnotatorCampaign } from "@/lib/campaign/annotate/annotator-view";
import { AppError } from "@/lib/errors";
import { requireSignedIn } from "@/lib/server/page-auth";

type Props = { params: Promise<{ campaignId: string }> };

export const metadata: Metadata = { title: "Judging" };

export default async function JudgingPage({ params }: Props) {
  const { db, actor } = await requireSignedIn();
  // Other roles see the layout's "Not allowed".
  if (actor.role !== "annotator") return null;
  const idText = (await params).campaignId;
  const id = /^[1-9][0-9]{0,14}$/.test(idText) ? Number(idText) : NaN;
  if (!Number.isSafeInteger(id)) notFound();
  try {
    const [campaign, { shortcuts, keys }] = await Promise.all([getAnnotatorCampaign(db, actor, id), getShortcuts(db, actor)]);
    return <JudgingScreen campaign={campaign} shortcuts={{ enabled: shortcuts.enabled, keys }} />;
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") notFound();
    if (error instanceof AppError && (error.details as { paused?: boolean } | undefined)?.paused) return <PausedScreen />;
    throw error;
  }
}

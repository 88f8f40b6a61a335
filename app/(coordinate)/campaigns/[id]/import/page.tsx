import type { Metadata } from "next";
import Link from "next/link";
import { ImportForm } from "@/components/campaigns/import-form";
import { campaignPage } from "@/lib/server/page-auth";
import "../../campaigns.css";

type Props = { params: Promise<{ id: string }> };


export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const campaign = (await campaignPage((await params).id))?.campaign;
  return { title: campaign ? `Import · ${campaign.name}` : "Not allowed" };
}

export default async function ImportPage({ params }: Props) {
  const campaign = (await campaignPage((await params).id))?.campaign;
  if (!campaign) return null;
  return (
    <main className="page">
      <p className="breadcrumb">
        <Link href={`/campaigns/${campaign.id}`}>← {campaign.name}</Link>
      </p>
      <h1>Import a batch</h1>
      <p className="muted intro">
        Upload the Wikipedia pages first (skip this when they are already in the knowledge source), then the questions and their
        retrieved candidates. Every line is checked; a file with a bad line stores nothing.
      </p>
      <ImportForm campaignId={campaign.id} campaignName={campaign.name} />
    </main>
  );
}

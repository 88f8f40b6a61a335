import type { Metadata } from "next";
import Link from "next/link";
import { CampaignForm } from "@/components/campaigns/campaign-form";
import "../campaigns.css";

export const metadata: Metadata = { title: "New campaign" };

export default function NewCampaignPage() {
  return (
    <main className="page">
      <p className="breadcrumb">
        <Link href="/campaigns">← Campaigns</Link>
      </p>
      <h1>New campaign</h1>
      <div className="card form-card">
        <CampaignForm />
      </div>
    </main>
  );
}

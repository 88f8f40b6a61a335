import type { Metadata } from "next";
import { listMyCampaigns } from "@/lib/campaign/campaigns";
import { requireSignedIn } from "@/lib/server/page-auth";

export const metadata: Metadata = { title: "Your queue" };

export default async function AnnotatorHome() {
  const { db, actor } = await requireSignedIn();
  const campaigns = await listMyCampaigns(db, actor);
  return (
    <main className="page">
      <h1>Your queue</h1>
      {campaigns.length === 0 ? (
        <p className="muted">You are not on any campaign yet. Your coordinator will add you.</p>
      ) : (
        <ul>
          {campaigns.map((c) => (
            <li key={c.id}>
              {c.name} {c.hasLaunchedBatch ? "" : <span className="muted">(nothing launched yet)</span>}
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}

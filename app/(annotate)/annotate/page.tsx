import type { Metadata } from "next";
import Link from "next/link";
import { listMyStartedCampaignIds } from "@/lib/campaign/annotate/annotator-view";
import { listMyCampaigns } from "@/lib/campaign/campaigns";
import { requireSignedIn } from "@/lib/server/page-auth";

export const metadata: Metadata = { title: "Your queue" };

export default async function AnnotatorHome() {
  const { db, actor } = await requireSignedIn();
  // Other roles see the layout's "Not allowed"; skip the annotator queries.
  if (actor.role !== "annotator") return null;
  const [campaigns, started] = await Promise.all([listMyCampaigns(db, actor), listMyStartedCampaignIds(db, actor)]);
  return (
    <main className="page">
      <h1>Your queue</h1>
      {campaigns.length === 0 ? (
        <p className="muted">You are not on any campaign yet. Your coordinator will add you.</p>
      ) : (
        <ul aria-label="Your campaigns" style={{ listStyle: "none", padding: 0, margin: 0, display: "grid", gap: "0.6rem", maxWidth: "40rem" }}>
          {campaigns.map((c) => {
            const verb = started.has(c.id) ? "Continue" : "Start";
            return (
              <li key={c.id} className="card" style={{ display: "flex", alignItems: "center", gap: "1rem", padding: "0.8rem 1rem" }}>
                <span style={{ flex: 1, fontWeight: 500 }}>{c.name}</span>
                {c.hasLaunchedBatch ? (
                  <Link className="button" href={`/annotate/${c.id}`} aria-label={`${verb} ${c.name}`}>
                    {verb}
                  </Link>
                ) : (
                  <span className="muted">Nothing launched yet</span>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </main>
  );
}

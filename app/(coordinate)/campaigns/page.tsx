import type { Metadata } from "next";
import Link from "next/link";
import { listCampaigns } from "@/lib/campaign/campaigns";
import { coordinatorPage } from "@/lib/server/page-auth";
import "./campaigns.css";

export const metadata: Metadata = { title: "Campaigns" };

export default async function CoordinatorHome() {
  const ctx = await coordinatorPage();
  if (!ctx) return null;
  const { db, actor } = ctx;
  const campaigns = await listCampaigns(db, actor);
  return (
    <main className="page">
      <div className="page-head">
        <h1>Campaigns</h1>
        <Link className="button" href="/campaigns/new">
          New campaign
        </Link>
      </div>
      {campaigns.length === 0 ? (
        <p className="muted">No campaign yet.</p>
      ) : (
        <table className="data">
          <thead>
            <tr>
              <th scope="col">Campaign</th>
              <th scope="col" className="num">Batches</th>
              <th scope="col" className="num">Launched</th>
              <th scope="col" className="num">Questions</th>
              <th scope="col" className="num">Passages</th>
            </tr>
          </thead>
          <tbody>
            {campaigns.map((c) => (
              <tr key={c.id}>
                <td>
                  <Link href={`/campaigns/${c.id}`}>{c.name}</Link>
                </td>
                <td className="num">{c.batches}</td>
                <td className="num">{c.launchedBatches}</td>
                <td className="num">{c.queries}</td>
                <td className="num">{c.passages}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </main>
  );
}

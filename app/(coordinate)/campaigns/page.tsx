import type { Metadata } from "next";
import Link from "next/link";
import { listCampaigns, type CampaignStatus } from "@/lib/campaign/campaigns";
import { coordinatorPage } from "@/lib/server/page-auth";
import "./campaigns.css";

export const metadata: Metadata = { title: "Campaigns" };

const statusLabel: Record<CampaignStatus, string> = {
  empty: "no batch",
  draft: "draft",
  running: "running",
  paused: "paused",
  closed: "closed",
};

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
              <th scope="col">Status</th>
              <th scope="col" className="num">Batches</th>
              <th scope="col" className="num">Questions</th>
              <th scope="col" className="num">Passages</th>
              <th scope="col" className="num">Progress</th>
            </tr>
          </thead>
          <tbody>
            {campaigns.map((c) => (
              <tr key={c.id}>
                <td>
                  <Link href={`/campaigns/${c.id}`}>{c.name}</Link>
                </td>
                <td>
                  <span className={`status status-${c.status}`}>{statusLabel[c.status]}</span>
                </td>
                <td className="num">{c.batches}</td>
                <td className="num">{c.queries}</td>
                <td className="num">{c.passages}</td>
                <td className="num">
                  <span className="progress-cell">
                    <progress max={c.slots || 1} value={c.filled} aria-label={`${c.name}: ${c.filled} of ${c.slots} judgments`} />
                    {c.slots ? `${Math.floor((100 * c.filled) / c.slots)} %` : "—"}
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </main>
  );
}

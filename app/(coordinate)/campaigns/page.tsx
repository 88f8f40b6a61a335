import type { Metadata } from "next";
import Link from "next/link";
import { DataTable, Num, numeric } from "@/components/ui/data-table";
import { StatusBadge } from "@/components/ui/status-badge";
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

const COLUMNS = ["Campaign", "Status", ...numeric("Batches", "Questions", "Passages", "Progress")];

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
        <DataTable columns={COLUMNS}>
          {campaigns.map((c) => (
            <tr key={c.id}>
              <td>
                <Link href={`/campaigns/${c.id}`}>{c.name}</Link>
              </td>
              <td>
                <StatusBadge tone={c.status}>{statusLabel[c.status]}</StatusBadge>
              </td>
              <Num>{c.batches}</Num>
              <Num>{c.queries}</Num>
              <Num>{c.passages}</Num>
              <Num>
                <span className="progress-cell">
                  <progress max={c.slots || 1} value={c.filled} aria-label={`${c.name}: ${c.filled} of ${c.slots} judgments`} />
                  {c.slots ? `${Math.floor((100 * c.filled) / c.slots)} %` : "—"}
                </span>
              </Num>
            </tr>
          ))}
        </DataTable>
      )}
    </main>
  );
}

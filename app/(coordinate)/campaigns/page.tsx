import type { Metadata } from "next";
import { listCampaigns } from "@/lib/campaign/campaigns";
import { requireSignedIn } from "@/lib/server/page-auth";

export const metadata: Metadata = { title: "Campaigns" };

export default async function CoordinatorHome() {
  const { db, actor } = await requireSignedIn();
  const campaigns = await listCampaigns(db, actor);
  return (
    <main className="page">
      <h1>Campaigns</h1>
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
                <td>{c.name}</td>
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

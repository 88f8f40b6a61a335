import type { Metadata } from "next";
import Link from "next/link";
import { ListPager, ListSearch } from "@/components/campaigns/list-nav";
import { DataTable, Num, numeric } from "@/components/ui/data-table";
import { ErrorAlert } from "@/components/ui/form-field";
import { StatusBadge } from "@/components/ui/status-badge";
import { listCampaigns, type CampaignStatus } from "@/lib/campaign/campaigns";
import { fieldProblems } from "@/lib/errors";
import { campaignListQuerySchema, DEFAULT_PAGE, searchParamsObject } from "@/lib/list-options.contract";
import { coordinatorPage } from "@/app/_server/page-auth";
import "./campaigns.css";

export const metadata: Metadata = { title: "Campaigns" };

const statusLabel: Record<CampaignStatus, string> = {
  empty: "no batch",
  draft: "draft",
  running: "running",
  paused: "paused",
  complete: "complete",
  closed: "closed",
};

const COLUMNS = ["Campaign", "Status", ...numeric("Batches", "Questions", "Passages", "Progress")];

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

// Reads the database on every request.
export const dynamic = "force-dynamic";

/** Campaigns newest first, 50 to a page, searchable by name. */
export default async function CoordinatorHome({ searchParams }: Props) {
  const ctx = await coordinatorPage();
  if (!ctx) return null;
  const { db, actor } = ctx;
  const parsed = campaignListQuerySchema.safeParse(searchParamsObject(await searchParams));
  const query = parsed.success ? { ...parsed.data, limit: DEFAULT_PAGE } : campaignListQuerySchema.parse({});
  const problems = parsed.success ? [] : fieldProblems(parsed.error);
  const page = await listCampaigns(db, actor, query);
  const campaigns = page.rows;
  return (
    <main className="page">
      <div className="page-head">
        <h1>Campaigns</h1>
        <Link className="button" href="/campaigns/new">
          New campaign
        </Link>
      </div>
      <ErrorAlert>
        {problems.length > 0 &&
          `Ignored a bad address: ${problems.map((p) => `${p.field} ${p.message}`).join("; ")}. Showing the newest campaigns.`}
      </ErrorAlert>
      <ListSearch base="/campaigns" id="campaign-search" label="Search campaigns" placeholder="a part of the name" q={query.q} />
      {campaigns.length === 0 ? (
        <p className="muted" data-testid="no-campaigns">
          {query.q ? "No campaign matches." : query.after ? "No more campaigns." : "No campaign yet."}
        </p>
      ) : (
        <DataTable testId="campaigns" columns={COLUMNS} caption={<caption className="visually-hidden">Campaigns, newest first</caption>}>
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
      <ListPager base="/campaigns" what="campaigns" q={query.q} after={query.after} next={page.next} />
    </main>
  );
}

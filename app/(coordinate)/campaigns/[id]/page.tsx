import type { Metadata } from "next";
import Link from "next/link";
import { BatchList } from "@/components/campaigns/batch-table";
import { Dashboard } from "@/components/campaigns/dashboard";
import { Markdown } from "@/components/ui/markdown";
import { TermList, type Term } from "@/components/ui/term-list";
import { getDashboard } from "@/lib/campaign/report/dashboard";
import { listBatches } from "@/lib/campaign/batches";
import { listStandings } from "@/lib/campaign/quality/standings";
import { annotatorListQuerySchema, DEFAULT_PAGE } from "@/lib/list-options.contract";
import { campaignPage } from "@/app/_server/page-auth";
import "../campaigns.css";

type Props = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const loaded = await campaignPage((await params).id);
  return { title: loaded?.campaign.name ?? "Not allowed" };
}

const onOff = (v: boolean) => (v ? "on" : "off");

export default async function CampaignPage({ params }: Props) {
  const loaded = await campaignPage((await params).id);
  if (!loaded) return null;
  const { db, actor, campaign } = loaded;
  // The first page of each list; the tables page, sort and search through the API from there.
  const [batches, dashboard, annotators] = await Promise.all([
    listBatches(db, actor, campaign.id, { limit: DEFAULT_PAGE }),
    getDashboard(db, actor, campaign.id),
    listStandings(db, actor, campaign.id, annotatorListQuerySchema.parse({})),
  ]);
  const settings: Term[] = [
    ["Judgments per passage (R)", String(campaign.judgmentsPerPassage)],
    ["Endorsement threshold (T)", String(campaign.endorsementThreshold)],
    ["Show answers to annotators", onOff(campaign.showAnswers)],
    ["Stop early once decided", onOff(campaign.earlyStop)],
    ["Ask when no passage is sufficient", onOff(campaign.askWhenNoneSufficient)],
    ["Lease", `${campaign.leaseMinutes} min`],
    ["Minimum gold judgments", String(campaign.goldMinJudgments)],
    ["Gold accuracy threshold", String(campaign.goldAccuracyThreshold)],
    ["Gold span slack", `${Math.round(campaign.goldSpanSlack * 100)}%`],
    ["Decoys per 100 passages", String(campaign.decoysPer100)],
    [
      "Annotators",
      campaign.allAnnotators
        ? "all annotators"
        : `${campaign.memberIds.length} added annotator${campaign.memberIds.length === 1 ? "" : "s"}`,
    ],
  ];

  return (
    <main className="page">
      <p className="breadcrumb">
        <Link href="/campaigns">← Campaigns</Link>
      </p>
      <div className="page-head">
        <h1>{campaign.name}</h1>
        <div className="actions">
          <Link className="button" href={`/campaigns/${campaign.id}/import`}>
            Import a batch
          </Link>
          <Link href={`/campaigns/${campaign.id}/runs`}>Runs and leaderboard</Link>
          <Link href={`/campaigns/${campaign.id}/settings`}>Settings</Link>
          <Link href={`/campaigns/${campaign.id}/workers`}>Crowd workers</Link>
        </div>
      </div>

      <section className="card" aria-labelledby="settings-heading">
        <h2 id="settings-heading" className="card-title">
          Settings
        </h2>
        <TermList className="settings-summary" terms={settings} />
        {campaign.instructions.trim() ? (
          <details className="instructions-box">
            <summary>Instructions</summary>
            <Markdown className="markdown-body">{campaign.instructions}</Markdown>
          </details>
        ) : (
          <p className="hint instructions-box">No instructions yet.</p>
        )}
      </section>

      <section aria-labelledby="dashboard-heading">
        <h2 id="dashboard-heading">Dashboard</h2>
        <Dashboard initial={dashboard} initialAnnotators={{ annotators: annotators.rows, next: annotators.next }} />
      </section>

      <section aria-labelledby="batches-heading">
        <h2 id="batches-heading">Batches</h2>
        <BatchList
          campaignId={campaign.id}
          initialPage={{
            batches: batches.rows.map((b) => ({
              id: b.id,
              name: b.name,
              status: b.status,
              taskKind: b.taskKind,
              dataset: b.dataset,
              queries: b.queries,
              passages: b.passages,
              goldPassages: b.goldPassages,
              pages: b.pages,
            })),
            next: batches.next,
          }}
        />
      </section>

      <section aria-labelledby="export-heading">
        <h2 id="export-heading">Export</h2>
        <p>
          <Link href={`/campaigns/${campaign.id}/export-report`}>Export report</Link>
          <span className="hint">
            {" "}
            — the questions left out as unanswerable and why, the annotators&apos; explanations, the passages endorsed per question, and
            exported spans that hold no answer.
          </span>
        </p>
        <ul className="downloads">
          <li>
            <a href={`/api/campaigns/${campaign.id}/export?location=span`} download aria-describedby="export-span-hint">
              KILT provenance (consensus spans)
            </a>
            <p className="hint" id="export-span-hint">
              One provenance entry per endorsed passage, pointing at the characters its annotators agreed on: from the first to the last
              character that at least T (now {campaign.endorsementThreshold}) of its endorsers highlighted, else the highlight that overlaps
              the others most; widened to take in an answer one of them highlighted. A passage a coordinator decided keeps the span they
              set.
            </p>
          </li>
          <li>
            <a href={`/api/campaigns/${campaign.id}/export?location=passage`} download aria-describedby="export-passage-hint">
              KILT provenance (whole passages)
            </a>
            <p className="hint" id="export-passage-hint">
              One provenance entry per endorsed passage, covering its whole paragraph range, with -1 as the start and end character (as in
              KILT&apos;s released data).
            </p>
          </li>
          <li>
            <a href={`/api/campaigns/${campaign.id}/judgments`} download>
              Every judgment (JSONL)
            </a>
          </li>
        </ul>
      </section>
    </main>
  );
}

"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { Dashboard as DashboardData } from "@/lib/campaign/report/dashboard.contract";
import { DASHBOARD_REFRESH_MS, dashboardQuery, type AnnotatorPage } from "@/components/api/campaigns";
import { formatTimeSeconds } from "@/lib/format";
import { ActivityChart } from "./activity-chart";
import { AnnotatorTable } from "./annotator-table";
import { AnnotatorWarnings } from "./annotator-warnings";
import { BatchProgress, DashboardFigures, SkillList, SlotBar } from "./dashboard-figures";
import { GoldFigures, SuspectDecoys } from "./gold-figures";
import { NotedFigure, ResponsesFigure } from "./noted-figure";
import { WaitingFigure } from "./waiting-figure";

/** The live dashboard of a campaign: refreshes every 5 s without reloading the page (the annotators table its page of annotators). */
export function Dashboard({ initial, initialAnnotators }: { initial: DashboardData; initialAnnotators: AnnotatorPage }) {
  const campaignId = initial.campaign.id;
  const query = useQuery({ ...dashboardQuery(campaignId), initialData: initial, initialDataUpdatedAt: Date.parse(initial.generatedAt) });
  const d = query.data;
  return (
    <div className="dashboard" data-testid="dashboard">
      <p className="hint live-note" aria-live="polite">
        {query.isError ? (
          <span className="error-text">
            Could not refresh: {query.error.message} (showing figures from <LocalTime iso={d.generatedAt} />)
          </span>
        ) : (
          <>
            Live: refreshed <LocalTime iso={d.generatedAt} />, every {DASHBOARD_REFRESH_MS / 1000} s
          </>
        )}
      </p>
      <DashboardFigures dashboard={d} />
      <NotedFigure campaignId={campaignId} noted={d.noted} />
      <ResponsesFigure responses={d.responses} />
      <WaitingFigure campaignId={campaignId} waiting={d.waiting} />
      <UnfillableNotice unfillable={d.unfillable} />
      <SlotBar progress={d.totals} label="All batches" />

      <h3>Judgments over time</h3>
      <ActivityChart points={d.activity.points} binMinutes={d.activity.binMinutes} />

      <h3>Per batch</h3>
      {d.batches.length === 0 ? <p className="muted">Import a batch to see its progress here.</p> : <BatchProgress batches={d.batches} />}

      <h3>Questions with disagreement</h3>
      <DisputedList campaignId={campaignId} disputed={d.disputed} />

      <h3>Gold</h3>
      <GoldFigures gold={d.gold} />
      <h4>Suspect decoys</h4>
      <SuspectDecoys campaignId={campaignId} />
      <h3>Annotators by estimated skill</h3>
      <SkillList campaignId={campaignId} skills={d.skills} />

      <h3 id="annotators-heading">Annotators</h3>
      <AnnotatorWarnings campaignId={campaignId} />
      <AnnotatorTable campaignId={campaignId} initialPage={initialAnnotators} />
    </div>
  );
}

/** Said plainly when open slots can never be filled (the server counts them): more annotators, or a smaller R, would finish them. */
function UnfillableNotice({ unfillable }: { unfillable: DashboardData["unfillable"] }) {
  if (unfillable.slots === 0) return null;
  const { slots, passages, eligible } = unfillable;
  return (
    <p className="warning-box" role="status" data-testid="unfillable">
      {slots} open slot{slots === 1 ? "" : "s"} of {passages} passage{passages === 1 ? "" : "s"} cannot be filled: every eligible annotator
      ({eligible}) has already judged or proposed {passages === 1 ? "this passage" : "these passages"}. Add annotators to the campaign, or
      lower the judgments per passage, to finish {passages === 1 ? "it" : "them"}.
    </p>
  );
}

function DisputedList({ campaignId, disputed }: { campaignId: number; disputed: DashboardData["disputed"] }) {
  return (
    <>
      {disputed.length === 0 ? (
        <p className="muted">No passage has split verdicts yet.</p>
      ) : (
        <ul className="disputed" data-testid="disputed">
          {disputed.map((q) => (
            <li key={q.queryId}>
              <Link href={`/campaigns/${campaignId}/questions/${q.queryId}`}>{q.input}</Link>{" "}
              <span className="muted">
                ({q.disputed} of {q.passages} passage{q.passages === 1 ? "" : "s"} split · id {q.kiltId})
              </span>
            </li>
          ))}
        </ul>
      )}
      <p className="hint">
        <Link href={`/campaigns/${campaignId}/questions?show=disputed`}>Every question with split verdicts</Link> ·{" "}
        <Link href={`/campaigns/${campaignId}/questions`}>All questions</Link>
      </p>
    </>
  );
}

/** When the figures were computed, to the second: they refresh every few seconds. */
function LocalTime({ iso }: { iso: string }) {
  return <time dateTime={iso}>{formatTimeSeconds(iso)}</time>;
}

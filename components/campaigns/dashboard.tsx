"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { Dashboard as DashboardData, Progress } from "@/lib/campaign/report/dashboard";
import { formatDuration } from "@/lib/metrics/progress";
import { ActivityChart } from "./activity-chart";
import { AnnotatorTable } from "./annotator-table";

const REFRESH_MS = 5_000;

export const dashboardKey = (campaignId: number) => ["dashboard", campaignId] as const;

async function fetchDashboard(campaignId: number): Promise<DashboardData> {
  const res = await fetch(`/api/campaigns/${campaignId}/dashboard`, { cache: "no-store" });
  const data = (await res.json().catch(() => null)) as { dashboard?: DashboardData; error?: { message?: string } } | null;
  if (!res.ok || !data?.dashboard) throw new Error(data?.error?.message ?? `The server answered ${res.status}.`);
  return data.dashboard;
}

const number = (n: number) => n.toLocaleString("en-US");
const percent = (part: number, whole: number) => (whole ? `${((100 * part) / whole).toFixed(1)} %` : "—");
const coefficient = (v: number | null) => (v === null ? "—" : v.toFixed(3));

/** The live dashboard of a campaign: refreshes every 5 s without reloading the page. */
export function Dashboard({ initial }: { initial: DashboardData }) {
  const campaignId = initial.campaign.id;
  const query = useQuery({
    queryKey: dashboardKey(campaignId),
    queryFn: () => fetchDashboard(campaignId),
    initialData: initial,
    initialDataUpdatedAt: Date.parse(initial.generatedAt),
    refetchInterval: REFRESH_MS,
    staleTime: 0,
  });
  const d = query.data;
  const t = d.totals;
  return (
    <div className="dashboard" data-testid="dashboard">
      <p className="hint live-note" aria-live="polite">
        {query.isError ? (
          <span className="error-text">
            Could not refresh: {query.error.message} (showing figures from <LocalTime iso={d.generatedAt} />)
          </span>
        ) : (
          <>
            Live: refreshed <LocalTime iso={d.generatedAt} />, every {REFRESH_MS / 1000} s
          </>
        )}
      </p>
      <dl className="summary-counts dashboard-counts">
        <Figure label="Slots filled" value={`${number(t.filled)} / ${number(t.slots)}`} testId="slots-filled" />
        <Figure label="Claimed now" value={number(t.claimed)} testId="slots-claimed" />
        <Figure label="Open slots" value={number(t.open)} testId="slots-open" />
        <Figure label="Endorsed passages" value={number(t.endorsedPassages)} testId="endorsed" />
        <Figure label="Answered questions" value={number(d.questions.answered)} testId="answered" href={`/campaigns/${campaignId}/questions?show=answered`} />
        <Figure
          label="Unanswerable so far"
          value={number(d.questions.unanswerable)}
          testId="unanswerable"
          href={`/campaigns/${campaignId}/questions?show=unanswerable`}
        />
        <Figure label="Krippendorff's α" value={coefficient(t.alpha)} testId="alpha" />
        <Figure label="Fleiss' κ" value={coefficient(t.kappa)} testId="kappa" />
        <Figure label="Judgments / hour" value={number(Math.round(d.projection.perHour))} testId="rate" />
        <Figure
          label="Projected finish"
          testId="eta"
          value={d.projection.remainingSlots === 0 ? "done" : d.projection.secondsLeft === null ? "no recent activity" : `in ${formatDuration(d.projection.secondsLeft)}`}
        />
      </dl>
      <SlotBar progress={t} label="All batches" />

      <h3>Judgments over time</h3>
      <ActivityChart points={d.activity.points} binMinutes={d.activity.binMinutes} />

      <h3>Per batch</h3>
      {d.batches.length === 0 ? (
        <p className="muted">Import a batch to see its progress here.</p>
      ) : (
        <table className="data" data-testid="batch-progress">
          <thead>
            <tr>
              <th scope="col">Batch</th>
              <th scope="col">Status</th>
              <th scope="col" className="num">Passages</th>
              <th scope="col" className="num">Filled</th>
              <th scope="col" className="num">Claimed</th>
              <th scope="col" className="num">Open</th>
              <th scope="col" className="num">Finished</th>
              <th scope="col" className="num">Endorsed</th>
              <th scope="col" className="num">α</th>
              <th scope="col" className="num">κ</th>
            </tr>
          </thead>
          <tbody>
            {d.batches.map((b) => (
              <tr key={b.id}>
                <td>{b.name}</td>
                <td>
                  <span className={`status status-${b.status}`}>{b.status}</span>
                </td>
                <td className="num">{number(b.passages)}</td>
                <td className="num">
                  {number(b.filled)} <span className="muted">({percent(b.filled, b.slots)})</span>
                </td>
                <td className="num">{number(b.claimed)}</td>
                <td className="num">{number(b.open)}</td>
                <td className="num">{number(b.finishedPassages)}</td>
                <td className="num">{number(b.endorsedPassages)}</td>
                <td className="num">{coefficient(b.alpha)}</td>
                <td className="num">{coefficient(b.kappa)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <h3>Questions with disagreement</h3>
      {d.disputed.length === 0 ? (
        <p className="muted">No passage has split verdicts yet.</p>
      ) : (
        <ul className="disputed" data-testid="disputed">
          {d.disputed.map((q) => (
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

      <h3 id="annotators-heading">Annotators</h3>
      <AnnotatorTable campaignId={campaignId} annotators={d.annotators} />
    </div>
  );
}

/** A time in the viewer's time zone (the server's rendering may differ: the browser's wins). */
function LocalTime({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} suppressHydrationWarning>
      {new Date(iso).toLocaleTimeString()}
    </time>
  );
}

function Figure({ label, value, testId, href }: { label: string; value: string; testId: string; href?: string }) {
  return (
    <div>
      <dt>{href ? <Link href={href}>{label}</Link> : label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
}

/** Filled, claimed, open and not-needed slots as one stacked bar. */
function SlotBar({ progress: p, label }: { progress: Progress; label: string }) {
  if (!p.slots) return null;
  const parts = [
    ["filled", p.filled],
    ["claimed", p.claimed],
    ["open", p.open],
    ["not-needed", p.notNeeded],
  ] as const;
  return (
    <div
      className="slot-bar"
      role="img"
      aria-label={`${label}: ${p.filled} filled, ${p.claimed} claimed, ${p.open} open, ${p.notNeeded} not needed of ${p.slots} slots`}
    >
      {parts.map(([name, n]) => (n ? <span key={name} className={`slot-${name}`} style={{ width: `${(100 * n) / p.slots}%` }} /> : null))}
    </div>
  );
}

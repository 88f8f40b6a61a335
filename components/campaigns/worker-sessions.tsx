"use client";

import { useState } from "react";
import { PagedRows, SearchBox, useSearchedList } from "@/components/people/list-controls";
import { DataTable, Num, numeric } from "@/components/ui/data-table";
import { StatusBadge } from "@/components/ui/status-badge";
import { WORKER_OUTCOME_FILTERS, type WorkerOutcomeFilter, type WorkerSessionRow } from "@/lib/crowd/workers-report.contract";
import { formatTime } from "@/lib/format";
import { workersDownloadUrl, workersQuery, type WorkerPage } from "@/components/api/workers";
import "./worker-sessions.css";

const outcomeLabel: Record<WorkerOutcomeFilter, string> = {
  completed: "completed",
  queue_empty: "queue empty",
  paused: "paused",
  timed_out: "timed out",
  training_failed: "training not passed",
  stopped: "stopped",
  open: "still open",
};

const outcomeTone: Record<WorkerOutcomeFilter, string | undefined> = {
  completed: "launched",
  queue_empty: "complete",
  paused: "paused",
  timed_out: "closed",
  training_failed: "paused",
  stopped: "closed",
  open: "running",
};

const platformLabel: Record<WorkerSessionRow["platform"], string> = { prolific: "Prolific", mturk: "MTurk", generic: "Generic" };

const COLUMNS = [
  "Worker",
  "Session",
  "Outcome · code",
  "Started · ended",
  ...numeric("Judgments", "Counted", "Active", "Training", "Gold accuracy", "Agreement"),
  "Standing",
];

const pct = (v: number | null) => (v === null ? "—" : `${Math.round(v * 100)} %`);

/** 754.2 → "12 min 34 s". */
function duration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m} min ${s % 60} s` : `${Math.floor(m / 60)} h ${m % 60} min`;
}

function standing(r: WorkerSessionRow): string {
  if (!r.paused) return "active";
  return r.pauseReason === "gold_rule" ? "paused (gold rule)" : r.pauseReason === "speed_rule" ? "paused (speed rule)" : "paused";
}

/**
 * The payment report of a crowd campaign: one row per worker and session, newest first, 50 to a
 * page, searchable by platform worker id, filtered by outcome; the whole report (with the search and
 * filter on screen) as CSV or JSONL.
 */
export function WorkerSessions({ campaignId, initialPage }: { campaignId: number; initialPage: WorkerPage }) {
  const [outcome, setOutcome] = useState<WorkerOutcomeFilter | "">("");
  const paged = useSearchedList(
    (params) => workersQuery(campaignId, { ...params, outcome: outcome || undefined }),
    initialPage,
    outcome === "",
  );
  const { q, pages, search, list } = paged;
  const filters = { q: q || undefined, outcome: outcome || undefined };
  const rows = list.data?.workers ?? [];
  return (
    <>
      <div className="worker-filters">
        <SearchBox
          id="workers-search"
          landmark="Crowd workers"
          label="Search worker ids"
          placeholder="a part of the platform's worker id"
          value={q}
          onSearch={search}
        />
        <div className="field">
          <label htmlFor="workers-outcome">Outcome</label>
          <select
            id="workers-outcome"
            value={outcome}
            onChange={(e) => {
              setOutcome(e.target.value as WorkerOutcomeFilter | "");
              pages.reset();
            }}
          >
            <option value="">All outcomes</option>
            {WORKER_OUTCOME_FILTERS.map((o) => (
              <option key={o} value={o}>
                {outcomeLabel[o]}
              </option>
            ))}
          </select>
        </div>
      </div>
      <ul className="worker-downloads" aria-label="Download the payment report">
        <li>
          <a href={workersDownloadUrl(campaignId, "csv", filters)} download data-testid="workers-csv">
            Payment report (CSV)
          </a>
        </li>
        <li>
          <a href={workersDownloadUrl(campaignId, "jsonl", filters)} download data-testid="workers-jsonl">
            Payment report (JSONL)
          </a>
        </li>
      </ul>
      <PagedRows
        paged={paged}
        rows={rows}
        none={outcome ? `No session with the outcome “${outcomeLabel[outcome]}”.` : "No crowd worker has entered this campaign yet."}
        noMatch="No worker id matches"
        what="crowd sessions"
      >
        {(shown) => <WorkerTable rows={shown} />}
      </PagedRows>
    </>
  );
}

/** A platform's id under a cell (nothing without one), named by its title. */
function IdHint({ id, title }: { id: string | null; title: string }) {
  if (!id) return null;
  return (
    <div className="hint">
      <code className="worker-id" title={title}>
        {id}
      </code>
    </div>
  );
}

function WorkerTable({ rows }: { rows: WorkerSessionRow[] }) {
  return (
    <DataTable label="Crowd sessions" testId="worker-sessions" columns={COLUMNS}>
      {rows.map((r) => {
        const o: WorkerOutcomeFilter = r.outcome ?? "open";
        return (
          <tr key={r.id}>
            <td>
              <code className="worker-id">{r.workerId}</code>
              <div className="hint">
                {platformLabel[r.platform]} · {r.pseudonym}
              </div>
            </td>
            <td>
              #{r.session}
              <IdHint id={r.studyId} title="study (Prolific) or HIT (MTurk)" />
              <IdHint id={r.platformSessionId} title="session (Prolific) or assignment (MTurk)" />
            </td>
            <td>
              <StatusBadge tone={outcomeTone[o]}>{outcomeLabel[o]}</StatusBadge>
              {r.code && (
                <div>
                  <code className="worker-id">{r.code}</code>
                </div>
              )}
            </td>
            <td className="worker-time">
              {formatTime(r.startedAt)}
              <div className="hint">{r.endedAt ? formatTime(r.endedAt) : "not ended"}</div>
            </td>
            <Num>{r.judgments}</Num>
            <Num>{r.countedJudgments}</Num>
            <Num>{duration(r.activeSeconds)}</Num>
            <Num>{r.trainingJudged ? `${r.trainingCorrect} / ${r.trainingJudged}` : "—"}</Num>
            <Num title={r.goldJudged ? `${r.goldCorrect} of ${r.goldJudged} gold right` : undefined}>{pct(r.goldAccuracy)}</Num>
            <Num title={r.compared ? `${r.agreed} of ${r.compared}` : undefined}>{pct(r.agreement)}</Num>
            <td>{standing(r)}</td>
          </tr>
        );
      })}
    </DataTable>
  );
}

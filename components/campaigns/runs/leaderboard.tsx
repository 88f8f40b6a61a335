"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Fragment, useState } from "react";
import { ErrorAlert } from "@/components/ui/form-field";
import { formatTime, plural } from "@/lib/format";
import {
  compareWithOriginal,
  figure,
  formatScore,
  GOLD_HINT,
  GOLD_LABEL,
  GOLDS,
  headlineMetrics,
  metricsOf,
  nextSort,
  shownMetrics,
  sortRows,
  type Metric,
  type SortKey,
} from "./metrics";
import { MetricPicker, useChosenMetrics } from "./metric-picker";
import type { Level } from "@/lib/kilt/score/types";
import { leaderboardQuery, type Leaderboard as Board } from "@/components/api/runs";
import { LevelSwitch } from "./level-switch";
import "./runs.css";

/**
 * The runs × metrics table, each metric against the three golds side by side (original, endorsed,
 * both), at page or paragraph level; the metrics shown are chosen (a few by default: ten metrics of
 * three golds do not fit a screen); a click on a column head sorts the runs by it.
 */
export function Leaderboard({ campaignId }: { campaignId: number }) {
  const [level, setLevel] = useState<Level>("page");
  const [sort, setSort] = useState<SortKey | null>(null);
  const [chosen, choose] = useChosenMetrics();
  // Scoring a large campaign takes seconds: not again at every focus of the window, but on asking.
  const board = useQuery({ ...leaderboardQuery(campaignId, { level }), placeholderData: keepPreviousData, refetchOnWindowFocus: false });
  const data = board.data;
  return (
    <section aria-labelledby="leaderboard-heading" className="leaderboard" aria-busy={board.isFetching}>
      <h2 id="leaderboard-heading">Leaderboard</h2>
      <div className="leaderboard-controls">
        <LevelSwitch id="leaderboard-level" value={level} onChange={setLevel} />
        <button type="button" className="secondary" disabled={board.isFetching} onClick={() => void board.refetch()}>
          Score again
        </button>
        <span className="hint" aria-live="polite">
          {board.isFetching && !board.isPending ? "Scoring the runs against the current outcomes…" : ""}
        </span>
      </div>
      <ErrorAlert>{board.isError && `The leaderboard could not be computed: ${board.error.message}`}</ErrorAlert>
      {board.isPending ? (
        <p className="muted">Scoring the runs…</p>
      ) : data && data.rows.length === 0 ? (
        <p className="muted">No run yet: upload one above to see it scored.</p>
      ) : data ? (
        <>
          <GoldCounts board={data} />
          <MetricPicker available={others(data)} chosen={chosen} onChange={choose} />
          <ScoreTable
            campaignId={campaignId}
            board={data}
            metrics={[...headlineMetrics(data), ...shownMetrics(others(data), chosen)]}
            lead={headlineMetrics(data).length}
            sort={sort}
            onSort={setSort}
          />
        </>
      ) : null}
    </section>
  );
}

/** The metrics the picker offers: all but the two every row leads with (always shown first). */
const others = (board: Board) => {
  const lead = headlineMetrics(board).map((m) => m.key);
  return metricsOf(board).filter((m) => !lead.includes(m.key));
};

/** How many questions each gold holds, and when the figures were computed. */
function GoldCounts({ board }: { board: Board }) {
  return (
    <div className="gold-counts">
      <dl className="summary-counts" aria-label="Questions in each gold">
        {GOLDS.map((g) => (
          <div key={g} title={GOLD_HINT[g]}>
            <dt>{GOLD_LABEL[g]} gold</dt>
            <dd data-testid={`gold-${g}-questions`}>{board.golds[g].questions.toLocaleString("en")}</dd>
          </div>
        ))}
      </dl>
      <p className="hint">
        Questions per gold: original, {GOLD_HINT.original}; endorsed, {GOLD_HINT.endorsed}; both, {GOLD_HINT.both}. A question not in a gold
        is left out of its figures; ▲ and ▼ compare a figure with the original gold’s over the same questions. Computed{" "}
        {formatTime(board.computedAt)} from the campaign’s current outcomes, at {board.level} level.
      </p>
      <p className="hint" data-testid="leaderboard-headline">
        {board.headline.reason}
        {board.rows.some((r) => r.run.hasAnswers) ? "" : " (No run answers yet: the figures are retrieval only.)"}
      </p>
    </div>
  );
}

const ariaSort = (sort: SortKey | null, metric: string, gold: string) =>
  sort && sort.metric === metric && sort.gold === gold ? (sort.dir === "asc" ? "ascending" : "descending") : "none";

function ScoreTable({
  campaignId,
  board,
  metrics,
  lead,
  sort,
  onSort,
}: {
  campaignId: number;
  board: Board;
  metrics: Metric[];
  /** How many of `metrics`, first, are the headline pair. */
  lead: number;
  sort: SortKey | null;
  onSort: (s: SortKey) => void;
}) {
  const rows = sortRows(board, metrics, sort);
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label="Leaderboard table">
      <table className="data score-table" data-testid="leaderboard">
        <caption className="visually-hidden">
          {plural(board.rows.length, "run")} against the three golds at {board.level} level; the column heads sort
        </caption>
        <colgroup>
          <col />
        </colgroup>
        {metrics.map((m) => (
          <colgroup key={m.key} span={3} />
        ))}
        <thead>
          <tr>
            <th scope="col" rowSpan={2}>
              Run
            </th>
            {metrics.map((m, i) => (
              <th
                key={m.key}
                scope="colgroup"
                colSpan={3}
                className={`metric-head${i < lead ? " headline-metric" : ""}`}
                title={m.description}
              >
                {m.label}
                {i === 0 && lead > 0 ? <span className="hint"> · headline</span> : null}
              </th>
            ))}
          </tr>
          <tr>
            {metrics.map((m) => (
              <Fragment key={m.key}>
                {GOLDS.map((g) => (
                  <th key={g} scope="col" className="num gold-head" aria-sort={ariaSort(sort, m.key, g)}>
                    <button type="button" className="sort-button" onClick={() => onSort(nextSort(sort, m.key, g))}>
                      <span className="visually-hidden">{m.label}, </span>
                      {GOLD_LABEL[g]}
                      <span aria-hidden="true">{sort?.metric === m.key && sort.gold === g ? (sort.dir === "asc" ? " ▲" : " ▼") : ""}</span>
                    </button>
                  </th>
                ))}
              </Fragment>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.run.id}>
              <th scope="row">
                <Link href={`/campaigns/${campaignId}/runs/${row.run.id}`}>{row.run.name}</Link>
                <FewerQuestions board={board} row={row} />
              </th>
              {metrics.map((m) => (
                <ScoreCells key={m.key} metric={m} row={row} board={board} />
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A note under a run scored over fewer questions than a gold holds (questions imported after the run). */
function FewerQuestions({ board, row }: { board: Board; row: Board["rows"][number] }) {
  const counts = row.questions;
  if (!counts || GOLDS.every((g) => counts[g] === board.golds[g].questions)) return null;
  return (
    <span className="hint rank-note">over {GOLDS.map((g) => `${counts[g]} of ${board.golds[g].questions}`).join(" · ")} questions</span>
  );
}

/** One metric's three figures; the endorsed and both figures are marked where they differ from the original gold's over the same questions. */
function ScoreCells({ metric, row, board }: { metric: Metric; row: Board["rows"][number]; board: Board }) {
  return (
    <>
      {GOLDS.map((g) => {
        const v = figure(board, row, metric, g);
        const c = compareWithOriginal(board, row, metric, g);
        return (
          <td
            key={g}
            className={`num${g === "original" ? " gold-first" : ""}${c.kind === "higher" || c.kind === "lower" ? " changed" : ""}`}
            data-metric={metric.key}
            data-gold={g}
            title={v === undefined ? undefined : String(v)}
          >
            <span className="score">{formatScore(v)}</span>
            <ComparisonMark c={c} />
          </td>
        );
      })}
    </>
  );
}

/** ▲ or ▼ against the original gold over the same questions, or the two question counts when they differ. */
function ComparisonMark({ c }: { c: ReturnType<typeof compareWithOriginal> }) {
  if (c.kind === "differ")
    return (
      <span className="sets-differ hint">
        {" "}
        {c.these} against {c.original} questions
        <span className="visually-hidden">: not compared with the original gold, which holds other questions</span>
      </span>
    );
  if (c.kind !== "higher" && c.kind !== "lower") return null;
  return (
    <span className="delta">
      {" "}
      {c.kind === "higher" ? "▲" : "▼"}
      <span className="visually-hidden">
        {" "}
        {c.kind} than the original gold over the same {c.over === 1 ? "question" : `${c.over} questions`}
      </span>
    </span>
  );
}

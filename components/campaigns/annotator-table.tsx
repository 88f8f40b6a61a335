"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { Fragment, useState } from "react";
import { Pager, SearchBox, useSearchedPages } from "@/components/people/list-controls";
import { Num } from "@/components/ui/data-table";
import { ErrorAlert } from "@/components/ui/form-field";
import type { AnnotatorRow } from "@/lib/campaign/report/annotators.contract";
import type { AnnotatorSort } from "@/lib/list-options.contract";
import { annotatorsQuery, campaignKeys, changeAnnotator, type AnnotatorPage } from "@/components/api/campaigns";
import { percent, standingText } from "./annotator-standing";
import { PauseAnnotatorDialog } from "./pause-annotator-dialog";
import "./annotator-quality.css";

type Sort = { key: AnnotatorSort; dir: "asc" | "desc" };

const columns: { key: AnnotatorSort; label: string; numeric: boolean }[] = [
  { key: "username", label: "Annotator", numeric: false },
  { key: "judgments", label: "Judgments", numeric: true },
  { key: "goldJudged", label: "Gold judged", numeric: true },
  { key: "goldAccuracy", label: "Gold accuracy", numeric: true },
  { key: "agreement", label: "Agrees with majority", numeric: true },
  { key: "medianSeconds", label: "Median s / judgment", numeric: true },
  { key: "shareUnder2s", label: "Under 2 s", numeric: true },
  { key: "status", label: "Standing", numeric: false },
];

const kindText = (correct: number, judged: number) => (judged ? `${correct} / ${judged}` : "—");

/** The first page the campaign page renders on the server: by username, no search. */
const FIRST_ANNOTATOR_SORT: Sort = { key: "username", dir: "asc" };

/**
 * Annotators of a campaign with their quality figures, 50 to a page, sorted on the server by any
 * column (ties by user id), searchable by username, with pause / resume. The page on screen refreshes
 * with the dashboard every 5 s and stays the page it is.
 */
export function AnnotatorTable({ campaignId, initialPage }: { campaignId: number; initialPage: AnnotatorPage }) {
  const [sort, setSort] = useState<Sort>(FIRST_ANNOTATOR_SORT);
  const { q, pages, isFirst, search } = useSearchedPages();
  const first = isFirst && sort.key === FIRST_ANNOTATOR_SORT.key && sort.dir === FIRST_ANNOTATOR_SORT.dir;
  const list = useQuery({
    ...annotatorsQuery(campaignId, { sort: sort.key, dir: sort.dir, q: q || undefined, after: pages.after }),
    initialData: first ? initialPage : undefined,
    placeholderData: keepPreviousData,
  });
  const sortBy = (key: AnnotatorSort, numeric: boolean) => {
    setSort((s) => ({ key, dir: s.key === key ? (s.dir === "asc" ? "desc" : "asc") : numeric ? "desc" : "asc" }));
    pages.reset();
  };
  const rows = list.data?.annotators ?? [];
  const several = !first || initialPage.next !== null;
  if (!several && rows.length === 0) return <p className="muted">No annotator has judged in this campaign yet.</p>;
  return (
    <>
      {several && (
        <SearchBox
          id="annotators-search"
          landmark="Annotators"
          label="Search annotators"
          placeholder="a part of the username"
          value={q}
          onSearch={search}
        />
      )}
      {rows.length === 0 ? (
        <p className="muted">{list.isPending ? "Loading…" : q ? `No annotator matches “${q}”.` : "No more annotators."}</p>
      ) : (
        <AnnotatorRows campaignId={campaignId} rows={rows} sort={sort} onSort={sortBy} />
      )}
      <Pager what="annotators" page={pages.page} next={list.data?.next ?? null} onPrevious={pages.previous} onNext={pages.next} />
      <ErrorAlert>{list.isError && `The annotators could not be refreshed: ${list.error.message}`}</ErrorAlert>
    </>
  );
}

function AnnotatorRows({
  campaignId,
  rows,
  sort,
  onSort,
}: {
  campaignId: number;
  rows: AnnotatorRow[];
  sort: Sort;
  onSort: (key: AnnotatorSort, numeric: boolean) => void;
}) {
  const client = useQueryClient();
  const change = useMutation({
    mutationFn: ({ userId, action }: { userId: number; action: "pause" | "resume" }) => changeAnnotator(campaignId, userId, action),
    // The dashboard's figures and the annotators table both change.
    onSuccess: () => client.invalidateQueries({ queryKey: campaignKeys.detail(campaignId) }),
  });
  // Pausing asks first (PauseAnnotatorDialog); resuming does not.
  const [confirming, setConfirming] = useState<{ userId: number; username: string } | null>(null);
  return (
    <>
      <PauseAnnotatorDialog
        username={confirming?.username ?? null}
        onConfirm={() => {
          if (confirming) change.mutate({ userId: confirming.userId, action: "pause" });
          setConfirming(null);
        }}
        onCancel={() => setConfirming(null)}
      />
      <ErrorAlert>{change.error?.message}</ErrorAlert>
      <p className="hint">
        Gold accuracy is smoothed
        <GoldAccuracyTip /> · each name opens the annotator’s judgments, gold results and charts.
      </p>
      <div className="table-scroll" tabIndex={0}>
        <table className="data" data-testid="annotators" aria-label="Annotators">
          <AnnotatorHead sort={sort} onSort={onSort} />
          <tbody>
            {rows.map((a) => (
              <tr key={a.userId} data-username={a.username}>
                <td>
                  <Link href={`/campaigns/${campaignId}/annotators/${a.userId}`}>{a.username}</Link>
                </td>
                <Num>{a.judgments}</Num>
                <Num>{a.goldJudged}</Num>
                <Num>{a.goldJudged ? a.goldAccuracy.toFixed(2) : "—"}</Num>
                <Num title={a.compared ? `${a.compared} judgments on finished passages` : undefined}>{percent(a.agreement)}</Num>
                <Num>{a.medianSeconds === null ? "—" : a.medianSeconds.toFixed(1)}</Num>
                <Num>{percent(a.shareUnder2s)}</Num>
                {/* After the columns the specs read by position (0–6): the two kinds of gold apart. */}
                <Num title="sufficient gold: right of judged (verdict and span check)">
                  {kindText(a.sufficientGoldCorrect, a.sufficientGoldJudged)}
                </Num>
                <Num title="negative gold, decoys included: right of judged">{kindText(a.negativeGoldCorrect, a.negativeGoldJudged)}</Num>
                <td>{standingText(a)}</td>
                <td className="num">
                  <button
                    type="button"
                    className="secondary"
                    disabled={change.isPending}
                    aria-haspopup={a.status === "active" ? "dialog" : undefined}
                    onClick={() =>
                      a.status === "active"
                        ? setConfirming({ userId: a.userId, username: a.username })
                        : change.mutate({ userId: a.userId, action: "resume" })
                    }
                  >
                    {a.status === "active" ? "Pause" : "Resume"}
                    <span className="visually-hidden"> {a.username}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** The table's head: a sort button per sortable column, then the two kinds of gold after "Under 2 s", and the actions. */
function AnnotatorHead({ sort, onSort }: { sort: Sort; onSort: (key: AnnotatorSort, numeric: boolean) => void }) {
  return (
    <thead>
      <tr>
        {columns.map((c) => (
          <Fragment key={c.key}>
            <th
              scope="col"
              className={c.numeric ? "num" : undefined}
              aria-sort={sort.key === c.key ? (sort.dir === "asc" ? "ascending" : "descending") : "none"}
            >
              <button type="button" className="sort-button" onClick={() => onSort(c.key, c.numeric)}>
                {c.label}
                <span aria-hidden="true">{sort.key === c.key ? (sort.dir === "asc" ? " ▲" : " ▼") : ""}</span>
              </button>
            </th>
            {c.key === "shareUnder2s" && (
              <>
                <th scope="col" className="num">
                  Sufficient gold right
                </th>
                <th scope="col" className="num">
                  Negative gold right
                </th>
              </>
            )}
          </Fragment>
        ))}
        <th scope="col">
          <span className="visually-hidden">Actions</span>
        </th>
      </tr>
    </thead>
  );
}

/** What the smoothed gold accuracy is: a focusable "?" whose tooltip describes it (aria-describedby), shown on hover and focus. */
function GoldAccuracyTip() {
  return (
    <span className="info-tip">
      <button type="button" className="secondary" aria-label="How gold accuracy is computed" aria-describedby="gold-accuracy-tip">
        ?
      </button>
      <span role="tooltip" id="gold-accuracy-tip">
        Smoothed gold accuracy: (0.5 + correct) / (1 + gold judged). It starts at 0.5 and moves towards the plain share correct as gold
        judgments add up, so one early mistake does not read as 0 %. The gold rule weighs sufficient gold and negative gold (decoys
        included) apart: an annotator whose smoothed accuracy on either kind falls below the campaign’s threshold is paused.
      </span>
    </span>
  );
}

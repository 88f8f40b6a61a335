"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { SearchBox } from "@/components/people/list-controls";
import { DataTable, Num, numeric } from "@/components/ui/data-table";
import { ErrorAlert } from "@/components/ui/form-field";
import { formatScore, GOLD_LABEL, GOLDS } from "./metrics";
import type { Level } from "@/lib/kilt/score/types";
import { runQuestionsQuery, type RunQuestionRow } from "@/components/api/runs";
import { LevelSwitch } from "./level-switch";
import "./runs.css";

const COLUMNS = ["Question", "KILT id", ...numeric(...GOLDS.map((g) => `${GOLD_LABEL[g]} R-prec`))];

/** The address of a question's drill-down (the KILT id encoded as one path segment). */
export const questionHref = (campaignId: number, runId: number, kiltId: string) =>
  `/campaigns/${campaignId}/runs/${runId}/questions/${encodeURIComponent(kiltId)}`;

/** A run's questions, a page at a time, searchable by KILT id or question text, each with its R-precision per gold. */
export function RunQuestions({ campaignId, runId }: { campaignId: number; runId: number }) {
  const [q, setQ] = useState("");
  const [level, setLevel] = useState<Level>("page");
  const [cursors, setCursors] = useState<number[]>([]);
  const after = cursors.at(-1);
  const list = useQuery({
    ...runQuestionsQuery(campaignId, runId, { q: q || undefined, after, level }),
    placeholderData: keepPreviousData,
  });
  const rows = list.data?.questions ?? [];
  const next = list.data?.next ?? null;
  return (
    <section aria-labelledby="run-questions-heading" className="run-questions">
      <h2 id="run-questions-heading">Questions</h2>
      <LevelSwitch id="run-questions-level" value={level} onChange={setLevel} />
      <SearchBox
        id="run-questions-search"
        landmark="Questions"
        label="Search questions"
        placeholder="a KILT id or words of the question"
        value={q}
        onSearch={(text) => {
          setQ(text);
          setCursors([]);
        }}
      />
      <ErrorAlert>{list.isError && `The questions could not be listed: ${list.error.message}`}</ErrorAlert>
      {list.isPending ? (
        <p className="muted">Loading…</p>
      ) : rows.length === 0 ? (
        <p className="muted">{q ? `No question matches “${q}”.` : "No question."}</p>
      ) : (
        <DataTable label="Questions of the run" testId="run-questions" columns={COLUMNS}>
          {rows.map((row) => (
            <QuestionRow key={row.id} campaignId={campaignId} runId={runId} row={row} />
          ))}
        </DataTable>
      )}
      {(cursors.length > 0 || next !== null) && (
        <nav className="pager" aria-label="Pages of questions">
          <button type="button" className="secondary" disabled={cursors.length === 0} onClick={() => setCursors((c) => c.slice(0, -1))}>
            ← Previous page
          </button>
          <span className="muted">Page {cursors.length + 1}</span>
          <button
            type="button"
            className="secondary"
            disabled={next === null}
            onClick={() => next !== null && setCursors((c) => [...c, next])}
          >
            Next page →
          </button>
        </nav>
      )}
    </section>
  );
}

function QuestionRow({ campaignId, runId, row }: { campaignId: number; runId: number; row: RunQuestionRow }) {
  return (
    <tr>
      <td>
        <Link href={questionHref(campaignId, runId, row.kiltId)}>{row.input}</Link>
      </td>
      <td>
        <code>{row.kiltId}</code>
      </td>
      {GOLDS.map((g) => {
        const rprec = row.rprec[g];
        const rank = row.firstCompleteRank[g];
        return (
          <Num key={g}>
            {rprec === null ? (
              <span className="muted" title="not in this gold">
                —<span className="visually-hidden"> not in this gold</span>
              </span>
            ) : (
              <>
                <span data-gold={g}>{formatScore(rprec)}</span>
                <span className="hint rank-note">{rank === null ? "no set complete" : `complete at ${rank}`}</span>
              </>
            )}
          </Num>
        );
      })}
    </tr>
  );
}

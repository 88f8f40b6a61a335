"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Num } from "@/components/ui/data-table";
import { ErrorAlert } from "@/components/ui/form-field";
import type { AnnotatorRow } from "@/lib/campaign/report/dashboard";
import { campaignKeys, changeAnnotator } from "@/lib/query/campaigns";

type SortKey = "username" | "judgments" | "goldJudged" | "goldAccuracy" | "agreement" | "medianSeconds" | "shareUnder2s" | "status";

const columns: { key: SortKey; label: string; numeric: boolean }[] = [
  { key: "username", label: "Annotator", numeric: false },
  { key: "judgments", label: "Judgments", numeric: true },
  { key: "goldJudged", label: "Gold judged", numeric: true },
  { key: "goldAccuracy", label: "Gold accuracy", numeric: true },
  { key: "agreement", label: "Agrees with majority", numeric: true },
  { key: "medianSeconds", label: "Median s / judgment", numeric: true },
  { key: "shareUnder2s", label: "Under 2 s", numeric: true },
  { key: "status", label: "Standing", numeric: false },
];

/** Nulls ("no data yet") sort last whichever the direction. */
function compare(a: AnnotatorRow, b: AnnotatorRow, key: SortKey, dir: 1 | -1): number {
  const x = a[key];
  const y = b[key];
  if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
  if (typeof x === "number" && typeof y === "number") return (x - y) * dir;
  return String(x).localeCompare(String(y)) * dir;
}

const pct = (v: number | null) => (v === null ? "—" : `${Math.round(v * 100)} %`);
const standing = (a: AnnotatorRow) => (a.status === "active" ? "active" : a.pauseReason === "gold_rule" ? "paused (gold rule)" : "paused");

/** Annotators of a campaign with their quality figures, sortable by any column, with pause / resume. */
export function AnnotatorTable({ campaignId, annotators }: { campaignId: number; annotators: AnnotatorRow[] }) {
  const client = useQueryClient();
  const [sort, setSort] = useState<{ key: SortKey; dir: 1 | -1 }>({ key: "username", dir: 1 });
  const change = useMutation({
    mutationFn: ({ userId, action }: { userId: number; action: "pause" | "resume" }) => changeAnnotator(campaignId, userId, action),
    onSuccess: () => client.invalidateQueries({ queryKey: campaignKeys.dashboard(campaignId) }),
  });
  if (!annotators.length) return <p className="muted">No annotator has judged in this campaign yet.</p>;
  const rows = [...annotators].sort((a, b) => compare(a, b, sort.key, sort.dir) || a.username.localeCompare(b.username));
  return (
    <>
      <ErrorAlert>{change.error?.message}</ErrorAlert>
      <table className="data" data-testid="annotators">
        <thead>
          <tr>
            {columns.map((c) => (
              <th
                key={c.key}
                scope="col"
                className={c.numeric ? "num" : undefined}
                aria-sort={sort.key === c.key ? (sort.dir === 1 ? "ascending" : "descending") : "none"}
              >
                <button
                  type="button"
                  className="sort-button"
                  onClick={() => setSort((s) => ({ key: c.key, dir: s.key === c.key ? (s.dir === 1 ? -1 : 1) : c.numeric ? -1 : 1 }))}
                >
                  {c.label}
                  <span aria-hidden="true">{sort.key === c.key ? (sort.dir === 1 ? " ▲" : " ▼") : ""}</span>
                </button>
              </th>
            ))}
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((a) => (
            <tr key={a.userId} data-username={a.username}>
              <td>{a.username}</td>
              <Num>{a.judgments}</Num>
              <Num>{a.goldJudged}</Num>
              <Num>{a.goldJudged ? a.goldAccuracy.toFixed(2) : "—"}</Num>
              <Num title={a.compared ? `${a.compared} judgments on finished passages` : undefined}>{pct(a.agreement)}</Num>
              <Num>{a.medianSeconds === null ? "—" : a.medianSeconds.toFixed(1)}</Num>
              <Num>{pct(a.shareUnder2s)}</Num>
              <td>{standing(a)}</td>
              <td className="num">
                <button
                  type="button"
                  className="secondary"
                  disabled={change.isPending}
                  onClick={() => change.mutate({ userId: a.userId, action: a.status === "active" ? "pause" : "resume" })}
                >
                  {a.status === "active" ? "Pause" : "Resume"}
                  <span className="visually-hidden"> {a.username}</span>
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

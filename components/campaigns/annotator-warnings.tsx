"use client";

import { queryOptions, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { FlaggedAnnotator, WarningThresholds } from "@/lib/campaign/report/annotators.contract";
import { apiRequest } from "@/components/api/client";
import { DASHBOARD_REFRESH_MS } from "@/components/api/campaigns";
import { warningText } from "./warning-text";
import "./annotator-quality.css";

type Warnings = { thresholds: WarningThresholds; flagged: FlaggedAnnotator[]; total: number };

/** GET /api/campaigns/:id/annotator-warnings, refreshed with the dashboard. */
export const annotatorWarningsQuery = (campaignId: number) =>
  queryOptions({
    queryKey: ["campaigns", campaignId, "annotator-warnings"] as const,
    queryFn: () => apiRequest<Warnings>("GET", `/api/campaigns/${campaignId}/annotator-warnings`),
    refetchInterval: DASHBOARD_REFRESH_MS,
    staleTime: 0,
  });

/** The annotators out of line by the campaign's thresholds (speed, agreement), each linking to their page. */
export function AnnotatorWarnings({ campaignId }: { campaignId: number }) {
  const { data } = useQuery(annotatorWarningsQuery(campaignId));
  if (!data || data.total === 0) return null;
  return (
    <div className="warning-box" role="note" aria-labelledby="annotator-warnings-title" data-testid="dashboard-warnings">
      <strong id="annotator-warnings-title">{data.total === 1 ? "1 annotator is" : `${data.total} annotators are`} out of line</strong>{" "}
      <span className="muted">
        (after {data.thresholds.warnMinJudgments} judgments; thresholds in <Link href={`/campaigns/${campaignId}/settings`}>settings</Link>)
      </span>
      <ul>
        {data.flagged.map((a) => (
          <li key={a.userId}>
            <Link href={`/campaigns/${campaignId}/annotators/${a.userId}`}>{a.username}</Link>:{" "}
            {a.warnings.map((w) => warningText(w, data.thresholds)).join("; ")}
          </li>
        ))}
      </ul>
      {data.total > data.flagged.length && <p className="hint">and {data.total - data.flagged.length} more (sort the table below)</p>}
    </div>
  );
}

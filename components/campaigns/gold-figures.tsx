"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { ErrorAlert } from "@/components/ui/form-field";
import type { GoldSummary } from "@/lib/campaign/report/dashboard.contract";
import { suspectDecoysQuery } from "@/components/api/gold";

const share = (correct: number, judged: number) => (judged ? `${Math.round((100 * correct) / judged)} %` : "—");

/** Gold judgments on the dashboard, the two kinds apart: sufficient gold (with the span check) and negative gold (decoys included). */
export function GoldFigures({ gold }: { gold: GoldSummary }) {
  const kinds = [
    { key: "sufficient", label: "Sufficient gold", hint: "verdict and span check", ...gold.sufficient },
    { key: "negative", label: "Negative gold", hint: "expected not sufficient, decoys included", ...gold.negative },
  ] as const;
  return (
    <dl className="summary-counts gold-figures" aria-label="Gold judgments" data-testid="gold-figures">
      {kinds.map((k) => (
        <div key={k.key} data-testid={`gold-${k.key}`}>
          <dt>
            {k.label} <span className="muted">({k.hint})</span>
          </dt>
          <dd>
            <span data-testid={`gold-${k.key}-correct`}>{k.correct.toLocaleString("en")}</span> of{" "}
            <span data-testid={`gold-${k.key}-judged`}>{k.judged.toLocaleString("en")}</span> right · {share(k.correct, k.judged)}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** Decoys that T annotators in good standing judged sufficient, each linking to its question view. */
export function SuspectDecoys({ campaignId }: { campaignId: number }) {
  const list = useQuery(suspectDecoysQuery(campaignId));
  if (list.isPending) return <p className="muted">Loading…</p>;
  if (list.isError) return <ErrorAlert>{`The suspect decoys could not be read: ${list.error.message}`}</ErrorAlert>;
  const { decoys, total, decoyCount } = list.data;
  if (decoyCount === 0) return <p className="muted">This campaign has no decoys (Settings: decoys per 100 passages, at import).</p>;
  if (total === 0)
    return <p className="muted">None of the {decoyCount.toLocaleString("en")} decoys was judged sufficient by enough annotators.</p>;
  return (
    <>
      <p className="hint">
        {total.toLocaleString("en")} of {decoyCount.toLocaleString("en")} decoys were judged sufficient by enough annotators in good
        standing: the answer may be worded otherwise there, or they were not careful.
      </p>
      <ul className="disputed" data-testid="suspect-decoys">
        {decoys.map((d) => (
          <li key={d.passageId}>
            <Link href={`/campaigns/${campaignId}/questions/${d.queryId}`}>{d.input}</Link>{" "}
            <span className="muted">
              ({d.sufficient} of {d.judgments} sufficient · {d.title}, paragraph {d.paragraphId} · id {d.kiltId})
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}

import Link from "next/link";
import { FLAG_LABELS } from "@/lib/campaign/annotate/judgments.contract";
import type { NotedJudgments, ResponseCounts } from "@/lib/campaign/report/dashboard.contract";

/** The annotators' comments and flags on the dashboard: how many, and the questions of the latest, each linking to its question view. */
export function NotedFigure({ campaignId, noted }: { campaignId: number; noted: NotedJudgments }) {
  return (
    <section className="noted-figure" aria-labelledby="noted-title">
      <h3 id="noted-title">
        <span data-testid="noted-count">{noted.count.toLocaleString("en")}</span> {noted.count === 1 ? "comment/flag" : "comments/flags"}
      </h3>
      {noted.latest.length > 0 ? (
        <ul className="noted-latest">
          {noted.latest.map((n, i) => (
            <li key={i}>
              <Link href={`/campaigns/${campaignId}/questions/${n.queryId}`}>{n.input}</Link>
              {n.flags.length > 0 && <span className="muted"> · {n.flags.map((f) => FLAG_LABELS[f]).join(", ")}</span>}
              {n.comment && <q className="noted-comment"> {excerpt(n.comment)}</q>}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No annotator has commented on or flagged a judgment yet.</p>
      )}
    </section>
  );
}

/** The first 140 characters (code points, so no pair is split). */
function excerpt(text: string): string {
  const cps = Array.from(text);
  return cps.length > 140 ? `${cps.slice(0, 140).join("")}…` : text;
}

/** Propose or explain on the dashboard: questions annotators explained no passage answers, and passages they proposed. */
export function ResponsesFigure({ responses }: { responses: ResponseCounts }) {
  const { questionsWithExplanations: q, proposals: p } = responses;
  return (
    <p className="responses-figure" data-testid="responses">
      <strong data-testid="explained-count">{q.toLocaleString("en")}</strong> {q === 1 ? "question" : "questions"} with explanations ·{" "}
      <strong data-testid="proposal-count">{p.toLocaleString("en")}</strong> {p === 1 ? "passage" : "passages"} proposed by annotators
    </p>
  );
}

import Link from "next/link";
import { formatTime } from "@/lib/format";
import "./annotator-quality.css";
import { StatusBadge } from "@/components/ui/status-badge";
import type { AnnotatorJudgment } from "@/lib/campaign/report/annotators.contract";
import { HighlightedPassage, type Mark } from "./highlighted-passage";
import { memberMarks, SetMembersView, setTitle, verdictChip } from "./set-members-view";

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function agreement(j: AnnotatorJudgment): string {
  if (j.agrees === null) return "passage not finished";
  return j.agrees ? "matches the outcome" : "differs from the outcome";
}

/** One page of an annotator's judgments: each passage with their highlight drawn over it, and for gold the expected verdict and span beside theirs. */
export function AnnotatorJudgments({ campaignId, judgments }: { campaignId: number; judgments: AnnotatorJudgment[] }) {
  if (!judgments.length) return <p className="muted">No judgment here.</p>;
  return (
    <ol className="annotator-judgments" data-testid="annotator-judgments">
      {judgments.map((j) => {
        const marks: Mark[] = [
          ...(j.span ? [{ location: j.span, kind: "highlight" as const }] : []),
          ...(j.gold?.expectedSpan ? [{ location: j.gold.expectedSpan, kind: "gold" as const }] : []),
        ];
        return (
          <li key={j.id} className="card passage-card" data-testid="annotator-judgment">
            <h3 className="card-title">
              <Link href={`/campaigns/${campaignId}/questions/${j.query.id}`}>{j.query.input}</Link>{" "}
              <span className="muted">
                ·{" "}
                {j.passage.members
                  ? setTitle(j.passage.members)
                  : `${j.passage.title}, paragraphs ${j.passage.paragraphs[0]?.id}–${j.passage.paragraphs[j.passage.paragraphs.length - 1]?.id}`}
              </span>
            </h3>
            <p className="judgment-facts">
              <span className={verdictChip(j).className}>{verdictChip(j).text}</span>{" "}
              {j.gold && (
                <StatusBadge tone="gold">
                  gold: expects {j.gold.expectedVerdict} · {j.gold.correct ? "right" : "wrong"}
                </StatusBadge>
              )}{" "}
              <span className="muted">
                {seconds(j.durationMs)} · {agreement(j)} · <time dateTime={j.createdAt}>{formatTime(j.createdAt)}</time>
              </span>
            </p>
            {j.verdict === "sufficient" && !j.span && <p className="muted">Evidence: the page (no highlight).</p>}
            {j.passage.members ? (
              <SetMembersView members={j.passage.members} marksOf={(i) => memberMarks(j.memberSpans, j.passage.members!, i)} />
            ) : (
              <HighlightedPassage paragraphs={j.passage.paragraphs} marks={marks} />
            )}
          </li>
        );
      })}
    </ol>
  );
}

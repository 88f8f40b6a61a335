"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { useState } from "react";
import { HighlightedPassage } from "@/components/campaigns/highlighted-passage";
import { FLAG_LABELS } from "@/lib/campaign/annotate/judgments.contract";
import { myJudgmentsQuery, type MyJudgment, type MyJudgmentsFilter } from "@/components/api/my-judgments";
import { TaskBlock } from "@/components/task/task-block";
import { RevisionEditor } from "./revision-editor";
import { RevisionStyles } from "./revision-styles";
import { formatTime } from "@/lib/format";

function verdictText(j: MyJudgment): string {
  if (j.unreadable) return "Unreadable";
  if (j.verdict === "partial") return "Part of the evidence";
  if (j.verdict === "sufficient") return `${j.members ? "Together sufficient" : "Sufficient"}${j.label ? ` · ${j.label}` : ""}`;
  return "Not sufficient";
}

/** The judged passage (an evidence set: each member, "Passage 1 of 2 · title") with the annotator's highlight over it. */
function JudgedPassages({ j }: { j: MyJudgment }) {
  const passages = j.members ?? [j.passage];
  return passages.map((p, i) => {
    const span = j.members ? (j.spans?.[i] ?? null) : j.span;
    return (
      <div key={i} className="my-judgment-passage">
        <p className="hint">{j.members ? `Passage ${i + 1} of ${passages.length} · ${p.title}` : p.title}</p>
        <HighlightedPassage paragraphs={p.paragraphs} marks={span ? [{ location: span, kind: "highlight" }] : []} />
      </div>
    );
  });
}

const when = formatTime;

/** One judgment of the history: the question, the verdict, the highlight over the passage, the notes; Revise while it may change. */
function MyJudgmentCard({ campaignId, j, index }: { campaignId: number; j: MyJudgment; index: number }) {
  const [open, setOpen] = useState(false);
  const [saved, setSaved] = useState(false);
  const titleId = `my-judgment-${index}`;
  return (
    <li className="card my-judgment" aria-labelledby={titleId} data-testid="my-judgment">
      <header>
        <div id={titleId} className="card-title">
          <TaskBlock kind={j.query.kind} input={j.query.input} level={2} />
        </div>
        <span className="verdict-tag" data-testid="my-verdict">
          {verdictText(j)}
        </span>
        <span className="hint">
          {when(j.submittedAt)}
          {j.revisedAt ? ` · revised ${when(j.revisedAt)}` : ""}
        </span>
      </header>
      {open ? (
        <RevisionEditor
          campaignId={campaignId}
          target={{
            claim: j.claim,
            question: j.query.input,
            kind: j.query.kind,
            label: j.label,
            passage: j.passage,
            ...(j.members ? { members: j.members, spans: j.spans ?? null } : {}),
            verdict: j.verdict,
            unreadable: j.unreadable,
            span: j.span,
            comment: j.comment,
            flags: j.flags,
            revision: j.revision,
          }}
          taskLevel={3}
          onSaved={() => (setOpen(false), setSaved(true))}
          onCancel={() => setOpen(false)}
        />
      ) : (
        <>
          <JudgedPassages j={j} />
          {j.verdict === "sufficient" && !j.span && !j.spans && <p className="hint">Your evidence: the page (no highlight).</p>}
          {j.flags.length > 0 && <p>Flagged: {j.flags.map((f) => FLAG_LABELS[f]).join(", ")}</p>}
          {j.comment && <blockquote>{j.comment}</blockquote>}
          {saved && <p role="status">Revised.</p>}
          {j.locked ? (
            <p className="hint">{j.locked}</p>
          ) : (
            <button
              type="button"
              className="secondary"
              onClick={() => (setSaved(false), setOpen(true))}
              aria-label={`Revise your judgment on “${j.query.input}”`}
            >
              Revise
            </button>
          )}
        </>
      )}
    </li>
  );
}

/** The annotator's judgments in a campaign, newest first, a page at a time; those the filter lets through. */
export function MyJudgmentsList({
  campaignId,
  filter,
  filtered,
  initial,
}: {
  campaignId: number;
  filter: MyJudgmentsFilter;
  /** A filter is set: an empty list says that none matches. */
  filtered: boolean;
  initial: { judgments: MyJudgment[]; next: string | null };
}) {
  const query = useInfiniteQuery({ ...myJudgmentsQuery(campaignId, filter), initialData: { pages: [initial], pageParams: [null] } });
  const rows = query.data.pages.flatMap((p) => p.judgments);
  return (
    <>
      <RevisionStyles />
      {rows.length === 0 ? (
        <p className="muted" data-testid="no-judgments">
          {filtered ? "None of your judgments matches." : "You have not judged a passage in this campaign yet."}
        </p>
      ) : (
        <ul className="my-judgments" aria-label="Your judgments, newest first">
          {rows.map((j, i) => (
            <MyJudgmentCard key={j.claim} campaignId={campaignId} j={j} index={i} />
          ))}
        </ul>
      )}
      {query.isError && (
        <p className="error" role="alert">
          {query.error.message}
        </p>
      )}
      {query.hasNextPage && (
        <button type="button" className="secondary" onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
          {query.isFetchingNextPage ? "Loading…" : "Older judgments"}
        </button>
      )}
    </>
  );
}

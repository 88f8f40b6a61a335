"use client";

import { useEffect, useRef } from "react";
import { paragraphKind, sectionTitle } from "@/lib/kilt/words";
import { ApiError } from "@/components/api/client";
import type { KnowledgePage } from "@/components/api/knowledge";
import type { AskDraft } from "./ask-storage";
import { useMediaQuery } from "./instructions-panel";
import { PassageView } from "./passage-view";
import { COARSE_POINTER_QUERY } from "./pointer-texts";
import { pickableIds, pickParagraph } from "@/lib/campaign/annotate/paragraph-range";
import { MAX_PROPOSAL_PARAGRAPHS } from "@/lib/campaign/annotate/ask.contract";
import type { AskProposal } from "./use-ask-proposal";

interface ReaderProps {
  page: KnowledgePage;
  draft: AskDraft;
  update: (change: Partial<AskDraft>) => void;
  /** The paragraph a text result matched: scrolled to and focused on opening. */
  focusParagraph: number | null;
  onBack: () => void;
}

/** The opened page: its paragraphs under their section headers, each with a box to pick it (a contiguous range). */
export function PageReader({ page, draft, update, focusParagraph, onBack }: ReaderProps) {
  const ids = pickableIds(page);
  const range = draft.range;
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    const target = focusParagraph === null ? null : document.getElementById(`ask-p-${focusParagraph}`);
    if (target) {
      target.scrollIntoView({ block: "center" });
      target.focus({ preventScroll: true });
    } else heading.current?.focus();
  }, [page.wikipediaId, focusParagraph]);
  const picked = range ? ids.filter((id) => id >= range.start && id <= range.end).length : 0;
  const tooMany = picked > MAX_PROPOSAL_PARAGRAPHS;
  return (
    <article className="ask-reader" aria-labelledby="ask-page-title">
      <div className="ask-reader-head">
        <button type="button" className="link-button" onClick={onBack}>
          ← Back to the results
        </button>
        <h2 id="ask-page-title" ref={heading} tabIndex={-1}>
          {page.title}
        </h2>
        <p className="muted">Pick the paragraph or paragraphs that hold the answer (one after another): Tab to a box, Space picks it.</p>
      </div>
      <div className="ask-paragraphs" lang="en">
        {page.paragraphs.map((p) => {
          const kind = paragraphKind(p.text);
          if (p.id === 0) return null; // the title line, shown as the heading
          if (kind.kind === "section")
            return (
              <h3 key={p.id} className="passage-section">
                {kind.title}
              </h3>
            );
          const on = range !== null && p.id >= range.start && p.id <= range.end;
          return (
            <label key={p.id} className={`ask-paragraph${on ? " picked" : ""}`}>
              <input
                id={`ask-p-${p.id}`}
                type="checkbox"
                checked={on}
                onChange={(e) => update({ range: pickParagraph(range, ids, p.id, e.target.checked), span: null })}
              />
              <span dir="auto">{Array.from(p.text).slice(kind.contentStart).join("").trimEnd()}</span>
            </label>
          );
        })}
      </div>
      <div className="ask-actions ask-sticky">
        <span className={tooMany ? "field-error" : "muted"} role="status" id="ask-picked">
          {picked === 0 ? "No paragraph picked" : `${picked} paragraph${picked === 1 ? "" : "s"} picked`}
          {tooMany && ` — at most ${MAX_PROPOSAL_PARAGRAPHS}: untick some at either end`}
        </span>
        <button type="button" disabled={!range || tooMany} aria-describedby="ask-picked" onClick={() => update({ highlighting: true })}>
          Highlight in {picked === 1 ? "this paragraph" : "these paragraphs"}
        </button>
      </div>
    </article>
  );
}

interface HighlightProps {
  proposal: AskProposal;
  error: Error | null;
  busy: boolean;
  onBack: () => void;
}

/** The picked paragraphs as a passage, highlighted exactly as when judging; Enter proposes. */
export function HighlightStep({ proposal, error, busy, onBack }: HighlightProps) {
  const { view, words, wordRange, span, status, edit, propose } = proposal;
  const top = useRef<HTMLParagraphElement>(null);
  const isTouch = useMediaQuery(COARSE_POINTER_QUERY);
  useEffect(() => top.current?.focus(), []);
  if (!view) return null;
  const problem = error instanceof ApiError ? error.problems.map((p) => p.message).join(" ") || error.message : error?.message;
  const where = view.passage.paragraphs[0] ? sectionTitle(view.passage.paragraphs[0].section) : "";
  return (
    <div className="ask-highlight">
      <p className="muted" ref={top} tabIndex={-1}>
        Highlight the words that answer the question{where ? ` (${view.passage.title}, ${where})` : ""}:{" "}
        {isTouch ? (
          <>tap the first word of the answer, then its last; then tap Propose passage.</>
        ) : (
          <>
            drag across them, or press <kbd>Shift</kbd>+<kbd>→</kbd> (<kbd>S</kbd> a sentence, <kbd>Esc</kbd> clears), then <kbd>Enter</kbd>
            .
          </>
        )}
      </p>
      <PassageView task={view} words={words} span={wordRange ? (span ?? null) : null} range={wordRange} onSelect={edit.setHighlight} />
      <p className="ask-quote" aria-live="polite">
        {span ? (
          <>
            <span className="quote-label">Highlight</span> <q>{span.text}</q>
          </>
        ) : (
          <span className="muted">No highlight yet.</span>
        )}
      </p>
      <div className="ask-actions">
        <button type="button" className="secondary" onClick={onBack} disabled={busy}>
          Change paragraphs
        </button>
        <button
          type="button"
          onClick={propose}
          aria-busy={busy}
          aria-keyshortcuts="Enter"
          aria-describedby={problem ? "ask-propose-error" : undefined}
          data-enter-submits=""
        >
          {busy ? "Proposing…" : "Propose passage"} <kbd>Enter</kbd>
        </button>
      </div>
      {status && (
        <p className={`bar-status tone-${status.tone}`} role="status">
          {status.text}
        </p>
      )}
      {problem && (
        <p className="field-error" id="ask-propose-error" role="alert">
          Not proposed: {problem}
        </p>
      )}
    </div>
  );
}

"use client";

import { useEffect, useRef } from "react";
import { paragraphKind, sectionTitle } from "@/lib/kilt/words";
import { ApiError } from "@/components/api/client";
import type { KnowledgePage } from "@/components/api/knowledge";
import type { AskDraft } from "./ask-storage";
import { useMediaQuery } from "./instructions-panel";
import { PassageView } from "./passage-view";
import { TaskInline, taskLabelOf } from "@/components/task/task-block";
import { COARSE_POINTER_QUERY } from "./pointer-texts";
import { pickableIds, pickParagraph } from "@/lib/campaign/annotate/paragraph-range";
import { MAX_PROPOSAL_PARAGRAPHS, type Ask } from "@/lib/campaign/annotate/ask.contract";
import type { AskProposal } from "./use-ask-proposal";

interface ReaderProps {
  ask: Ask;
  page: KnowledgePage;
  draft: AskDraft;
  update: (change: Partial<AskDraft>) => void;
  /** The paragraph a text result matched: scrolled to and focused on opening. */
  focusParagraph: number | null;
  onBack: () => void;
}

/** The question, kept in view at the top while a page is read or highlighted (sticky; on a phone at most three lines). */
export function AskQuestionBar({ ask }: { ask: Ask }) {
  return (
    <p className="ask-question-bar">
      <span className="ask-question-bar-label">{taskLabelOf(ask.kind)}</span>{" "}
      <span className="ask-question-bar-text">
        <TaskInline kind={ask.kind} input={ask.input} />
      </span>
    </p>
  );
}

/** The page's paragraphs that lie in a passage of the question already given to the annotator (not to be proposed again). */
export function givenParagraphs(ask: Ask, page: KnowledgePage): Set<number> {
  const ids = new Set<number>();
  for (const g of ask.given) {
    if (g.wikipediaId !== page.wikipediaId) continue;
    for (let id = g.startParagraphId; id <= g.endParagraphId; id++) ids.add(id);
  }
  return ids;
}

/**
 * The opened page: its paragraphs under their section headers, each with a box to pick it (a
 * contiguous range). A paragraph of a passage the annotator already judged for this question is
 * marked so and cannot be picked: a range never runs across it.
 */
export function PageReader({ ask, page, draft, update, focusParagraph, onBack }: ReaderProps) {
  const ids = pickableIds(page);
  const given = givenParagraphs(ask, page);
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
      <AskQuestionBar ask={ask} />
      <div className="ask-reader-head">
        <button type="button" className="link-button" onClick={onBack}>
          ← Back to the results
        </button>
        <h2 id="ask-page-title" ref={heading} tabIndex={-1}>
          {page.title}
        </h2>
        <p className="muted">Pick the paragraph or paragraphs that hold the answer (one after another): Tab to a box, Space picks it.</p>
        {given.size > 0 && (
          <p className="muted" id="ask-given-note">
            Paragraphs marked &ldquo;already a passage of this question&rdquo; were given to you to judge: they cannot be proposed again.
          </p>
        )}
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
          const text = <span dir="auto">{Array.from(p.text).slice(kind.contentStart).join("").trimEnd()}</span>;
          if (given.has(p.id))
            return (
              <div key={p.id} className="ask-paragraph given" id={`ask-p-${p.id}`} tabIndex={-1} data-testid="ask-given">
                <span className="ask-given-label">Already a passage of this question</span>
                {text}
              </div>
            );
          return (
            <label key={p.id} className={`ask-paragraph${on ? " picked" : ""}`}>
              <input
                id={`ask-p-${p.id}`}
                type="checkbox"
                checked={on}
                onChange={(e) => update({ range: pickParagraph(range, ids, p.id, e.target.checked), span: null })}
              />
              {text}
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

/**
 * The first passage of a two-passage proposal, shown while the second is found and highlighted
 *: its page, paragraphs and highlight, and a way to drop it.
 */
export function FirstPassageNote({ draft, update }: { draft: AskDraft; update: (change: Partial<AskDraft>) => void }) {
  const first = draft.first;
  if (!first) return null;
  const paragraphs = first.range.start === first.range.end ? `¶ ${first.range.start}` : `¶ ${first.range.start}–${first.range.end}`;
  return (
    <div className="ask-first" role="group" aria-label="First passage of two">
      <p>
        <span className="quote-label">Passage 1 of 2</span> {first.title}, {paragraphs}: <q>{first.span.text}</q>
      </p>
      <p className="muted">Now find the second passage: the two are proposed together, as evidence that answers only when read together.</p>
      <button type="button" className="secondary" onClick={() => update({ first: null })}>
        Remove passage 1
      </button>
    </div>
  );
}

interface HighlightProps {
  ask: Ask;
  /** The Ask draft: its first passage, when this is the second of two. */
  draft: AskDraft;
  proposal: AskProposal;
  error: Error | null;
  busy: boolean;
  onBack: () => void;
}

/** The picked paragraphs as a passage, highlighted exactly as when judging; Enter proposes. */
export function HighlightStep({ ask, draft, proposal, error, busy, onBack }: HighlightProps) {
  const { view, words, wordRange, span, status, edit, propose, addSecond } = proposal;
  const second = Boolean(draft.first);
  const top = useRef<HTMLParagraphElement>(null);
  const isTouch = useMediaQuery(COARSE_POINTER_QUERY);
  useEffect(() => top.current?.focus(), []);
  if (!view) return null;
  const problem = error instanceof ApiError ? error.problems.map((p) => p.message).join(" ") || error.message : error?.message;
  const where = view.passage.paragraphs[0] ? sectionTitle(view.passage.paragraphs[0].section) : "";
  return (
    <div className="ask-highlight">
      <AskQuestionBar ask={ask} />
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
          {busy ? "Proposing…" : second ? "Propose both passages" : "Propose passage"} <kbd>Enter</kbd>
        </button>
        {!second && (
          <button type="button" className="secondary" onClick={addSecond} disabled={busy}>
            Add a passage from another page
          </button>
        )}
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

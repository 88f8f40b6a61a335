"use client";

import type { Verdict } from "./judging-data";

export type StatusTone = "info" | "warn" | "error" | "ok" | "busy";

export interface BarStatus {
  tone: StatusTone;
  text: string;
}

interface Props {
  verdict: Verdict | null;
  unreadable: boolean;
  /** The highlighted text, or null. */
  quote: string | null;
  status: BarStatus | null;
  /** A submission is on its way (choices are frozen until the server answers). */
  busy: boolean;
  onSufficient: () => void;
  onInsufficient: () => void;
  onUnreadable: () => void;
  onSubmit: () => void;
  onClearHighlight: () => void;
}

/** Long highlights are quoted by their ends. */
function shortQuote(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 180 ? `${flat.slice(0, 110)} … ${flat.slice(-60)}` : flat;
}

/**
 * The bar at the bottom: the highlight quoted, the three choices and Submit with their keys, and a
 * status line that screen readers hear (Saving…, Saved, prompts).
 */
export function VerdictBar(p: Props) {
  const chosen = (v: "sufficient" | "insufficient" | "unreadable") =>
    v === "unreadable" ? p.unreadable : v === "insufficient" ? p.verdict === "insufficient" && !p.unreadable : p.verdict === v;
  return (
    <section className="verdict-bar" aria-label="Verdict">
      <div className="verdict-inner">
        <div className="verdict-quote">
          {p.quote ? (
            <>
              <span className="quote-label">Highlight</span>
              <q className="quote-text">{shortQuote(p.quote)}</q>
              <button type="button" className="link-button" onClick={p.onClearHighlight} aria-keyshortcuts="Escape">
                Clear <kbd>Esc</kbd>
              </button>
            </>
          ) : (
            <span className="quote-empty">
              No highlight. Drag across the words that answer the question, or press <kbd>Shift</kbd>+<kbd>→</kbd>.
            </span>
          )}
        </div>
        <div className="verdict-choices" role="group" aria-label="Your verdict">
          <button
            type="button"
            className="choice choice-yes"
            aria-pressed={chosen("sufficient")}
            aria-keyshortcuts="1"
            data-enter-submits=""
            onClick={p.onSufficient}
          >
            <kbd>1</kbd> Sufficient
          </button>
          <button
            type="button"
            className="choice choice-no"
            aria-pressed={chosen("insufficient")}
            aria-keyshortcuts="2"
            data-enter-submits=""
            onClick={p.onInsufficient}
          >
            <kbd>2</kbd> Not sufficient
          </button>
          <button
            type="button"
            className="choice choice-unreadable"
            aria-pressed={chosen("unreadable")}
            aria-keyshortcuts="U"
            data-enter-submits=""
            onClick={p.onUnreadable}
          >
            <kbd>U</kbd> Unreadable
          </button>
          <button type="button" className="submit" aria-keyshortcuts="Enter" aria-busy={p.busy} onClick={p.onSubmit}>
            <kbd>Enter</kbd> Submit
          </button>
        </div>
      </div>
      <div className="verdict-foot">
        <p className={`bar-status tone-${p.status?.tone ?? "info"}`} role="status" aria-live="polite">
          {p.status?.text ?? ""}
        </p>
        <p className="bar-keys" aria-hidden="true">
          <kbd>Shift</kbd>+<kbd>←</kbd>/<kbd>→</kbd> end of highlight · <kbd>[</kbd> <kbd>]</kbd> or <kbd>Alt</kbd>+<kbd>←</kbd>/<kbd>→</kbd> start ·{" "}
          <kbd>Esc</kbd> clear · <kbd>?</kbd> instructions
        </p>
      </div>
    </section>
  );
}

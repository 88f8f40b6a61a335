"use client";

import type { Verdict } from "@/lib/query/annotation";

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
  const choices = [
    { key: "1", label: "Sufficient", className: "choice-yes", pressed: p.verdict === "sufficient", onClick: p.onSufficient },
    { key: "2", label: "Not sufficient", className: "choice-no", pressed: p.verdict === "insufficient" && !p.unreadable, onClick: p.onInsufficient },
    { key: "U", label: "Unreadable", className: "choice-unreadable", pressed: p.unreadable, onClick: p.onUnreadable },
  ];
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
          {choices.map((c) => (
            <button
              key={c.key}
              type="button"
              className={`choice ${c.className}`}
              aria-pressed={c.pressed}
              aria-keyshortcuts={c.key}
              data-enter-submits=""
              onClick={c.onClick}
            >
              <kbd>{c.key}</kbd>{` ${c.label}`}
            </button>
          ))}
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

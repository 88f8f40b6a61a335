"use client";

import { useEffect, useRef } from "react";
import { keyLabel } from "@/lib/campaign/annotate/shortcuts.contract";
import type { Verdict } from "@/components/api/annotate";
import { verdictActions, type JudgingShortcuts, type VerdictChoosers } from "./use-judging-keys";

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
  /** The user's keys: shown on the buttons (not while single keys are off). */
  shortcuts: JudgingShortcuts;
  /** The verdict choices and clearing the highlight (useVerdictEditing). */
  edit: VerdictChoosers & { setHighlight: (range: null) => void };
  onSubmit: () => void;
}

/** Long highlights are quoted by their ends. */
function shortQuote(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 180 ? `${flat.slice(0, 110)} … ${flat.slice(-60)}` : flat;
}

/** Keeps the judging screen's bottom padding (`--bar-space`) at the bar's real height, so the passage's end is never under it. */
function useBarSpace() {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    const bar = ref.current;
    const screen = bar?.closest<HTMLElement>(".judging");
    if (!bar || !screen) return;
    const observer = new ResizeObserver(() =>
      screen.style.setProperty("--bar-space", `${Math.ceil(bar.getBoundingClientRect().height) + 16}px`),
    );
    observer.observe(bar);
    return () => observer.disconnect();
  }, []);
  return ref;
}

/**
 * The bar at the bottom: the highlight quoted, the three choices and Submit with their keys, and a
 * status line that screen readers hear (Saving…, Saved, prompts).
 */
export function VerdictBar(p: Props) {
  const { enabled, keys } = p.shortcuts;
  const barRef = useBarSpace();
  const act = verdictActions(p.edit);
  const choices = [
    { action: "sufficient", label: "Sufficient", className: "choice-yes", pressed: p.verdict === "sufficient" },
    { action: "insufficient", label: "Not sufficient", className: "choice-no", pressed: p.verdict === "insufficient" && !p.unreadable },
    { action: "unreadable", label: "Unreadable", className: "choice-unreadable", pressed: p.unreadable },
  ] as const;
  return (
    <section className="verdict-bar" aria-label="Verdict" ref={barRef}>
      <div className="verdict-inner">
        <div className="verdict-quote">
          {p.quote ? (
            <>
              <span className="quote-label">Highlight</span>
              <q className="quote-text">{shortQuote(p.quote)}</q>
              <button type="button" className="link-button" onClick={() => p.edit.setHighlight(null)} aria-keyshortcuts="Escape">
                Clear <kbd>Esc</kbd>
              </button>
            </>
          ) : (
            <span className="quote-empty">
              No highlight.{" "}
              <span className="pointer-fine">
                Drag across the words that answer the question, or press <kbd>Shift</kbd>+<kbd>→</kbd>.
              </span>
              <span className="pointer-coarse">Tap the first word of the answer, then its last.</span>
            </span>
          )}
        </div>
        <div className="verdict-choices" role="group" aria-label="Your verdict">
          {choices.map((c) => (
            <button
              key={c.action}
              type="button"
              className={`choice ${c.className}`}
              aria-pressed={c.pressed}
              aria-keyshortcuts={enabled ? keys[c.action] : undefined}
              data-enter-submits=""
              onClick={act[c.action]}
            >
              {enabled && <kbd>{keyLabel(keys[c.action])}</kbd>}
              {enabled ? ` ${c.label}` : c.label}
            </button>
          ))}
          <button type="button" className="submit" aria-keyshortcuts="Enter" aria-busy={p.busy} onClick={p.onSubmit}>
            <kbd>Enter</kbd> Submit
          </button>
        </div>
      </div>
      <VerdictFoot status={p.status} shortcuts={p.shortcuts} />
    </section>
  );
}

/** The status line that screen readers hear, and the keys that move the highlight. */
function VerdictFoot({ status, shortcuts: { enabled, keys } }: { status: BarStatus | null; shortcuts: JudgingShortcuts }) {
  return (
    <div className="verdict-foot">
      <p className={`bar-status tone-${status?.tone ?? "info"}`} role="status" aria-live="polite">
        {status?.text ?? ""}
      </p>
      <p className="bar-keys" aria-hidden="true">
        <kbd>Shift</kbd>+<kbd>←</kbd>/<kbd>→</kbd> end of highlight · <kbd>Ctrl</kbd>+<kbd>Shift</kbd>+<kbd>←</kbd>/<kbd>→</kbd> by sentence
        ·{" "}
        {enabled && (
          <>
            <kbd>{keyLabel(keys.sentence)}</kbd> sentence · <kbd>{keyLabel(keys.startLeft)}</kbd> <kbd>{keyLabel(keys.startRight)}</kbd>{" "}
            or{" "}
          </>
        )}
        <kbd>Alt</kbd>+<kbd>←</kbd>/<kbd>→</kbd> start · <kbd>Esc</kbd> clear
        {enabled && (
          <>
            {" "}
            · <kbd>{keyLabel(keys.instructions)}</kbd> instructions
          </>
        )}
      </p>
    </div>
  );
}

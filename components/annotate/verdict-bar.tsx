"use client";

import { useEffect, useRef } from "react";
import { keyLabel } from "@/lib/campaign/annotate/shortcuts.contract";
import type { Task, Verdict } from "@/components/api/annotate";
import { HIGHLIGHT_WHAT, needsSpan, VERDICT_QUESTION } from "@/lib/campaign/annotate/task-verdicts.contract";
import type { FactLabel, TaskKind } from "@/lib/kilt/task-kind";
import { verdictActions, type JudgingShortcuts, type VerdictAction, type VerdictChoosers } from "./use-judging-keys";

export type StatusTone = "info" | "warn" | "error" | "ok" | "busy";

export interface BarStatus {
  tone: StatusTone;
  text: string;
}

interface Props {
  /** The task's kind: the question the bar asks, and its choices (fact checking: Supports and Refutes). */
  kind: TaskKind;
  /** The task on screen: an evidence set is "together sufficient"; `partialEvidence` offers "Part of the evidence". */
  task?: Task;
  /** An evidence set: the member in focus (its highlight is quoted) and how many members have a highlight. */
  set?: { active: number; highlighted: number };
  verdict: Verdict | null;
  /** Fact checking: the label chosen with a sufficient verdict. */
  label: FactLabel | null;
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
  const choices = choicesOf(p);
  const members = p.task?.members;
  return (
    <section className="verdict-bar" aria-label="Verdict" ref={barRef}>
      <div className="verdict-inner">
        <p className="verdict-question" id="verdict-question">
          {VERDICT_QUESTION[p.kind]}
        </p>
        <div className="verdict-quote">
          {members && p.set && (
            <span className="quote-label" data-testid="set-highlights">
              Passage {p.set.active + 1} of {members.length} · {p.set.highlighted} of {members.length} highlighted
              {p.quote ? ":" : "."}
            </span>
          )}
          {p.quote ? (
            <>
              {!members && <span className="quote-label">Highlight</span>}
              <q className="quote-text">{shortQuote(p.quote)}</q>
              <button type="button" className="link-button" onClick={() => p.edit.setHighlight(null)} aria-keyshortcuts="Escape">
                Clear <kbd>Esc</kbd>
              </button>
            </>
          ) : (
            <NoHighlight kind={p.kind} />
          )}
        </div>
        <div className="verdict-choices" role="group" aria-labelledby="verdict-question">
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

type Choice = { action: VerdictAction; label: string; className: string; pressed: boolean };

/** The bar's choices: fact checking's sufficient verdict is two, Supports and Refutes. */
function choicesOf(p: Pick<Props, "kind" | "verdict" | "label" | "unreadable" | "task">): Choice[] {
  const sufficient = p.verdict === "sufficient";
  const set = Boolean(p.task?.members);
  const partial: Choice[] =
    p.task?.partialEvidence && !set
      ? [{ action: "partial", label: "Part of the evidence", className: "choice-partial", pressed: p.verdict === "partial" }]
      : [];
  const yes: Choice[] =
    p.kind === "fact-checking"
      ? [
          { action: "supports", label: "Supports", className: "choice-yes", pressed: sufficient && p.label === "SUPPORTS" },
          { action: "refutes", label: "Refutes", className: "choice-yes choice-refutes", pressed: sufficient && p.label === "REFUTES" },
        ]
      : [{ action: "sufficient", label: set ? "Together sufficient" : "Sufficient", className: "choice-yes", pressed: sufficient }];
  return [
    ...yes,
    ...partial,
    {
      action: "insufficient",
      label: p.kind === "fact-checking" ? "Not enough" : "Not sufficient",
      className: "choice-no",
      pressed: p.verdict === "insufficient" && !p.unreadable,
    },
    { action: "unreadable", label: "Unreadable", className: "choice-unreadable", pressed: p.unreadable },
  ];
}

/** What the quote line says before a highlight: what to highlight for this task (entity linking: nothing). */
function NoHighlight({ kind }: { kind: TaskKind }) {
  if (!needsSpan(kind)) return <span className="quote-empty">No highlight needed: the page itself is the evidence.</span>;
  const what = kind === "slot-filling" ? "the object (the words that fill the relation)" : HIGHLIGHT_WHAT[kind];
  return (
    <span className="quote-empty">
      No highlight.{" "}
      <span className="pointer-fine">
        Drag across {what}, or press <kbd>Shift</kbd>+<kbd>→</kbd>.
      </span>
      <span className="pointer-coarse">Tap the first word of {kind === "slot-filling" ? "the object" : "the answer"}, then its last.</span>
    </span>
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

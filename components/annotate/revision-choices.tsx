"use client";

import { useEffect, useLayoutEffect, useRef } from "react";
import type { Span } from "@/lib/kilt/words";
import type { Verdict } from "@/components/api/annotate";
import { VERDICT_QUESTION } from "@/lib/campaign/annotate/task-verdicts.contract";
import type { FactLabel, TaskKind } from "@/lib/kilt/task-kind";

/** The revision editor's choice: the verdict, the highlight (an evidence set: one per member, `spans`) and fact checking's label. */
export interface Choice {
  verdict: Verdict | null;
  unreadable: boolean;
  span: Span | null;
  /** An evidence set: each member's highlight, in member order (null: none); null on a single passage. */
  spans: (Span | null)[] | null;
  label: FactLabel | null;
}

/** What the editor offers besides the verdicts every passage has: an evidence set's "Together sufficient", a single passage's "Part of the evidence". */
export interface ChoiceOptions {
  set: boolean;
  partial: boolean;
}

type ChoiceButton = { key: string; label: string; className: string; change: Partial<Choice> & { verdict: Verdict; unreadable: boolean } };

const NOT_SUFFICIENT: ChoiceButton[] = [
  {
    key: "2",
    label: "Not sufficient",
    className: "choice-no",
    change: { verdict: "insufficient", unreadable: false, span: null, label: null },
  },
  {
    key: "U",
    label: "Unreadable",
    className: "choice-unreadable",
    change: { verdict: "insufficient", unreadable: true, span: null, label: null },
  },
];

/** The verdicts of a task: their key (also in lower case, the judging screen's defaults), their button's label and what they set. */
function choicesOf(kind: TaskKind, o: ChoiceOptions): ChoiceButton[] {
  const notSufficient = o.set ? NOT_SUFFICIENT.map((c) => ({ ...c, change: { ...c.change, spans: [] } })) : NOT_SUFFICIENT;
  if (kind === "fact-checking")
    return [
      { key: "3", label: "Supports", className: "choice-yes", change: { verdict: "sufficient", unreadable: false, label: "SUPPORTS" } },
      { key: "4", label: "Refutes", className: "choice-yes", change: { verdict: "sufficient", unreadable: false, label: "REFUTES" } },
      ...notSufficient,
    ];
  const partial: ChoiceButton[] =
    o.partial && !o.set
      ? [
          {
            key: "P",
            label: "Part of the evidence",
            className: "choice-partial",
            change: { verdict: "partial", unreadable: false, label: null },
          },
        ]
      : [];
  return [
    {
      key: "1",
      label: o.set ? "Together sufficient" : "Sufficient",
      className: "choice-yes",
      change: { verdict: "sufficient", unreadable: false },
    },
    ...partial,
    ...notSufficient,
  ];
}

/** The key went to a field being typed in (the editor's comment): no shortcut takes it. */
export function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || target.closest("input, textarea, select") !== null);
}

/** 1, P, 2, U (fact checking: 3, 4, 2, U) choose; Enter saves (not on a button or link, which keep their own meaning). */
export function useEditorKeys(kind: TaskKind, o: ChoiceOptions, choose: (c: Partial<Choice>) => void, save: () => void) {
  const latest = useRef({ choose, save, o });
  useLayoutEffect(() => {
    latest.current = { choose, save, o };
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.isComposing || isTyping(e.target)) return;
      const { choose, save, o } = latest.current;
      const choice = choicesOf(kind, o).find((c) => c.key === e.key || c.key.toLowerCase() === e.key);
      if (choice) {
        e.preventDefault();
        choose(choice.change);
      } else if (e.key === "Enter" && !(e.target instanceof HTMLElement && e.target.closest("a, button, summary"))) {
        e.preventDefault();
        save();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [kind]);
}

interface ChoicesProps {
  kind: TaskKind;
  options: ChoiceOptions;
  choice: Choice;
  choose: (c: Partial<Choice>) => void;
}

/** The verdicts as toggle buttons, and clearing the highlight (a set: every member's). */
export function VerdictChoices({ kind, options, choice, choose }: ChoicesProps) {
  const labelOf = (c: ChoiceButton) => c.change.label ?? choice.label;
  const highlighted = choice.span !== null || (choice.spans ?? []).some(Boolean);
  return (
    <div className="revision-controls" role="group" aria-label={VERDICT_QUESTION[kind]}>
      {choicesOf(kind, options).map((c) => (
        <button
          key={c.key}
          type="button"
          className={`choice ${c.className}`}
          aria-pressed={choice.verdict === c.change.verdict && choice.unreadable === c.change.unreadable && labelOf(c) === choice.label}
          aria-keyshortcuts={c.key}
          onClick={() => choose(c.change)}
        >
          <kbd>{c.key}</kbd>
          {` ${c.label}`}
        </button>
      ))}
      {highlighted && (
        <button type="button" className="link-button" onClick={() => choose({ span: null, ...(options.set ? { spans: [] } : {}) })}>
          Clear highlight
        </button>
      )}
    </div>
  );
}

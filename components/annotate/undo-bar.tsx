"use client";

import { useEffect, useLayoutEffect, useRef, useState } from "react";
import type { JudgmentBody, Task } from "@/components/api/annotate";
import type { RevisionTarget } from "./revision-editor";

/** How long after a submit "Undo" stays offered. */
export const UNDO_WINDOW_MS = 60_000;

/** The judgment just acknowledged: what undo opens again. */
export interface SavedJudgment {
  task: Task;
  body: JudgmentBody;
  savedAt: number;
}

/** The saved judgment as the revision editor opens it (revision 0: it was just submitted). */
export function revisionTargetOf(s: SavedJudgment): RevisionTarget {
  const { task, body } = s;
  return {
    claim: task.claim.handle,
    question: task.query.input,
    kind: task.query.kind,
    label: body.label ?? null,
    passage: task.passage,
    ...(task.members ? { members: task.members, spans: body.spans ?? null } : {}),
    partialEvidence: Boolean(task.partialEvidence),
    verdict: body.verdict,
    unreadable: body.unreadable,
    span: body.span,
    comment: body.comment ?? null,
    flags: body.flags ?? [],
    revision: 0,
  };
}

/** Saved judgments already undone once (the bar unmounts while the editor is open, so this outlives it). */
const undone = new WeakSet<SavedJudgment>();

function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || target.closest("input, textarea, select") !== null);
}

/**
 * "Judgment stored · Undo" for a minute after each submit: the button, Backspace or Ctrl+Z (⌘Z) open the
 * judgment again (the caller shows the revision editor). Once used, or after the minute, it goes.
 */
export function UndoBar({
  saved,
  disabled,
  onUndo,
}: {
  saved: SavedJudgment | null;
  disabled: boolean;
  onUndo: (s: SavedJudgment) => void;
}) {
  const [now, setNow] = useState(() => Date.now());
  const live = saved !== null && !undone.has(saved) && now - saved.savedAt < UNDO_WINDOW_MS && !disabled;
  useEffect(() => {
    if (!saved) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    const stop = setTimeout(() => clearInterval(timer), UNDO_WINDOW_MS + 1000);
    return () => {
      clearInterval(timer);
      clearTimeout(stop);
    };
  }, [saved]);
  const undo = (): boolean => {
    if (!saved || !live) return false;
    undone.add(saved);
    onUndo(saved);
    return true;
  };
  const latest = useRef(undo);
  useLayoutEffect(() => {
    latest.current = undo;
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.isComposing || e.altKey || isTyping(e.target)) return;
      const isUndo =
        (e.key === "Backspace" && !e.ctrlKey && !e.metaKey && !e.shiftKey) ||
        ((e.ctrlKey || e.metaKey) && !e.shiftKey && e.key.toLowerCase() === "z");
      if (isUndo && latest.current()) e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  if (!live) return null;
  const left = Math.max(0, Math.ceil((UNDO_WINDOW_MS - (now - saved.savedAt)) / 1000));
  return (
    <div className="undo-bar" aria-live="polite" data-testid="undo-bar">
      <span>Judgment stored.</span>
      <button type="button" className="secondary" onClick={() => undo()} aria-keyshortcuts="Backspace Control+Z">
        Undo <kbd>⌫</kbd>
      </button>
      <span className="hint">{left} s</span>
    </div>
  );
}

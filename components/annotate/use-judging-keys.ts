"use client";

import { useEffect, useLayoutEffect, useRef } from "react";
import { actionOfKey, type ShortcutAction } from "@/lib/campaign/annotate/shortcuts.contract";
import type { SentenceMove } from "@/lib/kilt/sentences";
import type { FactLabel } from "@/lib/kilt/task-kind";
import type { HighlightMove } from "@/lib/kilt/words";
import type { InstructionsControl } from "./use-instructions-panel";

/** The user's single-key shortcuts: on or off, and the key of each action. */
export interface JudgingShortcuts {
  enabled: boolean;
  keys: Record<ShortcutAction, string>;
}

/** What a verdict button or key does: choose sufficient (fact checking: with a label), or insufficient (unreadable or not). */
export interface VerdictChoosers {
  chooseSufficient: () => void;
  chooseInsufficient: (unreadable: boolean) => void;
  /** Fact checking: sufficient, the passage supporting or refuting the claim (a no-op on other tasks). */
  chooseLabel: (label: FactLabel) => void;
  /** Part of the evidence (a no-op where the batch does not ask for it, and on an evidence set). */
  choosePartial?: () => void;
}

export type VerdictAction = "sufficient" | "insufficient" | "unreadable" | "supports" | "refutes" | "partial";

/** The verdicts' actions, the same for the verdict bar's buttons and the single keys. */
export function verdictActions(c: VerdictChoosers): Record<VerdictAction, () => void> {
  return {
    sufficient: c.chooseSufficient,
    insufficient: () => c.chooseInsufficient(false),
    unreadable: () => c.chooseInsufficient(true),
    supports: () => c.chooseLabel("SUPPORTS"),
    refutes: () => c.chooseLabel("REFUTES"),
    partial: () => c.choosePartial?.(),
  };
}

/** What the judging screen's keys act on, as of the latest render. */
export interface JudgingKeys extends InstructionsControl, VerdictChoosers {
  hasTask: boolean;
  hasHighlight: boolean;
  clearHighlight: () => void;
  submit: () => void;
  moveBy: (move: HighlightMove) => void;
  moveBySentence: (move: SentenceMove) => void;
  /** Shows or hides the paragraphs before and after the passage (the judging page only). */
  toggleContext?: () => void;
  /** An evidence set: the next (1) or previous (-1) member comes into focus (a no-op on a single passage). */
  chooseMember?: (delta: 1 | -1) => void;
  shortcuts: JudgingShortcuts;
}

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target.closest("input, textarea, select, [contenteditable='true']") !== null;
}

/** The keys that need a passage on screen: Enter, the verdicts and moving the highlight. */
function onTaskKey(e: KeyboardEvent, target: HTMLElement | null, k: JudgingKeys): void {
  if (e.key === "Enter") {
    // Enter on a link or another button keeps its own meaning; on a verdict button it submits.
    if (target?.closest("a, button, summary") && !target.closest("[data-enter-submits]")) return;
    e.preventDefault();
    k.submit();
    return;
  }
  const move = highlightKeyMove(e);
  if (move && "word" in move) {
    e.preventDefault(); // Alt+← is the browser's Back
    k.moveBy(move.word);
    return;
  }
  if (e.altKey) return;
  const action = singleKeyAction(e, k);
  const act = action && action !== "instructions" ? taskActions(k)[action] : undefined;
  if (!act) return;
  e.preventDefault();
  act();
}

function taskActions(k: JudgingKeys): Record<Exclude<ShortcutAction, "instructions">, () => void> {
  return {
    ...verdictActions(k),
    startLeft: () => k.moveBy("start-left"),
    startRight: () => k.moveBy("start-right"),
    sentence: () => k.moveBySentence("sentence"),
    context: () => k.toggleContext?.(),
    nextMember: () => k.chooseMember?.(1),
    previousMember: () => k.chooseMember?.(-1),
  };
}

/** The single-key action a key press stands for under the user's shortcuts (none while they are off). */
function singleKeyAction(e: KeyboardEvent, k: JudgingKeys): ShortcutAction | undefined {
  if (!k.shortcuts.enabled || e.key.length === 0 || Array.from(e.key).length !== 1) return undefined;
  return actionOfKey(k.shortcuts.keys, e.key);
}

/**
 * The highlight's move a modifier combination stands for, on the judging page and in the revision
 * editor alike (they stay when single keys are off): Alt+← / → move its start, Shift+→ / ← grow or
 * shrink it by a word, Ctrl+Shift+→ / ← by a sentence; null for any other key.
 */
export function highlightKeyMove(e: KeyboardEvent): { word: HighlightMove } | { sentence: SentenceMove } | null {
  const right = e.key === "ArrowRight";
  if ((!right && e.key !== "ArrowLeft") || e.metaKey) return null;
  if (e.ctrlKey) return e.shiftKey && !e.altKey ? { sentence: right ? "extend-sentence" : "shrink-sentence" } : null;
  if (e.altKey && !e.shiftKey) return { word: right ? "start-right" : "start-left" };
  if (e.shiftKey && !e.altKey) return { word: right ? "extend" : "shrink" };
  return null;
}

/** Ctrl+Shift+→ / ← grow or shrink the highlight by a sentence. */
function onSentenceKey(e: KeyboardEvent, k: JudgingKeys): boolean {
  const move = highlightKeyMove(e);
  if (!move || !("sentence" in move)) return false;
  e.preventDefault();
  k.moveBySentence(move.sentence);
  return true;
}

function onJudgingKey(e: KeyboardEvent, k: JudgingKeys): void {
  if (e.defaultPrevented || e.isComposing || isTyping(e.target)) return;
  if (k.hasTask && onSentenceKey(e, k)) return;
  if (e.ctrlKey || e.metaKey) return;
  const target = e.target instanceof HTMLElement ? e.target : null;
  if (singleKeyAction(e, k) === "instructions") {
    e.preventDefault();
    k.toggleInstructions();
    return;
  }
  if (e.key === "Escape") {
    if (target?.closest(`#${k.instructionsId}`) || (!k.hasHighlight && k.instructionsOpen)) {
      k.closeInstructions();
      return;
    }
    if (k.hasHighlight) {
      e.preventDefault();
      k.clearHighlight();
    }
    return;
  }
  if (k.hasTask) onTaskKey(e, target, k);
}

/** One keydown listener on the window for the judging screen; it reads the latest state through a ref. */
export function useJudgingKeys(keys: JudgingKeys): void {
  const latest = useRef(keys);
  useLayoutEffect(() => {
    latest.current = keys;
  });
  useEffect(() => {
    const listener = (e: KeyboardEvent) => onJudgingKey(e, latest.current);
    window.addEventListener("keydown", listener);
    return () => window.removeEventListener("keydown", listener);
  }, []);
}

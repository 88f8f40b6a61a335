"use client";

import { useEffect, useLayoutEffect, useRef } from "react";
import type { HighlightMove } from "@/lib/kilt/words";

/** What the judging screen's keys act on, as of the latest render. */
export interface JudgingKeys {
  hasTask: boolean;
  hasHighlight: boolean;
  instructionsOpen: boolean;
  /** The id of the instructions panel: Esc inside it closes it. */
  instructionsId: string;
  toggleInstructions: () => void;
  closeInstructions: () => void;
  clearHighlight: () => void;
  submit: () => void;
  moveBy: (move: HighlightMove) => void;
  chooseSufficient: () => void;
  chooseInsufficient: (unreadable: boolean) => void;
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
  if (e.altKey && !e.shiftKey && (e.key === "ArrowLeft" || e.key === "ArrowRight")) {
    e.preventDefault(); // Alt+← is the browser's Back
    k.moveBy(e.key === "ArrowLeft" ? "start-left" : "start-right");
    return;
  }
  if (e.shiftKey && !e.altKey && (e.key === "ArrowLeft" || e.key === "ArrowRight")) {
    e.preventDefault();
    k.moveBy(e.key === "ArrowRight" ? "extend" : "shrink");
    return;
  }
  if (e.altKey) return;
  const act = new Map<string, () => void>([
    ["1", k.chooseSufficient],
    ["2", () => k.chooseInsufficient(false)],
    ["u", () => k.chooseInsufficient(true)],
    ["U", () => k.chooseInsufficient(true)],
    ["[", () => k.moveBy("start-left")],
    ["]", () => k.moveBy("start-right")],
  ]).get(e.key);
  if (!act) return;
  e.preventDefault();
  act();
}

function onJudgingKey(e: KeyboardEvent, k: JudgingKeys): void {
  if (e.defaultPrevented || e.isComposing || e.ctrlKey || e.metaKey || isTyping(e.target)) return;
  const target = e.target instanceof HTMLElement ? e.target : null;
  if (e.key === "?") {
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

"use client";

import { useEffect, useLayoutEffect, useRef } from "react";
import { moveBySentence } from "@/lib/kilt/sentences";
import { moveHighlight, type WordRange } from "@/lib/kilt/words";

/** What the revision editor's highlight keys act on, as of the latest render. */
export interface RevisionHighlightKeys {
  /** The highlight of the passage in focus (an evidence set: the member in focus), as a range of its words. */
  range: WordRange | null;
  /** How many words that passage has, and its sentences as ranges of them. */
  words: number;
  sentences: readonly WordRange[];
  /** Sets the passage in focus's highlight (with the verdict a drag would give). */
  highlight: (range: WordRange) => void;
  /** An evidence set: the next (1) or previous (-1) member comes into focus; absent on a single passage. */
  chooseMember?: (delta: 1 | -1) => void;
}

/** N and B, as on the judging screen by default: the next and the previous member of an evidence set. */
const MEMBER_KEYS: Record<string, 1 | -1> = { n: 1, b: -1 };

function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || target.closest("input, textarea, select") !== null);
}

/** The highlight a key press moves to (undefined: not a highlight key), as the judging screen's keys move it. */
function movedBy(e: KeyboardEvent, k: RevisionHighlightKeys): WordRange | null | undefined {
  const arrow = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0;
  if (!arrow || e.metaKey) return undefined;
  if (e.ctrlKey && e.shiftKey && !e.altKey) return moveBySentence(k.range, arrow > 0 ? "extend-sentence" : "shrink-sentence", k.sentences);
  if (e.shiftKey && !e.ctrlKey && !e.altKey) return moveHighlight(k.range, arrow > 0 ? "extend" : "shrink", k.words);
  if (e.altKey && !e.ctrlKey && !e.shiftKey) return moveHighlight(k.range, arrow > 0 ? "start-right" : "start-left", k.words);
  return undefined;
}

/**
 * The judging screen's highlight keys in the revision editor: Shift+→ / ← grow or shrink the
 * highlight by a word (Shift+→ starts one at the first word), Alt+← / → move its start,
 * Ctrl+Shift+→ / ← grow or shrink it by a sentence; on an evidence set N and B move the focus to the
 * next or previous member, whose highlight the keys then move. One listener on the window.
 */
export function useRevisionHighlightKeys(keys: RevisionHighlightKeys): void {
  const latest = useRef(keys);
  useLayoutEffect(() => {
    latest.current = keys;
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.isComposing || isTyping(e.target)) return;
      const k = latest.current;
      const member = !e.ctrlKey && !e.altKey && !e.metaKey ? MEMBER_KEYS[e.key.toLowerCase()] : undefined;
      if (member && k.chooseMember) {
        e.preventDefault();
        k.chooseMember(member);
        return;
      }
      const next = movedBy(e, k);
      if (next === undefined) return;
      e.preventDefault();
      if (next) k.highlight(next);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}

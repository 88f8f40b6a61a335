"use client";

import { useEffect, useLayoutEffect, useRef } from "react";
import { moveBySentence } from "@/lib/kilt/sentences";
import { moveHighlight, type WordRange } from "@/lib/kilt/words";
import { isTyping } from "./revision-choices";
import { highlightKeyMove } from "./use-judging-keys";

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

/** The highlight a key press moves to (undefined: not a highlight key), as the judging page's keys move it. */
function movedBy(e: KeyboardEvent, k: RevisionHighlightKeys): WordRange | null | undefined {
  const move = highlightKeyMove(e);
  if (!move) return undefined;
  return "word" in move ? moveHighlight(k.range, move.word, k.words) : moveBySentence(k.range, move.sentence, k.sentences);
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

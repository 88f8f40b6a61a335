"use client";

import { useCallback, useMemo } from "react";
import { moveBySentence, passageSentences, type SentenceMove } from "@/lib/kilt/sentences";
import { moveHighlight, spanOfWords, type HighlightMove, type PassageWord, type WordRange } from "@/lib/kilt/words";
import type { Task } from "@/components/api/annotate";
import type { Draft } from "./judging-storage";
import { needsSpan } from "@/lib/campaign/annotate/task-verdicts.contract";
import type { FactLabel, TaskKind } from "@/lib/kilt/task-kind";
import { chooseLabelPrompt, highlightPrompt } from "./pointer-texts";
import type { BarStatus } from "./verdict-bar";

/** What a sufficient verdict still lacks, as the bar's prompt: fact checking's label, then the highlight (none for entity linking). */
function missingForSufficient(kind: TaskKind, hasSpan: boolean, label: FactLabel | null): BarStatus | null {
  if (kind === "fact-checking" && !label) return { tone: "warn", text: chooseLabelPrompt() };
  return !hasSpan && needsSpan(kind) ? { tone: "warn", text: `${highlightPrompt(kind)}.` } : null;
}

interface Editing {
  task: Task | null;
  words: readonly PassageWord[];
  /** The highlight as a range of words, or null. */
  range: WordRange | null;
  draft: Draft | null;
  /** A submission is on its way: nothing changes until the server answers. */
  frozen: boolean;
  update: (change: (d: Draft) => Draft) => void;
  status: BarStatus | null;
  setStatus: (status: BarStatus | null) => void;
}

/** What the annotator does to the draft with the mouse or the keys: highlight, move it, choose a verdict. */
export function useVerdictEditing({ task, words, range, draft, frozen, update, status, setStatus }: Editing) {
  const setHighlight = useCallback(
    (r: WordRange | null) => {
      if (!task || frozen) return;
      const s = r ? spanOfWords(task.passage.paragraphs, words, r) : null;
      update((d) => {
        const location = s
          ? {
              startParagraphId: s.startParagraphId,
              startCharacter: s.startCharacter,
              endParagraphId: s.endParagraphId,
              endCharacter: s.endCharacter,
            }
          : null;
        // A highlight is evidence: it does not go with "not sufficient".
        const verdict = location && d.verdict === "insufficient" ? null : d.verdict;
        return { ...d, span: location, verdict, unreadable: verdict === null ? false : d.unreadable };
      });
      if (s && draft?.verdict === "insufficient")
        setStatus({
          tone: "info",
          text:
            task.query.kind === "fact-checking"
              ? "Highlight made: press 3 or 4 if it decides the claim."
              : "Highlight made: press 1 if it shows the answer.",
        });
      else if (s && status?.tone === "warn") setStatus(null);
    },
    [task, frozen, words, update, draft?.verdict, status?.tone, setStatus],
  );

  const kind = task?.query.kind ?? "qa";
  /** Sufficient, with fact checking's label when given: then what is still missing (the highlight, the label), if anything. */
  const sufficient = useCallback(
    (label: FactLabel | null) => {
      if (!draft || frozen) return;
      update((d) => ({ ...d, verdict: "sufficient", unreadable: false, label }));
      setStatus(missingForSufficient(kind, draft.span !== null, label));
    },
    [draft, frozen, update, setStatus, kind],
  );
  const chooseSufficient = useCallback(() => sufficient(draft?.label ?? null), [sufficient, draft?.label]);
  const chooseLabel = useCallback((label: FactLabel) => kind === "fact-checking" && sufficient(label), [kind, sufficient]);

  const chooseInsufficient = useCallback(
    (unreadable: boolean) => {
      if (!draft || frozen) return;
      update((d) => ({ ...d, verdict: "insufficient", unreadable, span: null, label: null }));
      setStatus(null);
    },
    [draft, frozen, update, setStatus],
  );

  /** A keyboard move: the new highlight, then the edge that moved scrolled into view. */
  const moveTo = useCallback(
    (next: WordRange | null, edge: "start" | "end") => {
      if (!task || frozen || !next) return;
      setHighlight(next);
      requestAnimationFrame(() => {
        const marks = document.querySelectorAll(".passage-body mark");
        (edge === "end" ? marks[marks.length - 1] : marks[0])?.scrollIntoView({ block: "nearest" });
      });
    },
    [task, frozen, setHighlight],
  );

  const moveBy = useCallback(
    (move: HighlightMove) => moveTo(moveHighlight(range, move, words.length), move === "extend" || move === "shrink" ? "end" : "start"),
    [moveTo, range, words.length],
  );

  const sentences = useMemo(() => (task ? passageSentences(task.passage.paragraphs, words) : []), [task, words]);
  const moveBySentences = useCallback(
    (move: SentenceMove) => moveTo(moveBySentence(range, move, sentences), move === "sentence" ? "start" : "end"),
    [moveTo, range, sentences],
  );

  return { setHighlight, chooseSufficient, chooseInsufficient, chooseLabel, moveBy, moveBySentence: moveBySentences };
}

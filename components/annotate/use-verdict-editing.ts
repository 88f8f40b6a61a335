"use client";

import { useCallback, useMemo } from "react";
import { moveBySentence, passageSentences, type SentenceMove } from "@/lib/kilt/sentences";
import { moveHighlight, spanOfWords, type HighlightMove, type PassageWord, type WordRange } from "@/lib/kilt/words";
import type { TaskPassage } from "@/lib/campaign/annotate/judging.contract";
import type { Task } from "@/components/api/annotate";
import type { Draft } from "./judging-storage";
import { needsSpan } from "@/lib/campaign/annotate/task-verdicts.contract";
import type { FactLabel, TaskKind } from "@/lib/kilt/task-kind";
import { chooseLabelPrompt, highlightPrompt, partialPrompt } from "./pointer-texts";
import { highlightsOf, memberName, memberWithoutHighlight, setHighlightPrompt, withHighlight, withoutHighlights } from "./set-draft";
import type { BarStatus } from "./verdict-bar";

/** What a sufficient verdict still lacks, as the bar's prompt: fact checking's label, then the highlight (a set: each member's; none for entity linking). */
function missingForSufficient(kind: TaskKind, task: Task, draft: Draft, label: FactLabel | null): BarStatus | null {
  if (kind === "fact-checking" && !label) return { tone: "warn", text: chooseLabelPrompt() };
  if (!needsSpan(kind)) return null;
  if (task.members) {
    const missing = memberWithoutHighlight(highlightsOf(draft, task.members.length, true));
    return missing < 0 ? null : { tone: "warn", text: setHighlightPrompt(task.members, missing) };
  }
  return draft.span === null ? { tone: "warn", text: `${highlightPrompt(kind)}.` } : null;
}

/** An evidence set's members as the editing acts on them: their passages, their words and the member in focus. */
export interface MemberEditing {
  passages: readonly TaskPassage[];
  allWords: readonly (readonly PassageWord[])[];
  active: number;
}

interface Editing {
  task: Task | null;
  /** The words of the passage in focus (a set: of its member in focus). */
  words: readonly PassageWord[];
  /** The highlight as a range of words, or null. */
  range: WordRange | null;
  draft: Draft | null;
  /** A submission is on its way: nothing changes until the server answers. */
  frozen: boolean;
  update: (change: (d: Draft) => Draft) => void;
  status: BarStatus | null;
  setStatus: (status: BarStatus | null) => void;
  /** An evidence set (the judging screen): the members; absent, the task's one passage. */
  members?: MemberEditing;
}

/** Highlighting: a passage's (a set: any member's) highlight set or cleared; the member it is in comes into focus. */
function useSetHighlight({ task, words, draft, frozen, update, status, setStatus, members }: Editing) {
  return useCallback(
    (r: WordRange | null, member?: number) => {
      if (!task || frozen) return;
      const set = Boolean(task.members && members);
      const i = set ? (member ?? members!.active) : 0;
      const paragraphs = set ? members!.passages[i]?.paragraphs : task.passage.paragraphs;
      const w = set ? members!.allWords[i] : words;
      if (!paragraphs || !w) return;
      const s = r ? spanOfWords(paragraphs, w, r) : null;
      const location = s && {
        startParagraphId: s.startParagraphId,
        startCharacter: s.startCharacter,
        endParagraphId: s.endParagraphId,
        endCharacter: s.endCharacter,
      };
      update((d) => {
        const next = withHighlight(d, set, members?.passages.length ?? 1, i, location);
        // A highlight is evidence: it does not go with "not sufficient".
        const verdict = location && d.verdict === "insufficient" ? null : d.verdict;
        return { ...next, verdict, unreadable: verdict === null ? false : d.unreadable, ...(set ? { member: i } : {}) };
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
    [task, frozen, words, update, draft?.verdict, status?.tone, setStatus, members],
  );
}

/** The verdicts: sufficient (with fact checking's label), part of the evidence (where asked), not sufficient or unreadable. */
function useVerdictChoice({ task, draft, frozen, update, setStatus }: Editing) {
  const kind = task?.query.kind ?? "qa";
  /** Sufficient, with fact checking's label when given: then what is still missing (the highlight, the label), if anything. */
  const sufficient = useCallback(
    (label: FactLabel | null) => {
      if (!draft || frozen || !task) return;
      update((d) => ({ ...d, verdict: "sufficient", unreadable: false, label }));
      setStatus(missingForSufficient(kind, task, draft, label));
    },
    [draft, frozen, update, setStatus, kind, task],
  );
  const chooseSufficient = useCallback(() => sufficient(draft?.label ?? null), [sufficient, draft?.label]);
  const chooseLabel = useCallback((label: FactLabel) => kind === "fact-checking" && sufficient(label), [kind, sufficient]);

  /** Part of the evidence: only where the batch asks for it, on a single passage; it needs its highlight. */
  const choosePartial = useCallback(() => {
    if (!draft || frozen || !task?.partialEvidence || task.members) return;
    update((d) => ({ ...d, verdict: "partial", unreadable: false, label: null }));
    setStatus(draft.span === null ? { tone: "warn", text: partialPrompt(kind) } : null);
  }, [draft, frozen, task, update, setStatus, kind]);

  const chooseInsufficient = useCallback(
    (unreadable: boolean) => {
      if (!draft || frozen) return;
      update((d) => ({ ...withoutHighlights(d, Boolean(task?.members)), verdict: "insufficient", unreadable, label: null }));
      setStatus(null);
    },
    [draft, frozen, update, setStatus, task?.members],
  );
  return { chooseSufficient, chooseLabel, choosePartial, chooseInsufficient };
}

/** The keys' moves of the highlight in the passage in focus, and (an evidence set) of the focus between members. */
function useKeyMoves(e: Editing, setHighlight: (r: WordRange | null) => void) {
  const { task, frozen, range, words, members, update, setStatus } = e;
  const active = members?.active ?? 0;
  /** A keyboard move: the new highlight, then the edge that moved scrolled into view. */
  const moveTo = useCallback(
    (next: WordRange | null, edge: "start" | "end") => {
      if (!task || frozen || !next) return;
      setHighlight(next);
      requestAnimationFrame(() => {
        const marks = document.querySelectorAll(`.passage[data-member="${active}"] .passage-body mark`);
        (edge === "end" ? marks[marks.length - 1] : marks[0])?.scrollIntoView({ block: "nearest" });
      });
    },
    [task, frozen, setHighlight, active],
  );
  const moveBy = useCallback(
    (move: HighlightMove) => moveTo(moveHighlight(range, move, words.length), move === "extend" || move === "shrink" ? "end" : "start"),
    [moveTo, range, words.length],
  );
  const paragraphs = members?.passages[active]?.paragraphs ?? task?.passage.paragraphs;
  const sentences = useMemo(() => (paragraphs ? passageSentences(paragraphs, words) : []), [paragraphs, words]);
  const moveBySentences = useCallback(
    (move: SentenceMove) => moveTo(moveBySentence(range, move, sentences), move === "sentence" ? "start" : "end"),
    [moveTo, range, sentences],
  );
  /** An evidence set: the next (1) or previous (-1) member comes into focus, scrolled to and announced. */
  const chooseMember = useCallback(
    (delta: 1 | -1) => {
      const count = members?.passages.length ?? 1;
      const to = active + delta;
      if (!task?.members || !members || to < 0 || to >= count) return;
      update((d) => ({ ...d, member: to }));
      setStatus({ tone: "info", text: `${memberName(members.passages, to).replace(/^p/, "P")}.` });
      requestAnimationFrame(() => document.querySelector(`.passage[data-member="${to}"]`)?.scrollIntoView({ block: "start" }));
    },
    [task?.members, members, active, update, setStatus],
  );
  return { moveBy, moveBySentence: moveBySentences, chooseMember };
}

/** What the annotator does to the draft with the mouse or the keys: highlight, move it, choose a verdict (and, in a set, the member). */
export function useVerdictEditing(e: Editing) {
  const setHighlight = useSetHighlight(e);
  const choice = useVerdictChoice(e);
  const moves = useKeyMoves(e, setHighlight);
  return { setHighlight, ...choice, ...moves };
}

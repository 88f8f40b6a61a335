"use client";

import { useMemo } from "react";
import { passageWords, spanOfWords, wordRangeOfSpan } from "@/lib/kilt/words";
import type { Task } from "@/components/api/annotate";
import type { Draft } from "./judging-storage";
import { activeMember, highlightsOf, passagesOf } from "./set-draft";

/**
 * The task's passages (an evidence set's members, or its one passage), their words, and the draft's
 * highlight of each as a range of words and as the span they read (none without a task). `words`,
 * `range` and `span` are the member in focus's (`active`), which the keys act on.
 */
export function usePassageHighlight(task: Task | null, draft: Pick<Draft, "span" | "spans" | "member"> | null) {
  const passages = useMemo(() => (task ? passagesOf(task) : []), [task]);
  const allWords = useMemo(() => passages.map((p) => passageWords(p.paragraphs)), [passages]);
  const set = Boolean(task?.members);
  const span = draft?.span;
  const spans = draft?.spans;
  const highlights = useMemo(
    () => (span === undefined ? [] : highlightsOf({ span, spans }, passages.length, set)),
    [span, spans, passages.length, set],
  );
  const ranges = useMemo(
    () => highlights.map((h, i) => (h && allWords[i] ? wordRangeOfSpan(allWords[i], h) : null)),
    [highlights, allWords],
  );
  const allSpans = useMemo(
    () => ranges.map((r, i) => (r && passages[i] && allWords[i] ? spanOfWords(passages[i].paragraphs, allWords[i], r) : null)),
    [ranges, passages, allWords],
  );
  const active = activeMember(passages.length, draft);
  return {
    passages,
    set,
    active,
    highlights,
    allWords,
    ranges,
    spans: allSpans,
    words: allWords[active] ?? [],
    range: ranges[active] ?? null,
    span: allSpans[active] ?? null,
  };
}

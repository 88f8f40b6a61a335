"use client";

import { useMemo } from "react";
import { passageWords, spanOfWords, wordRangeOfSpan } from "@/lib/kilt/words";
import type { Task } from "@/components/api/annotate";

/** The passage's words, and the draft's highlight as a range of them and as the span they read (none without a task). */
export function usePassageHighlight(task: Task | null, highlight: Parameters<typeof wordRangeOfSpan>[1] | null | undefined) {
  const words = useMemo(() => (task ? passageWords(task.passage.paragraphs) : []), [task]);
  const range = useMemo(() => (highlight ? wordRangeOfSpan(words, highlight) : null), [highlight, words]);
  const span = useMemo(() => (task && range ? spanOfWords(task.passage.paragraphs, words, range) : null), [task, words, range]);
  return { words, range, span };
}

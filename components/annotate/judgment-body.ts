// The body a draft submits (POST /api/claims/:handle/judgment), or what the draft still lacks: a
// single passage's verdict with its `span` (sufficient, or part of the evidence), an evidence set's
// with `spans` (one highlight per member, "together sufficient").

import type { Span } from "@/lib/kilt/words";
import type { JudgmentBody, Task } from "@/components/api/annotate";
import { needsSpan, taskVerdictProblem } from "@/lib/campaign/annotate/task-verdicts.contract";
import { durationSince, type Draft } from "./judging-storage";
import { notesBody } from "./notes-fields";
import { chooseLabelPrompt, chooseVerdictPrompt, highlightPrompt, partialPrompt } from "./pointer-texts";
import { memberWithoutHighlight, setHighlightPrompt } from "./set-draft";

/** The body to send for a draft (`spans`: the highlight of each passage, as usePassageHighlight reads them), or the prompt to show while it is not ready. */
export function judgmentBodyOf(draft: Draft, task: Task, spans: readonly (Span | null)[]): JudgmentBody | { prompt: string } {
  const kind = task.query.kind;
  const set = task.members;
  if (draft.verdict === null) return { prompt: chooseVerdictPrompt(kind, { partial: Boolean(task.partialEvidence) && !set }) };
  const sufficient = draft.verdict === "sufficient";
  const label = sufficient && kind === "fact-checking" ? (draft.label ?? null) : null;
  let span: Span | null = null;
  let setSpans: Span[] | null = null;
  if (set) {
    const missing = memberWithoutHighlight(spans);
    if (sufficient && missing >= 0 && needsSpan(kind)) return { prompt: setHighlightPrompt(set, missing) };
    if (sufficient && missing < 0) setSpans = spans as Span[];
  } else {
    span = spans[0] ?? null;
    if (draft.verdict === "partial" && !span) return { prompt: partialPrompt(kind) };
    if (draft.verdict === "insufficient") span = null;
  }
  const problem = taskVerdictProblem(kind, { verdict: draft.verdict, span: span ?? setSpans?.[0] ?? null, label });
  if (problem) return { prompt: problem.field === "label" ? chooseLabelPrompt() : `${highlightPrompt(kind)} before submitting.` };
  return {
    verdict: draft.verdict,
    ...(label ? { label } : {}),
    span,
    ...(setSpans ? { spans: setSpans } : {}),
    unreadable: draft.verdict === "insufficient" && draft.unreadable,
    durationMs: durationSince(draft.startedAt),
    idempotencyKey: draft.idempotencyKey,
    ...notesBody(draft),
  };
}

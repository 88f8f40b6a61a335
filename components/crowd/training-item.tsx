"use client";

import { useMutation } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { JudgingLayout } from "@/components/annotate/judging-layout";
import { durationSince, type Draft } from "@/components/annotate/judging-storage";
import { JudgingMain } from "@/components/annotate/judging-view";
import { useInstructionsPanel } from "@/components/annotate/use-instructions-panel";
import { useJudgingKeys, type JudgingShortcuts } from "@/components/annotate/use-judging-keys";
import { usePassageHighlight } from "@/components/annotate/use-passage-highlight";
import { useVerdictEditing } from "@/components/annotate/use-verdict-editing";
import { VerdictBar, type BarStatus } from "@/components/annotate/verdict-bar";
import type { Span } from "@/lib/kilt/words";
import { taskVerdictProblem } from "@/lib/campaign/annotate/task-verdicts.contract";
import { instructionsFor } from "@/lib/campaign/annotate/default-instructions";
import { chooseLabelPrompt, chooseVerdictPrompt, highlightPrompt } from "@/components/annotate/pointer-texts";
import { answerTraining, type TrainingAnswerBody, type TrainingFeedback, type TrainingItemView } from "@/components/api/crowd-session";
import { taskOfItem, trainingDraft } from "./crowd-task";
import { TrainingFeedbackPanel } from "./training-feedback";

const INSTRUCTIONS_ID = "training-instructions";

/** The answer to send for the draft, or the prompt to show while it is not ready. */
function answerOf(item: TrainingItemView, draft: Draft, span: Span | null): TrainingAnswerBody | { prompt: string } {
  const kind = item.query.kind;
  if (draft.verdict === null) return { prompt: chooseVerdictPrompt(kind) };
  const label = draft.verdict === "sufficient" && kind === "fact-checking" ? (draft.label ?? null) : null;
  const problem = taskVerdictProblem(kind, { verdict: draft.verdict, span: draft.verdict === "sufficient" ? span : null, label });
  if (problem) return { prompt: problem.field === "label" ? chooseLabelPrompt() : `${highlightPrompt(kind)} before submitting.` };
  const durationMs = durationSince(draft.startedAt);
  if (draft.verdict === "sufficient")
    return { position: item.position, verdict: "sufficient", span, ...(label ? { label } : {}), durationMs };
  return { position: item.position, verdict: "insufficient", unreadable: draft.unreadable, durationMs };
}

/** The draft of one training item, the highlight as words and as a span, and the answer on its way. */
function useTrainingAnswer(campaignId: number, item: TrainingItemView, setStatus: (s: BarStatus | null) => void) {
  const task = useMemo(() => taskOfItem(item), [item]);
  const [draft, setDraft] = useState<Draft>(() => trainingDraft(campaignId, task));
  const { words, range, span } = usePassageHighlight(task, draft);
  const answering = useMutation<TrainingFeedback, Error, TrainingAnswerBody>({ mutationFn: answerTraining });
  const feedback = answering.data ?? null;
  const frozen = answering.isPending || feedback !== null;
  const update = useCallback((change: (d: Draft) => Draft) => setDraft((d) => (frozen ? d : change(d))), [frozen]);
  const submit = useCallback(() => {
    if (frozen) return;
    const made = answerOf(item, draft, span);
    if ("prompt" in made) return setStatus({ tone: "warn", text: made.prompt });
    setStatus({ tone: "busy", text: "Checking…" });
    answering.mutate(made, {
      onSuccess: () => setStatus(null),
      onError: (e) => setStatus({ tone: "error", text: `Not sent: ${e.message}` }),
    });
  }, [frozen, item, draft, span, answering, setStatus]);
  return { task, draft, words, range, span, frozen, update, submit, feedback, busy: answering.isPending };
}

/** A new item on screen: start at the top, focus on the question. */
function useFocusQuestion(position: number) {
  const questionRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    window.scrollTo({ top: 0 });
    questionRef.current?.focus({ preventScroll: true });
  }, [position]);
  return questionRef;
}

interface Props {
  campaignId: number;
  campaignName: string;
  instructions: string;
  item: TrainingItemView;
  shortcuts: JudgingShortcuts;
  /** Busy while the next item is on its way. */
  moving: boolean;
  onNext: (feedback: TrainingFeedback) => void;
}

/**
 * One training item, judged as on the judging screen (the same passage view, highlight, keys and
 * verdict bar); the answer brings feedback, and "Next" goes on.
 */
export function TrainingItemScreen({ campaignId, campaignName, instructions, item, shortcuts, moving, onNext }: Props) {
  const [status, setStatus] = useState<BarStatus | null>(null);
  const panel = useInstructionsPanel(INSTRUCTIONS_ID, campaignId, instructions, false);
  const a = useTrainingAnswer(campaignId, item, setStatus);
  const edit = useVerdictEditing({
    task: a.task,
    words: a.words,
    range: a.range,
    draft: a.draft,
    frozen: a.frozen,
    update: a.update,
    status,
    setStatus,
  });
  const questionRef = useFocusQuestion(item.position);
  const clearHighlight = () => edit.setHighlight(null);
  const keys = { ...panel, clearHighlight, submit: a.submit, shortcuts };
  useJudgingKeys({ ...keys, hasTask: a.feedback === null, hasHighlight: a.range !== null && a.feedback === null, ...edit });
  // After the answer the passage shows the expected highlight.
  const shown = a.feedback ? { ...a.draft, span: a.feedback.expected.span } : a.draft;
  const meter = (
    <span className="progress">
      Training {item.position + 1} of {item.total}
    </span>
  );

  return (
    <JudgingLayout
      campaignName={campaignName}
      instructions={instructionsFor(instructions, item.query.kind)}
      panel={panel}
      shortcuts={shortcuts}
      progress={{ answer: undefined, saves: [], question: null, meter }}
      links={false}
      showingExpected={a.feedback !== null}
      bar={
        a.feedback === null && (
          <VerdictBar
            kind={item.query.kind}
            verdict={a.draft.verdict}
            label={a.draft.label ?? null}
            unreadable={a.draft.unreadable}
            quote={a.span?.text ?? null}
            status={status}
            busy={a.busy}
            shortcuts={shortcuts}
            edit={edit}
            onSubmit={a.submit}
          />
        )
      }
    >
      <TrainingFeedbackPanel feedback={a.feedback} busy={moving} onNext={() => a.feedback && onNext(a.feedback)} />
      <JudgingMain
        task={a.task}
        draft={shown}
        words={a.words}
        range={a.feedback ? null : a.range}
        error={null}
        questionRef={questionRef}
        onSelect={edit.setHighlight}
        onRetry={() => {}}
      />
    </JudgingLayout>
  );
}

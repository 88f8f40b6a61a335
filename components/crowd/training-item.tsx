"use client";

import { useMutation } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { InstructionsPanel } from "@/components/annotate/instructions-panel";
import type { Draft } from "@/components/annotate/judging-storage";
import { JudgingStyles } from "@/components/annotate/judging-styles";
import { JudgingHeader, JudgingMain } from "@/components/annotate/judging-view";
import { useJudgingKeys, type JudgingShortcuts } from "@/components/annotate/use-judging-keys";
import { useVerdictEditing } from "@/components/annotate/use-verdict-editing";
import { VerdictBar, type BarStatus } from "@/components/annotate/verdict-bar";
import { passageWords, spanOfWords, wordRangeOfSpan } from "@/lib/kilt/words";
import { answerTraining, type TrainingAnswerBody, type TrainingFeedback, type TrainingItemView } from "@/components/api/crowd-session";
import { taskOfItem, trainingDraft } from "./crowd-task";
import { TrainingFeedbackPanel } from "./training-feedback";

const INSTRUCTIONS_ID = "training-instructions";

/** The answer to send for the draft, or the prompt to show while it is not ready. */
function answerOf(item: TrainingItemView, draft: Draft, span: ReturnType<typeof spanOfWords>): TrainingAnswerBody | { prompt: string } {
  if (draft.verdict === null) return { prompt: "Choose first: Sufficient, Not sufficient or Unreadable." };
  if (draft.verdict === "sufficient" && !span) return { prompt: "Highlight the words that answer the question before submitting." };
  const durationMs = Math.min(Math.max(0, Math.round(Date.now() - draft.startedAt)), 24 * 3600 * 1000 - 1);
  if (draft.verdict === "sufficient" && span) return { position: item.position, verdict: "sufficient", span, durationMs };
  return { position: item.position, verdict: "insufficient", unreadable: draft.unreadable, durationMs };
}

/** The draft of one training item, the highlight as words and as a span, and the answer on its way. */
function useTrainingAnswer(campaignId: number, item: TrainingItemView, setStatus: (s: BarStatus | null) => void) {
  const task = useMemo(() => taskOfItem(item), [item]);
  const [draft, setDraft] = useState<Draft>(() => trainingDraft(campaignId, task));
  const words = useMemo(() => passageWords(task.passage.paragraphs), [task]);
  const range = useMemo(() => (draft.span ? wordRangeOfSpan(words, draft.span) : null), [draft.span, words]);
  const span = useMemo(() => (range ? spanOfWords(task.passage.paragraphs, words, range) : null), [task, words, range]);
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
  const [instructionsOpen, setInstructionsOpen] = useState(false);
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
  const toggleInstructions = useCallback(() => setInstructionsOpen((o) => !o), []);
  const closeInstructions = useCallback(() => setInstructionsOpen(false), []);
  const clearHighlight = () => edit.setHighlight(null);
  const keys = {
    instructionsOpen,
    instructionsId: INSTRUCTIONS_ID,
    toggleInstructions,
    closeInstructions,
    clearHighlight,
    submit: a.submit,
    shortcuts,
  };
  useJudgingKeys({ ...keys, hasTask: a.feedback === null, hasHighlight: a.range !== null && a.feedback === null, ...edit });
  // After the answer the passage shows the expected highlight.
  const shown = a.feedback ? { ...a.draft, span: a.feedback.expected.span } : a.draft;

  return (
    <div className={`judging${instructionsOpen ? " with-instructions" : ""}${a.feedback ? " showing-expected" : ""}`}>
      <JudgingStyles />
      <JudgingHeader
        campaignName={campaignName}
        answer={undefined}
        saves={[]}
        question={null}
        instructionsOpen={instructionsOpen}
        instructionsId={INSTRUCTIONS_ID}
        instructionsKey={shortcuts.enabled ? shortcuts.keys.instructions : null}
        onToggleInstructions={toggleInstructions}
        meter={
          <span className="progress">
            Training {item.position + 1} of {item.total}
          </span>
        }
        links={false}
      />
      <div className="judging-body">
        <main className="judging-main">
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
        </main>
        {instructionsOpen && (
          <InstructionsPanel
            id={INSTRUCTIONS_ID}
            instructions={instructions}
            shortcuts={shortcuts}
            onClose={closeInstructions}
            accountHint={false}
          />
        )}
      </div>
      {a.feedback === null && (
        <VerdictBar
          verdict={a.draft.verdict}
          unreadable={a.draft.unreadable}
          quote={a.span?.text ?? null}
          status={status}
          busy={a.busy}
          shortcuts={shortcuts}
          onSufficient={edit.chooseSufficient}
          onInsufficient={() => edit.chooseInsufficient(false)}
          onUnreadable={() => edit.chooseInsufficient(true)}
          onSubmit={a.submit}
          onClearHighlight={clearHighlight}
        />
      )}
    </div>
  );
}

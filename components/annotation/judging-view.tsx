"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import type { RefObject } from "react";
import type { PassageWord, WordRange } from "@/lib/kilt/words";
import type { Task, TaskAnswer } from "@/lib/query/annotation";
import type { Draft } from "./judging-storage";
import { PassageView } from "./passage-view";
import type { Saved } from "./use-judgment-outbox";

/** The task's progress counts, with the judgments saved since it was fetched (the server counted without them). */
function countsOf(answer: TaskAnswer | undefined, saves: readonly Saved[]) {
  if (answer?.kind !== "task") return null;
  const { progress, query } = answer.task;
  const savedSince = saves.filter((s) => s.sentAt > answer.receivedAt);
  return {
    judgedToday: progress.judgedToday + savedSince.length,
    passageNo: Math.min(progress.passageOfQuestion + savedSince.filter((s) => s.queryId === query.id).length, progress.passagesInQuestion),
    passagesInQuestion: progress.passagesInQuestion,
  };
}

interface HeaderProps {
  campaignName: string;
  answer: TaskAnswer | undefined;
  saves: readonly Saved[];
  /** "Question N" as this browser numbers them, once known. */
  question: number | null;
  instructionsId: string;
  instructionsOpen: boolean;
  onToggleInstructions: () => void;
}

/** The top line: campaign, progress, the instructions toggle, the annotator's judgments and the way back to the queue. */
export function JudgingHeader({ campaignName, answer, saves, question, instructionsId, instructionsOpen, onToggleInstructions }: HeaderProps) {
  const counts = countsOf(answer, saves);
  const path = usePathname();
  return (
    <header className="judging-top">
      <span className="campaign-name">{campaignName}</span>
      {counts && (
        <span className="progress">
          {question !== null ? `Question ${question} · ` : ""}passage {counts.passageNo} of {counts.passagesInQuestion}
        </span>
      )}
      {counts && <span className="judged">{counts.judgedToday} judged today</span>}
      <span className="spacer" />
      <button type="button" className="link-button" aria-expanded={instructionsOpen} aria-controls={instructionsId} aria-keyshortcuts="?" onClick={onToggleInstructions}>
        Instructions <kbd>?</kbd>
      </button>
      <Link href={`${path}/history`} className="back-link">
        My judgments
      </Link>
      <Link href="/annotate" className="back-link">
        Your queue
      </Link>
    </header>
  );
}

interface MainProps {
  task: Task | null;
  draft: Draft | null;
  words: readonly PassageWord[];
  error: Error | null;
  questionRef: RefObject<HTMLHeadingElement | null>;
  onSelect: (range: WordRange | null) => void;
  onRetry: () => void;
}

/** The question and its passage; or why there is none, or that it is on its way. */
export function JudgingMain({ task, draft, words, error, questionRef, onSelect, onRetry }: MainProps) {
  if (task && draft) {
    return (
      <>
        <section className="question-block" aria-label="Question">
          <p className="question-label">Question</p>
          <h1 className="question" ref={questionRef} tabIndex={-1}>
            {task.query.input}
          </h1>
          {task.query.answers && task.query.answers.length > 0 && (
            <p className="answers">
              <span className="answers-label">Answers:</span>{" "}
              {task.query.answers.map((a, i) => (
                <span key={i} className="answer">
                  {a}
                </span>
              ))}
            </p>
          )}
        </section>
        <PassageView task={task} words={words} span={draft.span} onSelect={onSelect} />
      </>
    );
  }
  if (error) {
    return (
      <div className="card" role="alert">
        <h1>The next passage could not be loaded</h1>
        <p>{error.message}</p>
        <button type="button" onClick={onRetry}>
          Try again
        </button>
      </div>
    );
  }
  return (
    <p className="loading" aria-live="polite">
      Finding your next passage…
    </p>
  );
}

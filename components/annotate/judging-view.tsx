"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { keyLabel } from "@/lib/campaign/annotate/shortcuts.contract";
import type { ReactNode, RefObject } from "react";
import type { PassageWord, WordRange } from "@/lib/kilt/words";
import type { Task, TaskAnswer } from "@/components/api/annotate";
import type { Draft } from "./judging-storage";
import type { ContextControl } from "./passage-context";
import { TaskBlock } from "@/components/task/task-block";
import { PassageView } from "./passage-view";
import { SetView, type SetHighlights } from "./set-view";
import type { JudgingShortcuts } from "./use-judging-keys";
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
  /** The instructions key, or null while single-key shortcuts are off. */
  instructionsKey: string | null;
  onToggleInstructions: () => void;
  /** The annotator's and the campaign's progress (ProgressMeter), in place of the task's own count. */
  meter?: ReactNode;
  /** False: no links to the history and the queue (a crowd worker has neither). */
  links?: boolean;
}

/** The top line: campaign, progress, the instructions toggle, the annotator's judgments and the way back to the queue. */
export function JudgingHeader({
  campaignName,
  answer,
  saves,
  question,
  instructionsId,
  instructionsOpen,
  instructionsKey,
  onToggleInstructions,
  meter,
  links = true,
}: HeaderProps) {
  const counts = countsOf(answer, saves);
  const path = usePathname();
  return (
    <header className="judging-top">
      <span className="campaign-name" title={campaignName}>
        {campaignName}
      </span>
      {counts && (
        <span className="progress">
          {/* Narrow screens: "Q1 · 2/3" on one line; screen readers hear the whole phrase either way. */}
          <span className="progress-long">
            {question !== null ? `Question ${question} · ` : ""}passage {counts.passageNo} of {counts.passagesInQuestion}
          </span>
          <span className="narrow-only" aria-hidden="true">
            {question !== null ? `Q${question} · ` : ""}
            {counts.passageNo}/{counts.passagesInQuestion}
          </span>
        </span>
      )}
      {meter ?? (counts && <span className="judged wide-only">{counts.judgedToday} judged today</span>)}
      <span className="spacer" />
      <button
        type="button"
        className="link-button"
        aria-expanded={instructionsOpen}
        aria-controls={instructionsId}
        aria-keyshortcuts={instructionsKey ?? undefined}
        onClick={onToggleInstructions}
      >
        Instructions
        {instructionsKey && (
          <>
            {" "}
            <kbd className="wide-only">{keyLabel(instructionsKey)}</kbd>
          </>
        )}
      </button>
      {/* Narrow screens keep one header line: the queue links to the history there. */}
      {links && (
        <>
          <Link href={`${path}/history`} className="back-link wide-only">
            My judgments
          </Link>
          <Link href="/annotate" className="back-link">
            <span className="wide-only">Your queue</span>
            <span className="narrow-only">Queue</span>
          </Link>
        </>
      )}
    </header>
  );
}

interface MainProps {
  task: Task | null;
  draft: Draft | null;
  words: readonly PassageWord[];
  /** The highlight as words, or null. */
  range: WordRange | null;
  error: Error | null;
  questionRef: RefObject<HTMLHeadingElement | null>;
  onSelect: (range: WordRange | null, member?: number) => void;
  onRetry: () => void;
  /** The paragraphs before and after (the judging page only). */
  context?: ContextControl;
  /** An evidence set (a task with `members`): its members and highlights, and moving the focus between them. */
  set?: { highlights: SetHighlights; onMember: (delta: 1 | -1) => void; shortcuts?: JudgingShortcuts };
}

/** The question and its passage; or why there is none, or that it is on its way. */
export function JudgingMain({ task, draft, words, range, error, questionRef, onSelect, onRetry, context, set }: MainProps) {
  if (task && draft) {
    return (
      <>
        <TaskBlock kind={task.query.kind} input={task.query.input} answers={task.query.answers} headingRef={questionRef} />
        {task.members && set ? (
          <SetView task={task} set={set.highlights} onSelect={onSelect} onMember={set.onMember} shortcuts={set.shortcuts} />
        ) : (
          <PassageView task={task} words={words} span={draft.span} range={range} onSelect={onSelect} context={context} />
        )}
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

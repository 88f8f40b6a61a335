"use client";

import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import type { AnnotatorCampaignView } from "@/lib/campaign/annotate/judging.contract";
import type { TaskKind } from "@/lib/kilt/task-kind";
import { instructionsFor } from "@/lib/campaign/annotate/default-instructions";
import type { Task, TaskAnswer } from "@/components/api/annotate";
import { ApiError } from "@/components/api/client";
import { AskScreen } from "./ask-screen";
import { JudgingLayout } from "./judging-layout";
import { questionNumber, type Draft } from "./judging-storage";
import { JudgingMain } from "./judging-view";
import { ProgressMeter } from "./progress-meter";
import { NotOnCampaignScreen, NothingLeftScreen, PausedScreen } from "./status-screens";
import { askCheckpoint, useAsk } from "./use-ask";
import { useAskProposal } from "./use-ask-proposal";
import { useInstructionsPanel } from "./use-instructions-panel";
import { useJudgingKeys, type JudgingShortcuts } from "./use-judging-keys";
import { useJudgmentOutbox } from "./use-judgment-outbox";
import { useTaskQueue } from "./use-task-queue";
import { useVerdictEditing } from "./use-verdict-editing";
import { VerdictBar, type BarStatus } from "./verdict-bar";
import { DraftNotes, useUndo } from "./undo-screen";

const INSTRUCTIONS_ID = "judging-instructions";

/** A new passage on screen: number its question, start at the top, move focus to the question. */
function useQuestionOnScreen(campaignId: number, task: Task | null) {
  const [question, setQuestion] = useState<number | null>(null);
  const questionRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (!task) return;
    setQuestion(questionNumber(campaignId, task.query.id));
    window.scrollTo({ top: 0 });
    questionRef.current?.focus({ preventScroll: true });
  }, [campaignId, task]);
  return { question, questionRef };
}

/** The judging screen inside a crowd session (components/crowd/): no queue, history or account to go to. */
export interface CrowdMode {
  /** The session is over (nothing left, quota, time or limits: 409 `sessionEnded`, or paused): the crowd page ends it. */
  onSessionOver: () => void;
  /** The header's progress in place of the annotator's (`saved`: judgments acknowledged on this visit). */
  meter: (saved: number) => ReactNode;
}

/** In crowd mode, what ends the session: nothing left (204), 409 with `details.sessionEnded`, or a pause. */
function useSessionOver(crowd: CrowdMode | undefined, paused: boolean, error: Error | null, answer: TaskAnswer | undefined): boolean {
  const ended =
    error instanceof ApiError && error.status === 409 && (error.details as { sessionEnded?: unknown } | undefined)?.sessionEnded === true;
  const over = crowd !== undefined && (paused || ended || (error instanceof ApiError && error.paused) || answer?.kind === "done");
  useEffect(() => {
    if (over) crowd?.onSessionOver();
  }, [over, crowd]);
  return over;
}

/**
 * Before the next question: a proposal or an explanation owed for the last one (`userId` null: never,
 * as in crowd mode). `shown`: the task to show, null while asking or while the ask is on its way.
 * Asked again when the Undo editor closes: a revised judgment may change what is owed.
 */
function useAskBeforeNext(campaignId: number, userId: number | null, answer: TaskAnswer | undefined, task: Task | null, undoOpen: boolean) {
  const flow = useAsk(campaignId, userId, askCheckpoint(answer));
  const proposal = useAskProposal(flow);
  // In the render that closes the editor (state adjusted while rendering), not in an effect after it:
  // the passage then waits for the ask from its first frame, instead of showing for one frame and
  // going while the ask is on its way (a key pressed in that frame was lost).
  const [undoWasOpen, setUndoWasOpen] = useState(undoOpen);
  if (undoWasOpen !== undoOpen) {
    setUndoWasOpen(undoOpen);
    if (!undoOpen) flow.recheck();
  }
  const asking = flow.ask !== null;
  return { flow, proposal, asking, shown: asking || flow.holding ? null : task };
}

interface TaskBarProps {
  kind: TaskKind;
  task: Task;
  draft: Draft;
  outbox: ReturnType<typeof useJudgmentOutbox>;
  status: BarStatus | null;
  shortcuts: JudgingShortcuts;
  edit: ReturnType<typeof useVerdictEditing>;
}

/** The verdict bar of the passage on screen (a frozen draft shows its pending body's); retries of its submission show in it. */
function TaskVerdictBar({ kind, task, draft, outbox, status, shortcuts, edit }: TaskBarProps) {
  const { failures } = outbox;
  return (
    <VerdictBar
      kind={kind}
      task={task}
      verdict={draft.pending?.verdict ?? draft.verdict}
      label={draft.pending ? (draft.pending.label ?? null) : (draft.label ?? null)}
      unreadable={draft.pending?.unreadable ?? draft.unreadable}
      quote={
        draft.pending ? ((draft.pending.spans?.[outbox.highlight.active] ?? draft.pending.span)?.text ?? null) : (outbox.span?.text ?? null)
      }
      set={task.members ? { active: outbox.highlight.active, highlighted: outbox.highlight.spans.filter(Boolean).length } : undefined}
      status={failures > 0 ? { tone: "error", text: `Not saved — retrying (attempt ${failures + 1})…` } : status}
      busy={outbox.frozen}
      shortcuts={shortcuts}
      edit={edit}
      onSubmit={outbox.submit}
    />
  );
}

const answerTask = (answer: TaskAnswer | undefined): Task | null => (answer?.kind === "task" ? answer.task : null);

function FinishingScreen() {
  return (
    <main className="judging-calm">
      <p className="loading" role="status">
        Finishing your session…
      </p>
    </main>
  );
}

interface ScreenProps {
  campaign: AnnotatorCampaignView;
  shortcuts: JudgingShortcuts;
  crowd?: CrowdMode;
  userId?: number;
}

/** The judging screen's state, wired together: the task queue, the outbox, undo, editing, the panel, asking and the keys. */
function useJudgingScreen({ campaign, shortcuts, crowd, userId }: ScreenProps) {
  const campaignId = campaign.id;
  const [status, setStatus] = useState<BarStatus | null>(null);
  const onLapsed = useCallback(() => {
    setStatus({
      tone: "warn",
      text: "Your hold on this passage has lapsed. Submit now: it still counts unless someone else has taken it.",
    });
  }, []);
  const { current, answer, task, advance, nextAsk, placeNext } = useTaskQueue(campaignId, onLapsed);
  const moves = useMemo(() => ({ advance, nextAsk, placeNext }), [advance, nextAsk, placeNext]);
  const outbox = useJudgmentOutbox(campaignId, task, moves, setStatus);
  const { draft, words, range, frozen, update, submit } = outbox;
  const undo = useUndo(campaignId, setStatus, outbox.lastSaved); // the judgment just saved, open again
  const { highlight } = outbox;
  const members = highlight.set ? { passages: highlight.passages, allWords: highlight.allWords, active: highlight.active } : undefined;
  const edit = useVerdictEditing({ task, words, range, draft, frozen, update, status, setStatus, members });
  const { question, questionRef } = useQuestionOnScreen(campaignId, task);
  const panel = useInstructionsPanel(INSTRUCTIONS_ID, campaignId, campaign.instructions, !crowd);
  const ask = useAskBeforeNext(campaignId, crowd || userId === undefined ? null : userId, answer, task, undo.screen !== null);

  const [contextOpen, setContextOpen] = useState(false);
  const toggleContext = useCallback(() => setContextOpen((o) => !o), []);
  const context = { open: contextOpen, toggle: toggleContext, shortcut: shortcuts.enabled ? shortcuts.keys.context : null };
  const clearHighlight = () => edit.setHighlight(null);
  const { moveBy, moveBySentence, chooseSufficient, chooseInsufficient, chooseLabel, choosePartial, chooseMember } = edit;
  const hasTask = ask.shown !== null && !undo.screen;
  const judgingKeys = {
    hasTask,
    hasHighlight: hasTask && range !== null,
    clearHighlight,
    submit,
    moveBy,
    moveBySentence,
    chooseSufficient,
    chooseInsufficient,
    chooseLabel,
    choosePartial,
    chooseMember,
    toggleContext,
  };
  useJudgingKeys({ ...panel, shortcuts, ...(ask.asking && !undo.screen ? ask.proposal.keys : judgingKeys) });
  const sessionOver = useSessionOver(crowd, outbox.paused, current.error, answer);
  return { status, current, answer, outbox, undo, edit, question, questionRef, panel, ask, sessionOver, context };
}

/**
 * The annotator's judging screen: one passage at a time, the next one already fetched, every
 * judgment kept as a draft until the server acknowledges it.
 */
export function JudgingScreen(props: ScreenProps) {
  const { campaign, shortcuts, crowd } = props;
  const { status, current, answer, outbox, undo, edit, question, questionRef, panel, ask, sessionOver, context } = useJudgingScreen(props);
  const { draft, saves } = outbox;
  const { flow, proposal, asking, shown } = ask;
  const error = current.error;
  if (sessionOver) return <FinishingScreen />;
  if (outbox.paused || (error instanceof ApiError && error.paused)) return <PausedScreen />;
  if (error instanceof ApiError && error.status === 404) return <NotOnCampaignScreen message={error.message} />;
  const meter = crowd ? crowd.meter(saves.length) : <ProgressMeter campaignId={campaign.id} saved={saves.length} />;
  // Empty instructions: the default ones of the task's kind (the panel still opens by itself only for the campaign's own).
  const instructions = instructionsFor(campaign.instructions, (shown ?? answerTask(answer))?.query.kind ?? "qa");
  const frame = { campaignName: campaign.name, instructions, panel, shortcuts, links: !crowd };
  // Revising the judgment just saved: in the same frame, the campaign's header above it.
  if (undo.screen)
    return (
      <JudgingLayout {...frame} progress={{ answer: undefined, saves, question: null, meter }} bar={null}>
        {undo.screen}
      </JudgingLayout>
    );
  if (answer?.kind === "done" && !asking && !flow.holding) return undo.withBar(<NothingLeftScreen judgedThisVisit={saves.length} />);

  return (
    <JudgingLayout
      {...frame}
      progress={{ answer: shown ? answer : undefined, saves, question, meter }}
      bar={
        shown &&
        draft && (
          <TaskVerdictBar
            kind={shown.query.kind}
            task={shown}
            draft={draft}
            outbox={outbox}
            status={status}
            shortcuts={shortcuts}
            edit={edit}
          />
        )
      }
    >
      {asking ? (
        <AskScreen flow={flow} proposal={proposal} questionRef={questionRef} />
      ) : (
        <JudgingMain
          task={shown}
          draft={draft}
          words={outbox.words}
          range={outbox.range}
          error={error}
          questionRef={questionRef}
          onSelect={edit.setHighlight}
          onRetry={() => void current.refetch()}
          context={context}
          set={{ highlights: outbox.highlight, onMember: edit.chooseMember, shortcuts }}
        />
      )}
      {shown && draft && (
        <DraftNotes
          draft={draft}
          frozen={outbox.frozen}
          update={outbox.update}
          saved={crowd ? null : outbox.lastSaved}
          onUndo={undo.start}
        />
      )}
    </JudgingLayout>
  );
}

"use client";

import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import type { AnnotatorCampaignView } from "@/lib/campaign/annotate/judging.contract";
import type { Task, TaskAnswer } from "@/components/api/annotate";
import { ApiError } from "@/components/api/client";
import { AskScreen } from "./ask-screen";
import { InstructionsPanel } from "./instructions-panel";
import { isFirstVisit, questionNumber, type Draft } from "./judging-storage";
import { JudgingStyles } from "./judging-styles";
import { JudgingHeader, JudgingMain } from "./judging-view";
import { ProgressMeter } from "./progress-meter";
import { NotOnCampaignScreen, NothingLeftScreen, PausedScreen } from "./status-screens";
import { askCheckpoint, useAsk } from "./use-ask";
import { useAskProposal } from "./use-ask-proposal";
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

/** The instructions panel: shown once on the first visit to a campaign with instructions (unless `autoOpen` is false). */
function useInstructionsPanel(campaignId: number, instructions: string, autoOpen: boolean) {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (autoOpen && instructions.trim() && isFirstVisit(campaignId)) setOpen(true);
  }, [campaignId, instructions, autoOpen]);
  const toggle = useCallback(() => setOpen((o) => !o), []);
  const close = useCallback(() => setOpen(false), []);
  return { instructionsOpen: open, toggleInstructions: toggle, closeInstructions: close };
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
  const { recheck } = flow;
  const was = useRef(undoOpen);
  useEffect(() => {
    if (was.current && !undoOpen) recheck();
    was.current = undoOpen;
  }, [undoOpen, recheck]);
  const asking = flow.ask !== null;
  return { flow, proposal, asking, shown: asking || flow.holding ? null : task };
}

interface TaskBarProps {
  draft: Draft;
  /** The highlight's text as it is now (a frozen draft shows its pending body's). */
  quote: string | null;
  failures: number;
  status: BarStatus | null;
  busy: boolean;
  shortcuts: JudgingShortcuts;
  edit: ReturnType<typeof useVerdictEditing>;
  onSubmit: () => void;
}

/** The verdict bar of the passage on screen; retries of its submission show in it. */
function TaskVerdictBar({ draft, quote, failures, status, busy, shortcuts, edit, onSubmit }: TaskBarProps) {
  return (
    <VerdictBar
      verdict={draft.pending?.verdict ?? draft.verdict}
      unreadable={draft.pending?.unreadable ?? draft.unreadable}
      quote={draft.pending ? (draft.pending.span?.text ?? null) : quote}
      status={failures > 0 ? { tone: "error", text: `Not saved — retrying (attempt ${failures + 1})…` } : status}
      busy={busy}
      shortcuts={shortcuts}
      onSufficient={edit.chooseSufficient}
      onInsufficient={() => edit.chooseInsufficient(false)}
      onUnreadable={() => edit.chooseInsufficient(true)}
      onSubmit={onSubmit}
      onClearHighlight={() => edit.setHighlight(null)}
    />
  );
}

function FinishingScreen() {
  return (
    <main className="judging-calm">
      <p className="loading" role="status">
        Finishing your session…
      </p>
    </main>
  );
}

/**
 * The annotator's judging screen: one passage at a time, the next one already fetched, every
 * judgment kept as a draft until the server acknowledges it.
 */
export function JudgingScreen({
  campaign,
  shortcuts,
  crowd,
  userId,
}: {
  campaign: AnnotatorCampaignView;
  shortcuts: JudgingShortcuts;
  crowd?: CrowdMode;
  userId?: number;
}) {
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
  const { draft, words, range, span, frozen, failures, paused, saves, lastSaved, update, submit } = useJudgmentOutbox(
    campaignId,
    task,
    moves,
    setStatus,
  );
  const undo = useUndo(campaignId, setStatus, lastSaved); // the judgment just saved, open again
  const edit = useVerdictEditing({ task, words, range, draft, frozen, update, status, setStatus });
  const { question, questionRef } = useQuestionOnScreen(campaignId, task);
  const { instructionsOpen, toggleInstructions, closeInstructions } = useInstructionsPanel(campaignId, campaign.instructions, !crowd);
  const { flow, proposal, asking, shown } = useAskBeforeNext(
    campaignId,
    crowd || userId === undefined ? null : userId,
    answer,
    task,
    undo.screen !== null,
  );

  const clearHighlight = () => edit.setHighlight(null);
  const { moveBy, moveBySentence, chooseSufficient, chooseInsufficient } = edit;
  const hasTask = shown !== null && !undo.screen;
  const instructions = { instructionsOpen, instructionsId: INSTRUCTIONS_ID, toggleInstructions, closeInstructions };
  const judgingKeys = {
    hasTask,
    hasHighlight: hasTask && range !== null,
    clearHighlight,
    submit,
    moveBy,
    moveBySentence,
    chooseSufficient,
    chooseInsufficient,
  };
  useJudgingKeys({ ...instructions, shortcuts, ...(asking && !undo.screen ? proposal.keys : judgingKeys) });

  const error = current.error;
  const sessionOver = useSessionOver(crowd, paused, error, answer);
  if (sessionOver) return <FinishingScreen />;
  if (paused || (error instanceof ApiError && error.paused)) return <PausedScreen />;
  if (error instanceof ApiError && error.status === 404) return <NotOnCampaignScreen message={error.message} />;
  if (undo.screen) return undo.screen;
  if (answer?.kind === "done" && !asking && !flow.holding) return undo.withBar(<NothingLeftScreen judgedThisVisit={saves.length} />);

  return (
    <div className={`judging${instructionsOpen ? " with-instructions" : ""}`}>
      <JudgingStyles />
      <JudgingHeader
        campaignName={campaign.name}
        answer={shown ? answer : undefined}
        saves={saves}
        question={question}
        instructionsOpen={instructionsOpen}
        instructionsId={INSTRUCTIONS_ID}
        instructionsKey={shortcuts.enabled ? shortcuts.keys.instructions : null}
        onToggleInstructions={toggleInstructions}
        meter={crowd ? crowd.meter(saves.length) : <ProgressMeter campaignId={campaignId} saved={saves.length} />}
        links={!crowd}
      />
      <div className="judging-body">
        <main className="judging-main">
          {asking ? (
            <AskScreen flow={flow} proposal={proposal} questionRef={questionRef} />
          ) : (
            <JudgingMain
              task={shown}
              draft={draft}
              words={words}
              range={range}
              error={error}
              questionRef={questionRef}
              onSelect={edit.setHighlight}
              onRetry={() => void current.refetch()}
            />
          )}
          {shown && draft && (
            <DraftNotes draft={draft} frozen={frozen} update={update} saved={crowd ? null : lastSaved} onUndo={undo.start} />
          )}
        </main>
        {instructionsOpen && (
          <InstructionsPanel
            id={INSTRUCTIONS_ID}
            instructions={campaign.instructions}
            shortcuts={shortcuts}
            onClose={closeInstructions}
            accountHint={!crowd}
          />
        )}
      </div>
      {shown && draft && (
        <TaskVerdictBar
          draft={draft}
          quote={span?.text ?? null}
          failures={failures}
          status={status}
          busy={frozen}
          shortcuts={shortcuts}
          edit={edit}
          onSubmit={submit}
        />
      )}
    </div>
  );
}

"use client";

import { useMutation } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import type { Span } from "@/lib/kilt/words";
import { isRetryable, postJudgment, type JudgmentBody, type NextAsk, type Task, type TaskAnswer } from "@/components/api/annotate";
import { judgmentBodyOf } from "./judgment-body";
import { ApiError } from "@/components/api/client";
import { dropDraft, loadDraft, newDraft, otherDrafts, saveDraft, sweepOldDrafts, type Draft } from "./judging-storage";
import type { SavedJudgment } from "./undo-bar";
import { usePassageHighlight } from "./use-passage-highlight";
import type { BarStatus } from "./verdict-bar";

/** A judgment acknowledged in this session: progress counts of tasks fetched before it are one short. */
export interface Saved {
  queryId: string;
  sentAt: number;
}

interface Sending {
  /** The claim's handle. */
  claim: string;
  body: JudgmentBody;
  /** The next task asked for in the same request (`?next=1`), if any. */
  ask: NextAsk | null;
  queryId: string;
  sentAt: number;
}

/** The task queue's moves the outbox makes (use-task-queue.ts). */
export interface TaskQueueMoves {
  advance: (doneClaim: string) => void;
  nextAsk: (doneClaim: string) => NextAsk | null;
  placeNext: (doneClaim: string, ask: NextAsk, next: TaskAnswer) => void;
}

/** What a finished submission does to the draft and the screen. */
interface Settle {
  /** Counts the judgment as stored in this session. */
  acknowledge: () => void;
  /** Forgets the draft (the server has it, or will never take it). */
  forget: () => void;
  /** Shows the next passage. */
  next: () => void;
  /** Nothing was stored and the body may change (it keeps its key). */
  unfreeze: () => void;
  pause: () => void;
  setStatus: (status: BarStatus | null) => void;
}

function onRefused(error: Error, to: Settle): void {
  if (!(error instanceof ApiError)) {
    to.setStatus({ tone: "error", text: `Not saved: ${error.message}` });
    return;
  }
  if (error.paused) {
    to.pause();
    return;
  }
  const details = error.details as { batch?: unknown; sessionEnded?: unknown } | undefined;
  // A crowd session that ended under the claim (time, a stopped study): nothing was stored; the next request shows its end.
  if (error.status === 409 && (details?.batch === "closed" || details?.batch === "paused" || details?.sessionEnded === true)) {
    // The batch was paused or closed under the claim: nothing was stored, and nothing will be.
    to.forget();
    to.setStatus({ tone: "warn", text: `Not saved: ${error.message}` });
    to.next();
    return;
  }
  if (error.status === 409 || error.status === 410 || error.status === 404) {
    // 409: already judged (stored before); 410: the hold lapsed and the slot went to someone else.
    to.forget();
    if (error.status === 409) {
      to.acknowledge();
      to.setStatus({ tone: "ok", text: "Saved (it was already stored)" });
    } else {
      to.setStatus({
        tone: "warn",
        text: "Your hold on that passage expired and it went to another annotator, so that judgment was not stored. Here is the next passage.",
      });
    }
    to.next();
    return;
  }
  if (error.retryable) {
    to.setStatus({
      tone: "error",
      text: "Not saved — the server cannot be reached. Your judgment is kept here: press Enter to try again.",
    });
    return;
  }
  // Refused as it is (422 and the like): nothing was stored, so the draft may change (same key).
  to.unfreeze();
  to.setStatus({ tone: "error", text: `Not saved: ${error.message}` });
}

/**
 * The body of a draft not sent yet, frozen into it (and stored before the request leaves: a reload
 * mid-flight still has it); null, with the prompt shown, while the draft is not ready.
 */
function freeze(
  draft: Draft,
  task: Task,
  spans: readonly (Span | null)[],
  setDraftState: (d: Draft) => void,
  setStatus: (status: BarStatus | null) => void,
): JudgmentBody | null {
  const made = judgmentBodyOf(draft, task, spans);
  if ("prompt" in made) {
    setStatus({ tone: "warn", text: made.prompt });
    return null;
  }
  const frozenDraft: Draft = { ...draft, pending: made };
  setDraftState(frozenDraft);
  saveDraft(frozenDraft);
  return made;
}

/** Judgments a reload cut off (their claims are no longer live): sent again once, with the same key. */
function useResendCutOff(campaignId: number, claim: string | null): void {
  const flushed = useRef(false);
  useEffect(() => {
    if (flushed.current || claim === null) return;
    flushed.current = true;
    for (const d of otherDrafts(campaignId, [claim])) {
      if (!d.pending) continue;
      postJudgment(d.claim, d.pending).then(
        () => dropDraft(campaignId, d.claim),
        (error: unknown) => {
          if (error instanceof ApiError && !error.retryable) dropDraft(campaignId, d.claim);
        },
      );
    }
  }, [campaignId, claim]);
}

/** The draft of the claim on screen: restored from localStorage (a reload), or begun now; saved on every change. */
function useDraft(campaignId: number, task: Task | null) {
  const [draftState, setDraftState] = useState<Draft | null>(null);
  if (task && draftState?.claim !== task.claim.handle) {
    const stored = loadDraft(campaignId, task.claim.handle);
    // The server still holds this claim live, so no judgment of it was stored: a submission cut off
    // by the reload is not frozen any more (it keeps its idempotency key).
    setDraftState(stored ? { ...stored, pending: null } : newDraft(campaignId, task.claim.handle));
  }
  const draft = task && draftState?.claim === task.claim.handle ? draftState : null;
  useEffect(() => {
    if (draftState) saveDraft(draftState);
  }, [draftState]);
  useEffect(() => sweepOldDrafts(), [campaignId]);
  return [draft, setDraftState] as const;
}

/**
 * The judgment of the passage on screen, from draft to acknowledgement: the draft lives in
 * localStorage until the server acknowledges it; a submission freezes it, and a retry (network
 * failures and 5xx) sends the same body with the same idempotency key, so the server stores it once.
 * Only an acknowledged (or already stored, or lapsed) judgment moves on to the next passage.
 */
export function useJudgmentOutbox(
  campaignId: number,
  task: Task | null,
  queue: TaskQueueMoves,
  setStatus: (status: BarStatus | null) => void,
) {
  const { advance, nextAsk, placeNext } = queue;
  const [draft, setDraftState] = useDraft(campaignId, task);
  const [paused, setPaused] = useState(false);
  const saves = useRef<Saved[]>([]);
  const [lastSaved, setLastSaved] = useState<SavedJudgment | null>(null);

  const highlight = usePassageHighlight(task, draft);
  const { spans } = highlight;

  const saving = useMutation<{ status: number; next?: TaskAnswer }, Error, Sending>({
    mutationFn: (v) => postJudgment(v.claim, v.body, v.ask ?? undefined),
    retry: isRetryable,
    retryDelay: (attempt) => Math.min(1000 * 2 ** attempt, 8_000),
  });
  useResendCutOff(campaignId, task?.claim.handle ?? null);

  /** Changes the draft, unless it is frozen while a submission is on its way. */
  const update = useCallback((change: (d: Draft) => Draft) => setDraftState((d) => (!d || d.pending ? d : change(d))), [setDraftState]);

  const submit = useCallback(() => {
    if (!task || !draft || saving.isPending) return;
    const body = draft.pending ?? freeze(draft, task, spans, setDraftState, setStatus);
    if (!body) return;
    const claim = task.claim.handle;
    const vars: Sending = { claim, body, ask: nextAsk(claim), queryId: task.query.id, sentAt: Date.now() };
    const settle: Settle = {
      acknowledge: () => saves.current.push({ queryId: vars.queryId, sentAt: vars.sentAt }),
      forget: () => dropDraft(campaignId, claim),
      next: () => advance(claim),
      unfreeze: () => setDraftState((d) => (d && d.claim === claim ? { ...d, pending: null } : d)),
      pause: () => setPaused(true),
      setStatus,
    };
    setStatus({ tone: "busy", text: "Saving…" });
    saving.mutate(vars, {
      onSuccess: (result) => {
        // The answer's next task becomes the new prefetch (or, with none before, the next on screen).
        if (result.next && vars.ask) placeNext(claim, vars.ask, result.next);
        settle.acknowledge();
        settle.forget();
        setLastSaved({ task, body, savedAt: Date.now() });
        setStatus({ tone: "ok", text: "Saved" });
        settle.next();
      },
      onError: (error) => onRefused(error, settle),
    });
  }, [task, draft, spans, saving, campaignId, advance, nextAsk, placeNext, setDraftState, setStatus]);

  return {
    draft,
    /** The passages on screen (a set's members), their words and highlights; `words`, `range`, `span`: the member in focus's. */
    highlight,
    words: highlight.words,
    range: highlight.range,
    span: highlight.span,
    /** Choices are frozen until the server answers. */
    frozen: saving.isPending || Boolean(draft?.pending),
    /** Failed attempts of the submission on its way (0 when none is, or it has not failed yet). */
    failures: saving.isPending ? saving.failureCount : 0,
    paused,
    /** Judgments acknowledged in this session, in order. */
    saves: saves.current,
    /** The judgment acknowledged last: what Undo opens again. */
    lastSaved,
    update,
    submit,
  };
}

"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { annotateKey, nextTaskQuery, taskKey, taskQuery, type NextAsk, type TaskAnswer } from "@/components/api/annotate";
import { useRenewal } from "./use-renewal";

/**
 * The judging screen's queue: the task on screen and the next one, fetched while it is read; both
 * claims renewed while they are held.
 *
 * The task on screen is "the task after claim `after`" (null: the live claim, what a reload resumes).
 * The prefetch is "the task after the one on screen": once that is judged, it becomes the task on
 * screen under the same query key, so it shows at once.
 */
export function useTaskQueue(campaignId: number, onCurrentLapsed: () => void) {
  const qc = useQueryClient();
  const [after, setAfter] = useState<string | null>(null);
  const current = useQuery(taskQuery(campaignId, after));
  const answer = current.data;
  const task = answer?.kind === "task" ? answer.task : null;
  const claim = task?.claim.handle ?? null;
  const prefetch = useQuery(nextTaskQuery(campaignId, claim));
  const prefetched = prefetch.data?.kind === "task" ? prefetch.data : null;

  // Leaving the page forgets the cached tasks: coming back asks the server for the live claim.
  useEffect(() => () => qc.removeQueries({ queryKey: annotateKey(campaignId) }), [qc, campaignId]);

  const renewNextGone = useCallback(() => {
    // The prefetched passage lapsed while this one was on screen: fetch another.
    void qc.resetQueries({ queryKey: taskKey(campaignId, claim), exact: true });
  }, [qc, campaignId, claim]);
  useRenewal(claim, answer?.kind === "task" ? answer.leaseMs : null, onCurrentLapsed);
  useRenewal(prefetched?.task.claim.handle ?? null, prefetched?.leaseMs ?? null, renewNextGone);

  // Keys of answers that came with a judgment just now: current, even when they say "nothing left".
  const fresh = useRef(new Set<string>());

  /**
   * What to ask the judgment of `doneClaim` for (`?next=1`): the task after the prefetched one,
   * which becomes the new prefetch; with nothing prefetched, the next task itself. Null while the
   * prefetch is on its way (it may be claiming): then the judgment asks for nothing more.
   */
  const nextAsk = useCallback(
    (doneClaim: string): NextAsk | null => {
      const state = qc.getQueryState<TaskAnswer>(taskKey(campaignId, doneClaim));
      if (state?.fetchStatus === "fetching") return null;
      return { after: state?.data?.kind === "task" ? state.data.task.claim.handle : null };
    },
    [qc, campaignId],
  );

  /** Files the next task a judgment's answer brought, under the key it answers: "the task after `after`" (or after `doneClaim`). */
  const placeNext = useCallback(
    (doneClaim: string, ask: NextAsk, next: TaskAnswer) => {
      const key = taskKey(campaignId, ask.after ?? doneClaim);
      qc.setQueryData(key, next);
      fresh.current.add(JSON.stringify(key));
    },
    [qc, campaignId],
  );

  /** Shows the next passage: the prefetched one at once, else a fresh fetch. */
  const advance = useCallback(
    (doneClaim: string) => {
      const key = taskKey(campaignId, doneClaim);
      const state = qc.getQueryState<TaskAnswer>(key);
      // A prefetch that found nothing (204) or failed may be out of date now: ask again, unless the judgment's answer just said so.
      const justAnswered = fresh.current.delete(JSON.stringify(key));
      if (state && !justAnswered && state.fetchStatus !== "fetching" && state.data?.kind !== "task")
        qc.removeQueries({ queryKey: key, exact: true });
      const previous = taskKey(campaignId, after);
      setAfter(doneClaim);
      setTimeout(() => qc.removeQueries({ queryKey: previous, exact: true }), 0);
    },
    [qc, campaignId, after],
  );

  return { current, answer, task, advance, nextAsk, placeNext };
}

"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useState } from "react";
import { askOptions, explainQuestion, proposePassage, type Ask, type ProposalBody } from "@/components/api/ask";
import type { TaskAnswer } from "@/components/api/annotate";
import { dropAskDraft, loadAskDraft, newAskDraft, saveAskDraft, type AskDraft, type ExplanationReason } from "./ask-storage";

/**
 * Where the queue stands, for asking: the question of the passage on screen, "done" when nothing is
 * left, null while it loads. The ask is fetched again each time this changes (the queue moved to
 * another question, or ran empty); by then the judgment before has been acknowledged (the queue
 * moves only then), so the server counts it.
 */
export function askCheckpoint(answer: TaskAnswer | undefined): string | null {
  if (answer?.kind === "task") return `q:${answer.task.query.id}`;
  return answer?.kind === "done" ? "done" : null;
}

/** The draft of the question asked: restored from localStorage (a reload), or begun now; saved on every change. */
function useAskDraft(userId: number, campaignId: number, ask: Ask | null) {
  const [draft, setDraft] = useState<AskDraft | null>(null);
  if (ask && draft?.queryId !== ask.queryId)
    setDraft(loadAskDraft(userId, campaignId, ask.queryId) ?? newAskDraft(userId, campaignId, ask.queryId));
  const current = ask && draft?.queryId === ask.queryId ? draft : null;
  useEffect(() => {
    if (current) saveAskDraft(current);
  }, [current]);
  const update = useCallback((change: Partial<AskDraft>) => setDraft((d) => (d ? { ...d, ...change } : d)), []);
  return { draft: current, update };
}

/**
 * The judging page's question before the next one: the question the annotator owes a proposal or an
 * explanation for (GET /api/campaigns/:id/ask), its draft, and the two ways to answer it. `holding`:
 * the ask for where the queue stands is on its way, so the passage waits (it would flash, then go).
 * Off (`userId` null) in crowd mode: crowd workers are never asked.
 */
export function useAsk(campaignId: number, userId: number | null, checkpoint: string | null) {
  const qc = useQueryClient();
  const [epoch, setEpoch] = useState(0);
  const on = userId !== null && checkpoint !== null;
  const at = `${checkpoint}:${epoch}`;
  // Read here, fetched below: once for each place the queue reaches, and again on `recheck`.
  const query = useQuery({ ...askOptions(campaignId), enabled: false });
  const [checked, setChecked] = useState<string | null>(null);
  useEffect(() => {
    if (!on) return;
    let live = true;
    const settle = () => live && setChecked(at);
    qc.fetchQuery({ ...askOptions(campaignId), staleTime: 0, retry: false }).then(settle, settle);
    return () => {
      live = false;
    };
  }, [qc, campaignId, on, at]);
  // A failed ask never stops the judging: the passage shows.
  const ask = on && !query.isError ? (query.data ?? null) : null;
  const { draft, update } = useAskDraft(userId ?? 0, campaignId, ask);

  /** Asks again: after an answer is stored, or a judgment revised (Undo). */
  const recheck = useCallback(() => setEpoch((e) => e + 1), []);

  const done = () => {
    if (ask && userId !== null) dropAskDraft(userId, campaignId, ask.queryId);
    recheck();
  };
  const proposing = useMutation({ mutationFn: (body: ProposalBody) => proposePassage(campaignId, body), onSuccess: done });
  const explaining = useMutation({
    mutationFn: (d: { reason: ExplanationReason; text: string }) =>
      explainQuestion(campaignId, { queryId: ask!.queryId, reason: d.reason, text: d.text }),
    onSuccess: done,
  });
  // A new question asked: no error of the last one shown.
  const { reset: resetProposing } = proposing;
  const { reset: resetExplaining } = explaining;
  useEffect(() => {
    resetProposing();
    resetExplaining();
  }, [ask?.queryId, resetProposing, resetExplaining]);

  return { ask: draft ? ask : null, draft, update, holding: on && checked !== at, recheck, proposing, explaining };
}

export type AskFlow = ReturnType<typeof useAsk>;

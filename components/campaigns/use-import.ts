"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useReducer, useRef, type Dispatch } from "react";
import {
  batchFields,
  importReducer,
  initialImportState,
  type ImportAction,
  type ImportDraft,
  type StepKey,
} from "@/components/campaigns/import-form-state";
import { campaignKeys, importBatch, importKnowledge } from "@/components/api/campaigns";
import { ApiError } from "@/components/api/client";
import type { ImportProgress } from "@/lib/campaign/import/import-batch.contract";

const progressOf = (dispatch: Dispatch<ImportAction>, step: StepKey) => ({
  onProgress: (loaded: number, total: number) => dispatch({ type: "progress", step, loaded, total }),
  onSent: () => dispatch({ type: "sent", step }),
  // The batch's text retrieval, as the server streams it (ranked N of M questions).
  onServerProgress: (progress: unknown) => dispatch({ type: "ranking", step, progress: progress as ImportProgress }),
});

/** Runs one step's upload; a refusal is dispatched as its failure and answers false. */
async function attempt<T>(
  dispatch: Dispatch<ImportAction>,
  step: StepKey,
  send: () => Promise<T>,
  done: (result: T) => ImportAction,
): Promise<boolean> {
  dispatch({ type: "uploading", step });
  try {
    dispatch(done(await send()));
    return true;
  } catch (error) {
    const problems = error instanceof ApiError ? error.problems : [];
    dispatch({ type: "failed", step, message: (error as Error).message, problems });
    return false;
  }
}

/** The knowledge source first (keeping only the pages the batch files cite, if asked), then the batch. */
async function runImport(campaignId: number, draft: ImportDraft & { queries: File }, dispatch: Dispatch<ImportAction>) {
  const { knowledge, queries, candidates } = draft;
  if (knowledge) {
    const body = new FormData();
    if (draft.keepCited) {
      body.append("references", queries);
      for (const c of candidates) body.append("references", c);
    }
    body.append("file", knowledge);
    const send = () => importKnowledge(body, progressOf(dispatch, "knowledge"));
    if (!(await attempt(dispatch, "knowledge", send, (result) => ({ type: "knowledgeDone", result })))) return;
  }
  const body = new FormData();
  for (const [name, value] of batchFields(draft)) body.append(name, value);
  body.append("queries", queries);
  for (const c of candidates) body.append("candidates", c);
  if (draft.mapEvidence && draft.redirects) body.append("redirects", draft.redirects);
  await attempt(
    dispatch,
    "batch",
    () => importBatch(campaignId, body, progressOf(dispatch, "batch")),
    (result) => ({ type: "batchDone", result }),
  );
}

/** The import screen's state and its two uploads; focus moves to the outcome when they end. */
export function useImport(campaignId: number) {
  const client = useQueryClient();
  const [state, dispatch] = useReducer(importReducer, initialImportState);
  const outcomeRef = useRef<HTMLDivElement>(null);
  const { busy, batchResult, failure } = state;

  // Leaving the page would cancel an upload half-way: ask first.
  useEffect(() => {
    if (!busy) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [busy]);

  // Move focus to the outcome so keyboard and screen-reader users land on it.
  useEffect(() => {
    if (!busy && (batchResult || failure)) outcomeRef.current?.focus();
  }, [busy, batchResult, failure]);

  const start = async () => {
    const { queries } = state.draft;
    if (!queries || busy) return;
    dispatch({ type: "start" });
    try {
      await runImport(campaignId, { ...state.draft, queries }, dispatch);
    } finally {
      dispatch({ type: "finished" });
      // The campaign page's batches, dashboard and annotators are read again when shown next.
      void client.invalidateQueries({ queryKey: campaignKeys.detail(campaignId) });
    }
  };

  return { state, dispatch, start, outcomeRef };
}

"use client";

import { useQuery } from "@tanstack/react-query";
import { useCallback, useMemo, useState } from "react";
import { passageWords, spanOfWords, wordRangeOfSpan } from "@/lib/kilt/words";
import type { Task } from "@/components/api/annotate";
import { knowledgePageOptions } from "@/components/api/knowledge";
import type { Draft } from "./judging-storage";
import { highlightHow } from "./pointer-texts";
import type { AskFlow } from "./use-ask";
import type { JudgingKeys } from "./use-judging-keys";
import { useVerdictEditing } from "./use-verdict-editing";
import type { BarStatus } from "./verdict-bar";

type ProposalKey = "hasTask" | "hasHighlight" | "clearHighlight" | "submit" | "moveBy" | "moveBySentence" | VerdictKey;
type VerdictKey = "chooseSufficient" | "chooseInsufficient" | "chooseLabel";

/** The picked paragraphs of the page the draft names, as a task PassageView can show (null until loaded). */
function useProposalPassage(flow: AskFlow) {
  const { ask, draft } = flow;
  const page = useQuery({ ...knowledgePageOptions(draft?.page ?? ""), enabled: Boolean(draft?.page), retry: false });
  const data = page.data && page.data.wikipediaId === draft?.page ? page.data : null;
  const range = draft?.range ?? null;
  const view: Task | null = useMemo(() => {
    if (!ask || !data || !range || !draft?.highlighting) return null;
    const paragraphs = data.paragraphs.filter((p) => p.id >= range.start && p.id <= range.end);
    return {
      claim: { handle: `proposal-${ask.queryId}`, expiresAt: "" },
      query: { id: ask.queryId, input: ask.input, kind: ask.kind },
      passage: { wikipediaId: data.wikipediaId, title: data.title, paragraphs },
      progress: { judgedToday: 0, passageOfQuestion: 1, passagesInQuestion: 1 },
    };
  }, [ask, data, range, draft?.highlighting]);
  return { page, data, range, view };
}

/**
 * The highlight step of a proposal, done as when judging: the picked paragraphs become a passage
 * for PassageView, and use-verdict-editing moves the highlight (its keys, drags and taps) over a
 * judging draft that stands for the proposal's span (a proposal is a "sufficient" verdict).
 */
export function useAskProposal(flow: AskFlow) {
  const { ask, draft, update } = flow;
  const { page, data, range, view } = useProposalPassage(flow);
  const words = useMemo(() => (view ? passageWords(view.passage.paragraphs) : []), [view]);
  const storedSpan = draft?.span ?? null;
  const wordRange = useMemo(() => (storedSpan ? wordRangeOfSpan(words, storedSpan) : null), [storedSpan, words]);
  const span = useMemo(() => (view && wordRange ? spanOfWords(view.passage.paragraphs, words, wordRange) : null), [view, words, wordRange]);

  const [status, setStatus] = useState<BarStatus | null>(null);
  const frozen = flow.proposing.isPending;
  const asDraft: Draft | null = view
    ? {
        v: 2,
        campaignId: 0,
        claim: view.claim.handle,
        verdict: "sufficient",
        unreadable: false,
        span: wordRange ? storedSpan : null,
        idempotencyKey: "",
        startedAt: 0,
        pending: null,
      }
    : null;
  const editUpdate = useCallback(
    (change: (d: Draft) => Draft) => {
      if (asDraft) update({ span: change(asDraft).span });
    },
    [asDraft, update],
  );
  const edit = useVerdictEditing({ task: view, words, range: wordRange, draft: asDraft, frozen, update: editUpdate, status, setStatus });

  const propose = useCallback(() => {
    if (!ask || !data || !range || frozen) return;
    if (!span) {
      setStatus({ tone: "warn", text: `Highlight the words that answer the question first: ${highlightHow()}.` });
      return;
    }
    setStatus(null);
    const first = draft?.first;
    flow.proposing.mutate({
      queryId: ask.queryId,
      wikipediaId: data.wikipediaId,
      startParagraphId: range.start,
      endParagraphId: range.end,
      span,
      ...(first
        ? { also: { wikipediaId: first.page, startParagraphId: first.range.start, endParagraphId: first.range.end, span: first.span } }
        : {}),
    });
  }, [ask, data, range, frozen, span, flow.proposing, draft?.first]);

  /** Keeps this highlighted passage as the first of two and goes back to the search for the second. */
  const addSecond = useCallback(() => {
    if (!data || !range || frozen) return;
    if (!span) {
      setStatus({ tone: "warn", text: `Highlight the words of this passage first: ${highlightHow()}.` });
      return;
    }
    setStatus(null);
    update({ first: { page: data.wikipediaId, title: data.title, range, span }, page: null, range: null, span: null, highlighting: false });
  }, [data, range, frozen, span, update]);

  /** The judging keys while highlighting: the moves, Esc, Enter proposes; the verdict keys do nothing. */
  const keys: Pick<JudgingKeys, ProposalKey> = {
    hasTask: view !== null,
    hasHighlight: view !== null && wordRange !== null,
    clearHighlight: () => edit.setHighlight(null),
    submit: propose,
    moveBy: edit.moveBy,
    moveBySentence: edit.moveBySentence,
    chooseSufficient: () => {},
    chooseInsufficient: () => {},
    chooseLabel: () => {},
  };
  return { page, data, view, words, wordRange, span, status, edit, propose, addSecond, keys };
}

export type AskProposal = ReturnType<typeof useAskProposal>;

"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import type { AdjudicationView } from "@/lib/campaign/quality/adjudication.contract";
import type { Location } from "@/lib/kilt/codepoints";
import { spanText, utf16ToCodePoint, type ParagraphText, type Span } from "@/lib/kilt/words";
import { ApiError, apiRequest } from "@/components/api/client";
import { ErrorAlert } from "@/components/ui/form-field";
import { SelectableText } from "./selectable-text";

interface Props {
  campaignId: number;
  passageId: number;
  paragraphs: ParagraphText[];
  /** What an endorsement without a span exports (null: nobody highlighted, so a span must be given). */
  consensus: Location | null;
  live: AdjudicationView | null;
  /** An evidence set: an endorsement exports the consensus in each member; no span of one's own. */
  isSet?: boolean;
}

const REASON_MAX = 2000;

/** The first occurrence of `words` in the passage as a span (code points), or null. */
function findSpan(paragraphs: readonly ParagraphText[], words: string): Span | null {
  if (!words) return null;
  for (const p of paragraphs) {
    const at = p.text.indexOf(words);
    if (at >= 0) {
      const start = utf16ToCodePoint(p.text, at);
      return {
        startParagraphId: p.id,
        startCharacter: start,
        endParagraphId: p.id,
        endCharacter: start + Array.from(words).length,
        text: words,
      };
    }
  }
  return null;
}

function when(iso: string): string {
  return `${iso.slice(0, 16).replace("T", " ")} UTC`;
}

type Decision = "endorse" | "reject";

/** The form's state: the decision, the span to export (the consensus one, or words selected or typed), the reason. */
function useDecisionState(paragraphs: readonly ParagraphText[], consensus: Location | null, live: AdjudicationView | null) {
  const [decision, setDecision] = useState<Decision>(live?.decision ?? "endorse");
  const [useConsensus, setUseConsensus] = useState(consensus !== null);
  const [words, setWords] = useState("");
  const [selected, setSelected] = useState<Span | null>(null);
  const [reason, setReason] = useState("");
  const span = useConsensus ? null : (selected ?? findSpan(paragraphs, words));
  return {
    decision,
    setDecision,
    useConsensus,
    setUseConsensus,
    words,
    reason,
    setReason,
    span,
    missing: decision === "endorse" && !useConsensus && !span,
    /** Words typed into the field: the span is their first occurrence in the passage. */
    typeWords: (typed: string) => {
      setWords(typed);
      setSelected(null);
    },
    /** Words selected in the passage (snapped to words): they are the span. */
    selectSpan: (s: Span) => {
      setSelected(s);
      setWords(s.text);
      setUseConsensus(false);
    },
  };
}
type DecisionState = ReturnType<typeof useDecisionState>;

/** Recording a decision (PUT) and reverting the live one (DELETE); the page is refreshed after either. */
function useAdjudicationMutations(url: string, { decision, span, reason, setReason }: DecisionState) {
  const router = useRouter();
  const save = useMutation({
    mutationFn: () =>
      apiRequest<{ adjudication: AdjudicationView }>("PUT", url, { decision, span: decision === "endorse" ? span : null, reason }),
    onSuccess: () => {
      setReason("");
      router.refresh();
    },
  });
  const revert = useMutation({ mutationFn: () => apiRequest("DELETE", url), onSuccess: () => router.refresh() });
  const problemOf = (field: string) => (save.error instanceof ApiError ? save.error.problemOf(field) : undefined);
  return { save, revert, problemOf };
}
type Mutations = ReturnType<typeof useAdjudicationMutations>;

/**
 * The coordinator's final word on one passage of the question view: the live decision (who, when,
 * why, the span) with Revert, and a form to endorse or reject with a reason. Endorse exports the
 * consensus span or a span of one's own: select words in the passage below (snapped to words), or
 * type them into the field (the keyboard path; the first occurrence is taken).
 */
export function AdjudicationPanel({ campaignId, passageId, paragraphs, consensus, live, isSet = false }: Props) {
  const id = useId();
  const own = useDecisionState(paragraphs, consensus, live);
  // A set's endorsement always exports the consensus in each member: no span of one's own to miss.
  const state = isSet ? { ...own, span: null, missing: false } : own;
  const mutations = useAdjudicationMutations(`/api/campaigns/${campaignId}/passages/${passageId}/adjudication`, state);
  return (
    <section className="adjudication" aria-labelledby={`${id}-title`} data-testid="adjudication">
      <h3 id={`${id}-title`}>Your decision</h3>
      {live ? <LiveDecision live={live} revert={mutations.revert} /> : <p className="muted">No decision: the vote decides.</p>}

      <DecisionForm
        id={id}
        paragraphs={paragraphs}
        consensus={consensus}
        replacing={live !== null}
        isSet={isSet}
        state={state}
        mutations={mutations}
      />
    </section>
  );
}

/** The live decision: who, when, why, the span; and Revert. */
function LiveDecision({ live, revert }: { live: AdjudicationView; revert: Mutations["revert"] }) {
  return (
    <div className="adjudication-live" data-testid="adjudication-live">
      <p>
        <strong>{live.decision === "endorse" ? "Endorsed" : "Rejected"}</strong> by {live.by.username} ·{" "}
        <time dateTime={live.at}>{when(live.at)}</time>
        {live.decision === "endorse" && <> · exports {live.span ? <q>{live.span.text}</q> : "the consensus span"}</>}
      </p>
      <blockquote className="adjudication-reason">{live.reason}</blockquote>
      <p className="hint">It overrides the vote in the KILT export until you revert it.</p>
      <button type="button" onClick={() => revert.mutate()} disabled={revert.isPending}>
        {revert.isPending ? "Reverting…" : "Revert (the vote decides again)"}
      </button>
      <ErrorAlert>{revert.error?.message}</ErrorAlert>
    </div>
  );
}

interface FormProps {
  id: string;
  paragraphs: ParagraphText[];
  consensus: Location | null;
  /** Whether a live decision is there (the form replaces it). */
  replacing: boolean;
  isSet: boolean;
  state: DecisionState;
  mutations: Mutations;
}

/** Endorse or reject, the span to export (endorse), the reason. */
function DecisionForm({ id, paragraphs, consensus, replacing, isSet, state, mutations }: FormProps) {
  const { decision, reason, setReason, missing } = state;
  const { save, problemOf } = mutations;
  return (
    <form
      className="adjudication-form"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <fieldset>
        <legend>{replacing ? "Replace the decision" : "Decide"}</legend>
        <DecisionRadio id={id} value="endorse" label="Endorse" state={state} />{" "}
        <DecisionRadio id={id} value="reject" label="Reject" state={state} />
      </fieldset>
      {decision === "endorse" && isSet && (
        <p className="muted">An evidence set exports the consensus of the highlights in each of its members.</p>
      )}
      {decision === "endorse" && isSet && problemOf("span") && <span className="field-error">{problemOf("span")}</span>}
      {decision === "endorse" && !isSet && (
        <SpanFieldset id={id} paragraphs={paragraphs} consensus={consensus} state={state} spanProblem={problemOf("span")} />
      )}
      <label htmlFor={`${id}-reason`}>Reason</label>
      <textarea
        id={`${id}-reason`}
        value={reason}
        required
        maxLength={REASON_MAX}
        rows={2}
        aria-invalid={problemOf("reason") ? true : undefined}
        onChange={(e) => setReason(e.target.value)}
      />
      {problemOf("reason") && <span className="field-error">{problemOf("reason")}</span>}
      <button type="submit" disabled={save.isPending || missing || !reason.trim()}>
        {save.isPending ? "Recording…" : decision === "endorse" ? "Endorse this passage" : "Reject this passage"}
      </button>
      <ErrorAlert>{save.error?.message}</ErrorAlert>
    </form>
  );
}

/** One choice of the decision, as a radio button inside its label. */
function DecisionRadio({ id, value, label, state }: { id: string; value: Decision; label: string; state: DecisionState }) {
  return (
    <label className="check">
      <input
        type="radio"
        name={`${id}-decision`}
        value={value}
        checked={state.decision === value}
        onChange={() => state.setDecision(value)}
      />{" "}
      {label}
    </label>
  );
}

interface SpanProps {
  id: string;
  paragraphs: ParagraphText[];
  consensus: Location | null;
  state: DecisionState;
  /** The server's problem with the span, if any. */
  spanProblem: string | undefined;
}

/** The span an endorsement exports: the consensus one, or words selected in the passage or typed. */
function SpanFieldset({ id, paragraphs, consensus, state, spanProblem }: SpanProps) {
  const { useConsensus, setUseConsensus, words, typeWords, span, missing } = state;
  const consensusText = consensus ? spanText(paragraphs, consensus) : undefined;
  return (
    <fieldset>
      <legend>Span to export</legend>
      <label className="check">
        <input
          type="radio"
          name={`${id}-span`}
          checked={useConsensus}
          disabled={consensus === null}
          onChange={() => setUseConsensus(true)}
        />{" "}
        Use the consensus span
        {consensusText ? (
          <q className="muted"> {consensusText}</q>
        ) : (
          <span className="muted"> (none: nobody highlighted this passage)</span>
        )}
      </label>
      <label className="check">
        <input type="radio" name={`${id}-span`} checked={!useConsensus} onChange={() => setUseConsensus(false)} /> My span
      </label>
      {!useConsensus && (
        <>
          <p className="hint" id={`${id}-select-hint`}>
            Select words in the passage (they snap to whole words), or type or paste them exactly.
          </p>
          <SelectableText paragraphs={paragraphs} span={span} onSelect={state.selectSpan} />
          <label htmlFor={`${id}-words`}>Words to export</label>
          <input
            id={`${id}-words`}
            type="text"
            value={words}
            aria-describedby={`${id}-select-hint${missing && words ? ` ${id}-words-error` : ""}`}
            aria-invalid={missing && words ? true : undefined}
            onChange={(e) => typeWords(e.target.value)}
          />
          {missing && words && (
            <span className="field-error" id={`${id}-words-error`}>
              These words are not in the passage as typed.
            </span>
          )}
          {spanProblem && <span className="field-error">{spanProblem}</span>}
        </>
      )}
    </fieldset>
  );
}

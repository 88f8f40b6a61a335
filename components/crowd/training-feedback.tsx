"use client";

import { useEffect, useRef } from "react";
import type { TrainingFeedback, TrainingSpan } from "@/components/api/crowd-session";
import type { FactLabel } from "@/lib/kilt/task-kind";

const verdictLabel = (verdict: "sufficient" | "insufficient", factLabel: FactLabel | null) =>
  verdict === "sufficient" ? `Sufficient${factLabel ? `: ${factLabel}` : ""}` : "Not sufficient";

function Answer({
  label,
  verdict,
  factLabel,
  span,
  kind,
}: {
  label: string;
  verdict: "sufficient" | "insufficient";
  /** Fact checking: the label with a sufficient verdict (the expected one is the line's dataset label). */
  factLabel: FactLabel | null;
  span: TrainingSpan | null;
  kind: "expected" | "given";
}) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>
        <strong>{verdictLabel(verdict, factLabel)}</strong>
      </dd>
      {span && (
        <dd>
          <mark className={kind}>{span.text}</mark>
        </dd>
      )}
      {verdict === "sufficient" && !span && <dd className="muted">No highlight</dd>}
    </div>
  );
}

interface Props {
  /** Null until the worker has answered: the status region is there from the start, so its news is read out. */
  feedback: TrainingFeedback | null;
  busy: boolean;
  onNext: () => void;
}

/**
 * After a training answer: right or not, the expected verdict and highlight beside the worker's own,
 * and the coordinator's explanation; "Next" goes on. A live status region: screen readers hear it,
 * and focus moves to its heading.
 */
export function TrainingFeedbackPanel({ feedback, busy, onNext }: Props) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (!feedback) return;
    window.scrollTo({ top: 0 });
    headingRef.current?.focus({ preventScroll: true });
  }, [feedback]);
  return (
    <div className="training-feedback-wrap">
      <section
        role="status"
        aria-live="polite"
        aria-label="Feedback on your answer"
        className={`training-feedback${feedback ? (feedback.correct ? " is-right" : " is-wrong") : ""}`}
      >
        {feedback && (
          <>
            <h2 ref={headingRef} tabIndex={-1}>
              {feedback.correct ? "Right" : "Not quite"}
            </h2>
            <dl className="feedback-compare">
              <Answer
                label="Expected"
                verdict={feedback.expected.verdict}
                factLabel={feedback.expected.label ?? null}
                span={feedback.expected.span}
                kind="expected"
              />
              <Answer
                label="Your answer"
                verdict={feedback.given.verdict}
                factLabel={feedback.given.label ?? null}
                span={feedback.given.span}
                kind="given"
              />
            </dl>
            {feedback.explanation && <p className="feedback-explanation">{feedback.explanation}</p>}
            {feedback.expected.span && <p className="passage-caption">The passage below shows the expected highlight.</p>}
          </>
        )}
      </section>
      {feedback && (
        <div className="crowd-actions feedback-next">
          <button type="button" className="next" onClick={onNext} disabled={busy} aria-busy={busy}>
            Next
          </button>
        </div>
      )}
    </div>
  );
}

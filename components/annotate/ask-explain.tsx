"use client";

import { useEffect, useRef, useState, type FormEvent } from "react";
import { ApiError } from "@/components/api/client";
import { EXPLANATION_REASON_LABELS, MAX_EXPLANATION_LENGTH as MAX_TEXT } from "@/lib/campaign/annotate/ask.contract";
import type { ExplanationReason } from "./ask-storage";
import type { AskFlow } from "./use-ask";

/** The form's reasons, in order, as people read them (the question view shows the same labels). */
const REASONS = (Object.entries(EXPLANATION_REASON_LABELS) as [ExplanationReason, string][]).map(([value, label]) => ({ value, label }));

/** The form's problems by field: the server's (422 details) or the form's own check. */
function problemsOf(error: Error | null, local: Partial<Record<"reason" | "text", string>>) {
  const server = error instanceof ApiError ? error : null;
  const reason = local.reason ?? server?.problemOf("reason");
  const text = local.text ?? server?.problemOf("text");
  const general =
    server && !server.problemOf("reason") && !server.problemOf("text") ? server.message : error && !server ? error.message : null;
  return { reason, text, general };
}

/** Explain why no passage holds the evidence: a reason and free text (required for "other"); Enter on a reason sends it. */
export function AskExplain({ flow }: { flow: AskFlow }) {
  const { draft, update, explaining } = flow;
  const [local, setLocal] = useState<Partial<Record<"reason" | "text", string>>>({});
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  if (!draft) return null;
  const textLength = Array.from(draft.text).length;
  const send = (e: FormEvent) => {
    e.preventDefault();
    if (explaining.isPending) return;
    const problems: typeof local = {};
    if (!draft.reason) problems.reason = "Choose a reason.";
    if (draft.reason === "other" && !draft.text.trim()) problems.text = "Say why: the text is required for “Other”.";
    if (textLength > MAX_TEXT) problems.text = `At most ${MAX_TEXT} characters (${textLength} now).`;
    setLocal(problems);
    if (draft.reason && Object.keys(problems).length === 0) explaining.mutate({ reason: draft.reason, text: draft.text });
  };
  const p = problemsOf(explaining.error, local);
  return (
    <form className="ask-explain" onSubmit={send} noValidate aria-label="Explain why no passage holds the evidence">
      <fieldset aria-describedby={p.reason ? "ask-reason-error" : undefined}>
        <legend>Why does no passage hold enough evidence?</legend>
        {REASONS.map((r, i) => (
          <label key={r.value} className="ask-reason">
            <input
              ref={i === 0 ? first : undefined}
              type="radio"
              name="ask-reason"
              value={r.value}
              checked={draft.reason === r.value}
              onChange={() => (update({ reason: r.value }), setLocal((l) => ({ ...l, reason: undefined })))}
            />{" "}
            {r.label}
          </label>
        ))}
        {p.reason && (
          <p className="field-error" id="ask-reason-error">
            {p.reason}
          </p>
        )}
      </fieldset>
      <label htmlFor="ask-text" className="ask-text-label">
        Explanation{draft.reason === "other" ? " (required)" : " (optional)"}
      </label>
      <textarea
        id="ask-text"
        rows={4}
        value={draft.text}
        aria-invalid={p.text ? true : undefined}
        aria-describedby={`ask-text-count${p.text ? " ask-text-error" : ""}`}
        onChange={(e) => (update({ text: e.target.value }), setLocal((l) => ({ ...l, text: undefined })))}
      />
      <p className="muted ask-count" id="ask-text-count">
        {textLength} / {MAX_TEXT}
      </p>
      {p.text && (
        <p className="field-error" id="ask-text-error">
          {p.text}
        </p>
      )}
      <div className="ask-actions">
        <button type="submit" aria-busy={explaining.isPending}>
          {explaining.isPending ? "Sending…" : "Send explanation"}
        </button>
      </div>
      {p.general && (
        <p className="field-error" role="alert">
          Not sent: {p.general}
        </p>
      )}
    </form>
  );
}

"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Markdown } from "@/components/ui/markdown";
import { useLandingFocus } from "./crowd-screens";
import { crowdKeys, consentToCrowdSession, type CrowdSessionView } from "@/components/api/crowd-session";

/** "5 training items, 20 passages, 60 minutes left" — what the worker is agreeing to do. */
export function SessionFacts({
  training,
  quota,
  unit,
  minutes,
}: {
  training: number;
  quota: number;
  unit: "passages" | "questions";
  minutes: number | null;
}) {
  return (
    <ul className="crowd-facts" aria-label="This session">
      {training > 0 && (
        <li>
          {training} training {training === 1 ? "item" : "items"} with feedback
        </li>
      )}
      <li>
        {quota} {unit === "questions" ? (quota === 1 ? "question" : "questions") : quota === 1 ? "passage" : "passages"} to judge
      </li>
      {minutes !== null && (
        <li>
          Time left: {minutes} {minutes === 1 ? "minute" : "minutes"}
        </li>
      )}
    </ul>
  );
}

function minutesLeft(deadline: string): number | null {
  const ms = Date.parse(deadline) - Date.now();
  return Number.isFinite(ms) ? Math.max(0, Math.round(ms / 60_000)) : null;
}

/** The consent Markdown and the instructions (rendered without raw HTML), then "I agree and start". */
export function ConsentStage({
  session,
  shortcutsOn,
  onShortcutsChange,
}: {
  session: CrowdSessionView;
  shortcutsOn: boolean;
  onShortcutsChange: (on: boolean) => void;
}) {
  const headingRef = useLandingFocus();
  const qc = useQueryClient();
  const agree = useMutation({
    mutationFn: consentToCrowdSession,
    onSuccess: (next) => qc.setQueryData(crowdKeys.session(), next),
  });
  return (
    <main className="crowd-page">
      <h1 tabIndex={-1} ref={headingRef}>
        {session.campaignName}
      </h1>
      <SessionFacts
        training={session.training.total}
        quota={session.work.quota}
        unit={session.work.unit}
        minutes={minutesLeft(session.deadline)}
      />
      <section className="card" aria-labelledby="consent-title">
        <h2 id="consent-title">Consent</h2>
        {session.consent.trim() ? (
          <Markdown className="crowd-markdown">{session.consent}</Markdown>
        ) : (
          <p className="muted">By starting you agree to take part in this annotation study.</p>
        )}
      </section>
      <section className="card" aria-labelledby="instructions-title">
        <h2 id="instructions-title">Instructions</h2>
        {session.instructions.trim() ? (
          <Markdown className="crowd-markdown">{session.instructions}</Markdown>
        ) : (
          <p className="muted">
            Read each question and the passage below it; say whether the passage holds enough evidence to answer it, and highlight the words
            that do.
          </p>
        )}
      </section>
      <label className="crowd-check">
        <input type="checkbox" checked={shortcutsOn} onChange={(e) => onShortcutsChange(e.target.checked)} />
        Single-key shortcuts (1 Sufficient, 2 Not sufficient, U Unreadable, S sentence): turn them off if you use speech input or they get
        in your way
      </label>
      <div className="crowd-actions">
        <button type="button" onClick={() => agree.mutate()} disabled={agree.isPending} aria-busy={agree.isPending}>
          I agree and start
        </button>
        {agree.isPending && <span className="muted">Starting…</span>}
      </div>
      {agree.error && (
        <p className="error" role="alert">
          {agree.error.message}
        </p>
      )}
    </main>
  );
}

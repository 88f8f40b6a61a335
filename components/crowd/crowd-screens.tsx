"use client";

import { useEffect, useRef, type ReactNode } from "react";
import { ApiError } from "@/components/api/client";

/**
 * Focus on this heading once it is on screen (React's autoFocus moves focus only to form controls),
 * so a screen reader says where the worker has landed; the page starts at its top.
 */
export function useLandingFocus<T extends HTMLElement = HTMLHeadingElement>() {
  const ref = useRef<T>(null);
  useEffect(() => {
    window.scrollTo({ top: 0 });
    ref.current?.focus({ preventScroll: true });
  }, []);
  return ref;
}

/** A calm one-card screen; focus lands on its heading, so a screen reader says where the worker is. */
export function CrowdCard({ title, children }: { title: string; children?: ReactNode }) {
  const headingRef = useLandingFocus();
  return (
    <main className="crowd-page">
      <div className="card">
        <h1 tabIndex={-1} ref={headingRef}>
          {title}
        </h1>
        {children}
      </div>
    </main>
  );
}

export function CrowdLoading({ text = "Loading your session…" }: { text?: string }) {
  return (
    <main className="crowd-page">
      <p className="muted" role="status">
        {text}
      </p>
    </main>
  );
}

/** The entry's refusals past its limits (lib/crowd/entry-limits.ts): the study is full, or too many entries at once. */
function limitOf(error: Error): { full?: "places" | "sessions"; retryAfterSeconds?: number } {
  return error instanceof ApiError && (error.status === 409 || error.status === 429)
    ? ((error.details as { full?: "places" | "sessions"; retryAfterSeconds?: number } | undefined) ?? {})
    : {};
}

function titleOf(status: number, limit: ReturnType<typeof limitOf>): string {
  if (limit.full) return "This study is full";
  if (status === 429) return `Too many attempts, try again in ${limit.retryAfterSeconds ?? 60} s`;
  if (status === 404) return "This study is not open";
  return status === 422 || status === 400 ? "This link is incomplete" : "Your session could not be started";
}

/** Why the worker cannot enter: the link is off or unknown (404), incomplete (422: the server says where the link comes from), the study full (409) or busy (429), or the server is out of reach. */
export function EntryProblem({ error, onRetry }: { error: Error; onRetry?: () => void }) {
  const status = error instanceof ApiError ? error.status : 0;
  const limit = limitOf(error);
  return (
    <CrowdCard title={titleOf(status, limit)}>
      <p role="alert">{error.message}</p>
      {limit.full === "places" && (
        <p className="muted">
          Every place of this study is taken. Return the study on the platform you came from, so that it does not count against you.
        </p>
      )}
      {status === 404 && <p className="muted">The study may have ended or been closed. Return to the platform you came from.</p>}
      {onRetry && (status === 0 || status >= 500 || status === 401 || status === 429 || limit.full === "sessions") && (
        <div className="crowd-actions">
          <button type="button" onClick={onRetry}>
            Try again
          </button>
        </div>
      )}
    </CrowdCard>
  );
}

"use client";

import { useEffect, useRef } from "react";
import type { Task as ServerTask } from "@/lib/campaign/annotate/assignment";
import type { Span } from "@/lib/kilt/words";

// The judging screen's talk with the API (lib/campaign/assignment.ts, lib/campaign/judgments.ts),
// its drafts in localStorage, and claim renewal. Components are in the other files of this folder.

/** One passage to judge, as the API sends it: the server's `Task`, with dates as JSON text. */
export type Task = Omit<ServerTask, "claim"> & { claim: { id: number; expiresAt: string } };

export type Verdict = "sufficient" | "insufficient";

/** The body of POST /api/claims/:id/judgment. */
export interface JudgmentBody {
  verdict: Verdict;
  span: Span | null;
  unreadable: boolean;
  durationMs: number;
  idempotencyKey: string;
}

/** What the next-task route answered: a task (with its lease as the server counts it) or nothing left (204). */
export type TaskAnswer = { kind: "task"; task: Task; leaseMs: number; receivedAt: number } | { kind: "done" };

/** An API refusal or a failed request; `retryable` for network failures and 5xx (the request may be sent again). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "ApiError";
  }

  get retryable(): boolean {
    return this.status === 0 || this.status >= 500 || this.status === 429;
  }

  get paused(): boolean {
    return this.status === 403 && (this.details as { paused?: unknown } | undefined)?.paused === true;
  }
}

async function post(url: string, body?: unknown): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: "POST",
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
    });
  } catch {
    throw new ApiError(0, "network", "The server could not be reached.");
  }
  if (!res.ok) {
    const data = (await res.json().catch(() => null)) as { error?: { code?: string; message?: string; details?: unknown } } | null;
    throw new ApiError(res.status, data?.error?.code ?? "http", data?.error?.message ?? `The server answered ${res.status}.`, data?.error?.details);
  }
  return res;
}

/** The lease the server granted: its expiry minus its own clock (the Date header), so a skewed client clock does not matter. */
function leaseOf(expiresAt: string, res: Response): number {
  const serverNow = Date.parse(res.headers.get("date") ?? "");
  const now = Number.isFinite(serverNow) ? serverNow : Date.now();
  return Math.max(0, Date.parse(expiresAt) - now);
}

/** POST /api/campaigns/:id/next[?after=claimId]: the live claim, or a new one other than `after`. */
export async function fetchTask(campaignId: number, after: number | null): Promise<TaskAnswer> {
  const res = await post(`/api/campaigns/${campaignId}/next${after === null ? "" : `?after=${after}`}`);
  if (res.status === 204) return { kind: "done" };
  const task = (await res.json()) as Task;
  return { kind: "task", task, leaseMs: leaseOf(task.claim.expiresAt, res), receivedAt: Date.now() };
}

export async function postJudgment(claimId: number, body: JudgmentBody): Promise<{ status: number }> {
  const res = await post(`/api/claims/${claimId}/judgment`, body);
  return { status: res.status };
}

export async function renewClaim(claimId: number): Promise<void> {
  await post(`/api/claims/${claimId}/renew`);
}

/** The TanStack Query key of "the task after claim `after`" (null: the live claim, what a reload shows). */
export function taskKey(campaignId: number, after: number | null) {
  return ["annotate", campaignId, "task", after ?? "live"] as const;
}

export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  // randomUUID needs a secure context; getRandomValues does not.
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

// ---------------------------------------------------------------------------------------------
// Drafts: what the annotator has done on a claim, kept in localStorage until the server acknowledges it.

export interface Draft {
  v: 1;
  campaignId: number;
  claimId: number;
  verdict: Verdict | null;
  unreadable: boolean;
  /** The highlight as a KILT location (code points); its text is recomputed from the passage. */
  span: Omit<Span, "text"> | null;
  idempotencyKey: string;
  /** When the task appeared (ms since the epoch): durationMs counts from here, across reloads. */
  startedAt: number;
  /** The body being submitted: frozen until the server answers, so a retry sends the same body with the same key. */
  pending: JudgmentBody | null;
}

const DRAFT_PREFIX = "kps:draft:";
const DRAFT_MAX_AGE_MS = 3 * 24 * 3600 * 1000;
const draftKey = (campaignId: number, claimId: number) => `${DRAFT_PREFIX}${campaignId}:${claimId}`;

function storage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    return null; // storage disabled: drafts live only in memory
  }
}

export function loadDraft(campaignId: number, claimId: number): Draft | null {
  const raw = storage()?.getItem(draftKey(campaignId, claimId));
  if (!raw) return null;
  try {
    const d = JSON.parse(raw) as Draft;
    return d.v === 1 && d.claimId === claimId && d.campaignId === campaignId ? d : null;
  } catch {
    return null;
  }
}

export function saveDraft(draft: Draft): void {
  try {
    storage()?.setItem(draftKey(draft.campaignId, draft.claimId), JSON.stringify(draft));
  } catch {
    // Quota exceeded or storage disabled: the draft stays in memory.
  }
}

export function dropDraft(campaignId: number, claimId: number): void {
  storage()?.removeItem(draftKey(campaignId, claimId));
}

export function newDraft(campaignId: number, claimId: number): Draft {
  return { v: 1, campaignId, claimId, verdict: null, unreadable: false, span: null, idempotencyKey: newIdempotencyKey(), startedAt: Date.now(), pending: null };
}

/** Drafts of this campaign other than the given claims (a submission cut off by a reload, or a lapsed claim). */
export function otherDrafts(campaignId: number, except: number[]): Draft[] {
  const s = storage();
  if (!s) return [];
  const out: Draft[] = [];
  for (let i = 0; i < s.length; i++) {
    const key = s.key(i);
    if (!key?.startsWith(`${DRAFT_PREFIX}${campaignId}:`)) continue;
    const claimId = Number(key.slice(`${DRAFT_PREFIX}${campaignId}:`.length));
    if (except.includes(claimId)) continue;
    const d = loadDraft(campaignId, claimId);
    if (d) out.push(d);
    else s.removeItem(key);
  }
  return out;
}

/** Forgets drafts older than a few days, whatever their campaign. */
export function sweepOldDrafts(): void {
  const s = storage();
  if (!s) return;
  const stale: string[] = [];
  for (let i = 0; i < s.length; i++) {
    const key = s.key(i);
    if (!key?.startsWith(DRAFT_PREFIX)) continue;
    try {
      const d = JSON.parse(s.getItem(key) ?? "") as Draft;
      if (!(Date.now() - d.startedAt < DRAFT_MAX_AGE_MS)) stale.push(key);
    } catch {
      stale.push(key);
    }
  }
  for (const key of stale) s.removeItem(key);
}

/**
 * "Question N": the questions this browser has shown in the campaign, in order (the API sends no
 * question number, and its counts are the annotator's own only).
 */
export function questionNumber(campaignId: number, queryId: string): number {
  const s = storage();
  const key = `kps:questions:${campaignId}`;
  let seen: string[] = [];
  try {
    seen = JSON.parse(s?.getItem(key) ?? "[]") as string[];
  } catch {
    seen = [];
  }
  let i = seen.indexOf(queryId);
  if (i < 0) {
    seen.push(queryId);
    i = seen.length - 1;
    try {
      s?.setItem(key, JSON.stringify(seen.slice(-5000)));
    } catch {
      // ignore
    }
  }
  return i + 1;
}

// ---------------------------------------------------------------------------------------------

/**
 * Renews a claim every lease/3 while it is mounted (the passage is on screen or prefetched), so it
 * never lapses mid-read; stops on 410 (expired: its slot may have gone to someone else).
 */
export function useRenewal(claimId: number | null, leaseMs: number | null, onGone: (claimId: number) => void): void {
  const onGoneRef = useRef(onGone);
  useEffect(() => {
    onGoneRef.current = onGone;
  });
  useEffect(() => {
    if (claimId === null || leaseMs === null) return;
    const every = Math.min(Math.max(leaseMs / 3, 5_000), 30 * 60_000);
    let stopped = false;
    const timer = setInterval(() => {
      renewClaim(claimId).catch((error: unknown) => {
        if (stopped) return;
        if (error instanceof ApiError && (error.status === 410 || error.status === 404 || error.status === 403)) {
          stopped = true;
          clearInterval(timer);
          onGoneRef.current(claimId);
        }
        // Network trouble: the next tick tries again.
      });
    }, every);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [claimId, leaseMs]);
}

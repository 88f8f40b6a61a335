// The judging screen's talk with the API (lib/campaign/annotate/): the next task, judgments, claim
// renewal, and the TanStack keys and queryOptions of its task queue. Browser code through the one
// API client (client.ts); the drafts kept in localStorage are in components/annotate/.

import { queryOptions } from "@tanstack/react-query";
import type { PassageContext, Task as ServerTask } from "@/lib/campaign/annotate/judging.contract";
import type { JudgmentFlag, VerdictName } from "@/lib/campaign/annotate/judgments.contract";
import type { Span } from "@/lib/kilt/words";
import type { FactLabel } from "@/lib/kilt/task-kind";
import { apiExchange, ApiError, apiRequest } from "./client";

/** One passage to judge, as the API sends it: the server's `Task`, with dates as JSON text. */
export type Task = Omit<ServerTask, "claim"> & { claim: { handle: string; expiresAt: string } };

/** A verdict as the judging page gives it: `partial` only on single passages of batches that ask for it. */
export type Verdict = VerdictName;

/** The body of POST /api/claims/:handle/judgment. */
export interface JudgmentBody {
  verdict: Verdict;
  /** A single passage's highlight; null for an evidence set. */
  span: Span | null;
  /** An evidence set's sufficient verdict: one highlight per member, in member order. */
  spans?: Span[] | null;
  unreadable: boolean;
  /** Fact checking: SUPPORTS or REFUTES with a sufficient verdict; absent or null otherwise. */
  label?: FactLabel | null;
  durationMs: number;
  idempotencyKey: string;
  /** Issue 14: a note to the coordinators and flags, both optional. */
  comment?: string | null;
  flags?: JudgmentFlag[];
}

/** What the next-task route answered: a task (with its lease as the server counts it) or nothing left (204). */
export type TaskAnswer = { kind: "task"; task: Task; leaseMs: number; receivedAt: number } | { kind: "done" };

/** The lease the server granted: its expiry minus its own clock (the Date header), so a skewed client clock does not matter. */
function leaseOf(expiresAt: string, res: Response): number {
  const serverNow = Date.parse(res.headers.get("date") ?? "");
  const now = Number.isFinite(serverNow) ? serverNow : Date.now();
  return Math.max(0, Date.parse(expiresAt) - now);
}

/** POST /api/campaigns/:id/next[?after=<claim handle>]: the live claim, or a new one other than `after`. */
export async function fetchTask(campaignId: number, after: string | null): Promise<TaskAnswer> {
  const { data: task, response } = await apiExchange<Task>(
    "POST",
    `/api/campaigns/${campaignId}/next${after === null ? "" : `?after=${encodeURIComponent(after)}`}`,
  );
  if (response.status === 204) return { kind: "done" };
  return { kind: "task", task, leaseMs: leaseOf(task.claim.expiresAt, response), receivedAt: Date.now() };
}

/** Asks the judgment route for the next task too: the one after `after` (the prefetched claim), or with none prefetched, the next one. */
export interface NextAsk {
  after: string | null;
}

/**
 * POST /api/claims/:handle/judgment: 201 stored, 200 the same idempotency key stored before. With
 * `ask` (`?next=1[&after=…]`) the answer brings the next task as well; `next` is undefined when the
 * server could not give one now (ask …/next, which says why).
 */
export async function postJudgment(claim: string, body: JudgmentBody, ask?: NextAsk): Promise<{ status: number; next?: TaskAnswer }> {
  const query = ask ? `?next=1${ask.after === null ? "" : `&after=${encodeURIComponent(ask.after)}`}` : "";
  const { data, response } = await apiExchange<{ next?: Task | null }>(
    "POST",
    `/api/claims/${encodeURIComponent(claim)}/judgment${query}`,
    body,
  );
  if (!ask || data?.next === undefined) return { status: response.status };
  const next: TaskAnswer =
    data.next === null
      ? { kind: "done" }
      : { kind: "task", task: data.next, leaseMs: leaseOf(data.next.claim.expiresAt, response), receivedAt: Date.now() };
  return { status: response.status, next };
}

/** POST /api/claims/:handle/renew: the claim's lease starts again. */
export async function renewClaim(claim: string): Promise<void> {
  await apiExchange<unknown>("POST", `/api/claims/${encodeURIComponent(claim)}/renew`);
}

/** Network failures, 5xx and 429 are tried again, up to four times. */
export function isRetryable(failures: number, error: Error): boolean {
  return error instanceof ApiError && error.retryable && failures < 4;
}

/** Every cached task of a campaign's judging screen. */
export function annotateKey(campaignId: number) {
  return ["annotate", campaignId] as const;
}

/** The TanStack Query key of "the task after claim `after`" (null: the live claim, what a reload shows). */
export function taskKey(campaignId: number, after: string | null) {
  return [...annotateKey(campaignId), "task", after ?? "live"] as const;
}

const taskDefaults = {
  staleTime: Infinity,
  gcTime: 5 * 60_000,
  refetchOnWindowFocus: false,
  refetchOnReconnect: false,
  retry: isRetryable,
  retryDelay: (attempt: number) => Math.min(500 * 2 ** attempt, 8_000),
} as const;

/** The task after claim `after` (null: the live claim). */
export function taskQuery(campaignId: number, after: string | null) {
  return queryOptions<TaskAnswer, Error>({
    queryKey: taskKey(campaignId, after),
    queryFn: () => fetchTask(campaignId, after),
    ...taskDefaults,
  });
}

/** The task after the one on screen, fetched while it is read; idle while no claim is on screen. */
export function nextTaskQuery(campaignId: number, claim: string | null) {
  return queryOptions<TaskAnswer, Error>({
    queryKey: claim === null ? [...annotateKey(campaignId), "idle"] : taskKey(campaignId, claim),
    queryFn: () => fetchTask(campaignId, claim),
    enabled: claim !== null,
    ...taskDefaults,
  });
}

export type { PassageContext };

/**
 * GET /api/claims/:handle/context: the paragraphs before and after the passage of a claim, read-only.
 * Asked for only while the annotator has the context shown (`enabled`), then kept for the claim.
 */
export function passageContextQuery(handle: string, enabled: boolean) {
  return queryOptions<PassageContext, Error>({
    queryKey: ["annotate", "context", handle] as const,
    queryFn: async () =>
      (await apiRequest<{ context: PassageContext }>("GET", `/api/claims/${encodeURIComponent(handle)}/context`)).context,
    enabled,
    ...taskDefaults,
  });
}

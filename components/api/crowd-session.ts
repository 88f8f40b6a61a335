// The crowd worker's page talking to the crowd routes (app/api/crowd/**): the entry's public face,
// entering with the platform's parameters, the session, consent and training. Every call but the
// first two goes with the worker's bearer token (client.ts: setApiCredential); the working stage
// uses the annotator API (annotation.ts) with the same token.

import { queryOptions } from "@tanstack/react-query";
import type { CrowdEntryInfo, CrowdSessionView, TrainingFeedback, TrainingItemView, TrainingSpan } from "@/lib/crowd/session.contract";
import type { FactLabel } from "@/lib/kilt/task-kind";
import { apiRequest, ApiError } from "./client";

export type {
  CrowdCompletion,
  CrowdEntryInfo,
  CrowdSessionView,
  TrainingFeedback,
  TrainingItemView,
  TrainingSpan,
} from "@/lib/crowd/session.contract";

/** The platform's query parameters, as the entry URL carried them (PROLIFIC_PID…, workerId…, or worker). */
export type EntryParams = Record<string, string>;

/** POST /api/crowd/:key/enter: a session (new, resumed, or the last one ended) and the token for it. */
export interface EnterAnswer {
  token: string;
  session: CrowdSessionView;
}

/** The body of POST /api/crowd/session/training. */
export interface TrainingAnswerBody {
  position: number;
  verdict: "sufficient" | "insufficient";
  unreadable?: boolean;
  /** Null or absent: no highlight (entity linking's sufficient verdict needs none). */
  span?: TrainingSpan | null;
  /** Fact checking: SUPPORTS or REFUTES with a sufficient verdict. */
  label?: FactLabel;
  durationMs: number;
}

export const crowdKeys = {
  all: ["crowd"] as const,
  entry: (entryKey: string) => [...crowdKeys.all, "entry", entryKey] as const,
  session: () => [...crowdKeys.all, "session"] as const,
  training: () => [...crowdKeys.all, "training"] as const,
};

const entryUrl = (entryKey: string) => `/api/crowd/${encodeURIComponent(entryKey)}`;

/** Anonymous: sent without the bearer (a stale token must not make the entry refuse). */
export function enterCrowd(entryKey: string, params: EntryParams): Promise<EnterAnswer> {
  return apiRequest<EnterAnswer>("POST", `${entryUrl(entryKey)}/enter`, params, { credential: false });
}

export function consentToCrowdSession(): Promise<CrowdSessionView> {
  return apiRequest<CrowdSessionView>("POST", "/api/crowd/session/consent");
}

export function answerTraining(body: TrainingAnswerBody): Promise<TrainingFeedback> {
  return apiRequest<TrainingFeedback>("POST", "/api/crowd/session/training", body);
}

/** 404s (entry unknown or off) and 4xx are final; only network failures and 5xx are tried again. */
const retryTransient = (failures: number, error: Error) => error instanceof ApiError && error.retryable && failures < 3;

/** GET /api/crowd/:key: what the MTurk preview shows. */
export function crowdEntryQuery(entryKey: string) {
  return queryOptions<CrowdEntryInfo, Error>({
    queryKey: crowdKeys.entry(entryKey),
    queryFn: () => apiRequest<CrowdEntryInfo>("GET", entryUrl(entryKey), undefined, { credential: false }),
    staleTime: Infinity,
    retry: retryTransient,
  });
}

/** GET /api/crowd/session (it also ends a session whose time ran out); enabled once the tab has a token. */
export function crowdSessionQuery(enabled: boolean) {
  return queryOptions<CrowdSessionView, Error>({
    queryKey: crowdKeys.session(),
    queryFn: () => apiRequest<CrowdSessionView>("GET", "/api/crowd/session"),
    enabled,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    retry: retryTransient,
  });
}

/** GET /api/crowd/session/training: the worker's next training item (null once the round is over). */
export function trainingQuery() {
  return queryOptions<{ item: TrainingItemView | null; session: CrowdSessionView }, Error>({
    queryKey: crowdKeys.training(),
    queryFn: () => apiRequest("GET", "/api/crowd/session/training"),
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
    retry: retryTransient,
  });
}

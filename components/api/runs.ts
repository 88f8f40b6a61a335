// A campaign's runs (systems' predictions scored against the campaign): key factories, `queryOptions`
// and the calls the runs pages make (the upload with progress, the delete). Pure browser code over
// components/api/client.ts, so client components may import it.
import { queryOptions } from "@tanstack/react-query";
import type { Level } from "@/lib/kilt/score/types";
import type { Leaderboard, RunQuestionDetail, RunQuestionPage, RunResults, RunView } from "@/lib/campaign/runs/runs.contract";
import { apiRequest, upload } from "./client";
import { listParams } from "./people";

export type {
  Gold,
  Leaderboard,
  PerGold,
  RunQuestionDetail,
  RunQuestionPage,
  RunQuestionRow,
  RunResults,
  RunView,
} from "@/lib/campaign/runs/runs.contract";

export interface LeaderboardParams {
  level?: Level;
  ks?: number[];
}

export interface RunQuestionParams {
  q?: string;
  after?: number;
  limit?: number;
  level?: Level;
}

/** TanStack Query keys of a campaign's runs; everything sits under `all(campaignId)`, so an upload or delete invalidates it all. */
export const runKeys = {
  all: (campaignId: number) => ["campaigns", campaignId, "runs"] as const,
  list: (campaignId: number) => ["campaigns", campaignId, "runs", "list"] as const,
  leaderboard: (campaignId: number, params: LeaderboardParams) => ["campaigns", campaignId, "runs", "leaderboard", params] as const,
  questions: (campaignId: number, runId: number, params: RunQuestionParams) =>
    ["campaigns", campaignId, "runs", runId, "questions", params] as const,
  question: (campaignId: number, runId: number, kiltId: string, level: Level) =>
    ["campaigns", campaignId, "runs", runId, "question", kiltId, level] as const,
};

const base = (campaignId: number) => `/api/campaigns/${campaignId}`;

/** The URL of a run's results download (`run-<name>-scores.json`), for a plain link. */
export const runResultsUrl = (campaignId: number, runId: number) => `${base(campaignId)}/runs/${runId}/results`;

export const runsQuery = (campaignId: number) =>
  queryOptions({
    queryKey: runKeys.list(campaignId),
    queryFn: () => apiRequest<{ runs: RunView[] }>("GET", `${base(campaignId)}/runs`).then((d) => d.runs),
    staleTime: 0,
  });

/** The leaderboard, computed from the campaign's current outcomes at every read: read again whenever shown. */
export const leaderboardQuery = (campaignId: number, params: LeaderboardParams = {}) =>
  queryOptions({
    queryKey: runKeys.leaderboard(campaignId, params),
    queryFn: () =>
      apiRequest<Leaderboard>("GET", `${base(campaignId)}/leaderboard${listParams({ level: params.level, ks: params.ks?.join(",") })}`),
    staleTime: 0,
  });

export const runQuestionsQuery = (campaignId: number, runId: number, params: RunQuestionParams = {}) =>
  queryOptions({
    queryKey: runKeys.questions(campaignId, runId, params),
    queryFn: () => apiRequest<RunQuestionPage>("GET", `${base(campaignId)}/runs/${runId}/questions${listParams(params)}`),
    staleTime: 0,
  });

export const runQuestionQuery = (campaignId: number, runId: number, kiltId: string, level: Level = "page") =>
  queryOptions({
    queryKey: runKeys.question(campaignId, runId, kiltId, level),
    queryFn: () =>
      apiRequest<RunQuestionDetail>(
        "GET",
        `${base(campaignId)}/runs/${runId}/questions/${encodeURIComponent(kiltId)}${listParams({ level })}`,
      ),
    staleTime: 0,
  });

export const runResultsQuery = (campaignId: number, runId: number) =>
  queryOptions({
    queryKey: [...runKeys.all(campaignId), runId, "results"] as const,
    queryFn: () => apiRequest<RunResults>("GET", runResultsUrl(campaignId, runId)),
    staleTime: 0,
  });

type UploadHandlers = Parameters<typeof upload>[2];

/** POST /api/campaigns/:id/runs: `name` and the `guess` file (JSONL, optionally gzip); put `name` first in the FormData. 422 `ApiError.problems` name file, line and field. */
export const uploadRun = (campaignId: number, body: FormData, handlers: UploadHandlers = {}) =>
  upload<{ run: RunView }>(`${base(campaignId)}/runs`, body, handlers).then((d) => d.run);

/** A FormData of an upload, fields before the file (the server reads them in order). */
export function runUploadForm(name: string, guess: Blob, fileName = "guess.jsonl"): FormData {
  const form = new FormData();
  form.set("name", name);
  form.set("guess", guess, fileName);
  return form;
}

export const deleteRun = (campaignId: number, runId: number) => apiRequest<void>("DELETE", `${base(campaignId)}/runs/${runId}`);

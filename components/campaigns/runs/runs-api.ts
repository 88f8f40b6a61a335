// TEMPORARY: the runs API's shapes and calls as the brief states them, until lib/query/runs.ts
// (branch h-runs) lands; then these go and the components import it instead.
import { queryOptions } from "@tanstack/react-query";
import { apiRequest, upload } from "@/lib/query/client";

export type Level = "page" | "paragraph";
export type Gold = "original" | "endorsed" | "both";

export interface KiltResult {
  page?: Record<string, number>;
  paragraph?: Record<string, number>;
  downstream?: { kilt: Record<string, number>; downstream: Record<string, number>; retrieval: Record<string, number> };
}

export interface RunView {
  id: number;
  name: string;
  createdAt: string;
  createdBy: string | number | null;
  questions: number;
  hasProvenance: boolean;
  hasAnswers: boolean;
}

export interface Leaderboard {
  level: Level;
  ks: number[];
  golds: Record<Gold, { questions: number }>;
  computedAt: string;
  rows: { run: RunView; scores: Record<Gold, KiltResult> }[];
}

export interface RankDetail {
  sets: { index: number; members: string[] }[];
  ranked: { position: number; key: string; title: string | null; sets: number[] }[];
  firstCompleteRank: number | null;
  rprec: number;
}

export interface RunQuestionRow {
  kiltId: string;
  input: string;
  rprec: Record<Gold, number | null>;
  firstCompleteRank: Record<Gold, number | null>;
}

export interface RunQuestionPage {
  questions: RunQuestionRow[];
  next: string | number | null;
}

export interface RunQuestionDetail {
  question: { kiltId: string; input: string; answers: string[] };
  guess: { answer: string | null; ranked: unknown };
  golds: Record<Gold, RankDetail | null>;
}

export const runKeys = {
  all: (campaignId: number) => ["campaigns", campaignId, "runs"] as const,
  list: (campaignId: number) => ["campaigns", campaignId, "runs", "list"] as const,
  leaderboard: (campaignId: number, level: Level) => ["campaigns", campaignId, "runs", "leaderboard", level] as const,
  questions: (campaignId: number, runId: number, params: { q?: string; after?: string | number }) => ["campaigns", campaignId, "runs", runId, "questions", params] as const,
  question: (campaignId: number, runId: number, kiltId: string, level: Level) => ["campaigns", campaignId, "runs", runId, "question", kiltId, level] as const,
};

const base = (campaignId: number) => `/api/campaigns/${campaignId}`;

function search(params: Record<string, string | number | undefined>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== "") p.set(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : "";
}

export const runsQuery = (campaignId: number) =>
  queryOptions({
    queryKey: runKeys.list(campaignId),
    queryFn: () => apiRequest<{ runs: RunView[] }>("GET", `${base(campaignId)}/runs`).then((d) => d.runs),
  });

export const leaderboardQuery = (campaignId: number, level: Level) =>
  queryOptions({
    queryKey: runKeys.leaderboard(campaignId, level),
    queryFn: () => apiRequest<Leaderboard>("GET", `${base(campaignId)}/leaderboard${search({ level, ks: "1,5" })}`),
  });

export const runQuestionsQuery = (campaignId: number, runId: number, params: { q?: string; after?: string | number }) =>
  queryOptions({
    queryKey: runKeys.questions(campaignId, runId, params),
    queryFn: () => apiRequest<RunQuestionPage>("GET", `${base(campaignId)}/runs/${runId}/questions${search({ ...params, limit: 50 })}`),
  });

export const runQuestionQuery = (campaignId: number, runId: number, kiltId: string, level: Level) =>
  queryOptions({
    queryKey: runKeys.question(campaignId, runId, kiltId, level),
    queryFn: () => apiRequest<RunQuestionDetail>("GET", `${base(campaignId)}/runs/${runId}/questions/${encodeURIComponent(kiltId)}${search({ level })}`),
  });

export const uploadRun = (campaignId: number, body: FormData, handlers: { onProgress?: (loaded: number, total: number) => void; onSent?: () => void }) =>
  upload<{ run: RunView }>(`${base(campaignId)}/runs`, body, handlers);

export const deleteRun = (campaignId: number, runId: number) => apiRequest<void>("DELETE", `${base(campaignId)}/runs/${runId}`);

/** Where the run's scores download (the evaluator's JSON against the three golds). */
export const runResultsUrl = (campaignId: number, runId: number) => `${base(campaignId)}/runs/${runId}/results`;

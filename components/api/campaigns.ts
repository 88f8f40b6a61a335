// The coordinator's campaign queries (key factories and `queryOptions`) and the calls its screens
// make: settings, membership, batch lifecycle, annotator standing, imports with upload progress.
// Pure browser code over components/api/client.ts, so client components may import it.
import { queryOptions } from "@tanstack/react-query";
import type { BatchAction, BatchView } from "@/lib/campaign/batches.contract";
import type { BatchImportResult } from "@/lib/campaign/import/import-batch.contract";
import type { KnowledgeImportResult } from "@/lib/knowledge/knowledge.contract";
import type { AnnotatorRow } from "@/lib/campaign/report/annotators.contract";
import type { Dashboard } from "@/lib/campaign/report/dashboard.contract";
import type { AnnotatorSort } from "@/lib/list-options.contract";
import { apiRequest, upload, type UploadHandlers } from "./client";
import { listParams, type ListPageParams } from "./people";

/** A campaign as a picker lists it. */
export interface CampaignOption {
  id: number;
  name: string;
}

/** Who works on a campaign (GET /api/campaigns/:id, the fields the membership form reads). */
export interface CampaignMembers {
  id: number;
  name: string;
  allAnnotators: boolean;
  memberIds: number[];
}

/** TanStack Query keys of campaigns; everything about one campaign sits under `detail(id)`. */
export const campaignKeys = {
  all: () => ["campaigns"] as const,
  list: () => ["campaigns", "list"] as const,
  detail: (id: number) => ["campaigns", id] as const,
  dashboard: (id: number) => ["campaigns", id, "dashboard"] as const,
  batches: (id: number, params: ListPageParams) => ["campaigns", id, "batches", params] as const,
  annotators: (id: number, params: AnnotatorPageParams) => ["campaigns", id, "annotators", params] as const,
};

/** A batch as the campaign page's table shows it. */
export type BatchRow = Pick<
  BatchView,
  "id" | "name" | "status" | "taskKind" | "dataset" | "queries" | "passages" | "goldPassages" | "pages"
>;

/** A page of a campaign's batches, newest first, as GET /api/campaigns/:id/batches answers. */
export interface BatchPage {
  batches: BatchRow[];
  next: number | null;
}

/** Which page of a campaign's annotators: sorted by `sort` in `dir` order (ties by user id), `after` the user id ending the page before. */
export interface AnnotatorPageParams extends ListPageParams {
  sort?: AnnotatorSort;
  dir?: "asc" | "desc";
}

/** A page of a campaign's annotators, as GET /api/campaigns/:id/annotators answers. */
export interface AnnotatorPage {
  annotators: AnnotatorRow[];
  next: number | null;
}

/** How often the dashboard refreshes itself. */
export const DASHBOARD_REFRESH_MS = 5_000;

/** The newest campaigns whose name contains `q` (the first page of GET /api/campaigns), for a picker. */
export const campaignsQuery = (q = "") =>
  queryOptions({
    queryKey: [...campaignKeys.list(), q] as const,
    queryFn: () => apiRequest<{ campaigns: CampaignOption[] }>("GET", `/api/campaigns${listParams({ q })}`).then((d) => d.campaigns),
  });

export const campaignMembersQuery = (id: number) =>
  queryOptions({
    queryKey: campaignKeys.detail(id),
    queryFn: () => apiRequest<{ campaign: CampaignMembers }>("GET", `/api/campaigns/${id}`).then((d) => d.campaign),
  });

export const dashboardQuery = (id: number) =>
  queryOptions({
    queryKey: campaignKeys.dashboard(id),
    queryFn: () => apiRequest<{ dashboard: Dashboard }>("GET", `/api/campaigns/${id}/dashboard`).then((d) => d.dashboard),
    refetchInterval: DASHBOARD_REFRESH_MS,
    staleTime: 0,
  });

export const batchesQuery = (id: number, params: ListPageParams = {}) =>
  queryOptions({
    queryKey: campaignKeys.batches(id, params),
    queryFn: () => apiRequest<BatchPage>("GET", `/api/campaigns/${id}/batches${listParams(params)}`),
    // Batches change from other screens (the import) and the CLI: read again whenever the page is shown.
    staleTime: 0,
  });

/** One page of the annotators table, refreshed with the dashboard: the refresh reads the same page again. */
export const annotatorsQuery = (id: number, params: AnnotatorPageParams = {}) =>
  queryOptions({
    queryKey: campaignKeys.annotators(id, params),
    queryFn: () => apiRequest<AnnotatorPage>("GET", `/api/campaigns/${id}/annotators${listParams(params)}`),
    refetchInterval: DASHBOARD_REFRESH_MS,
    staleTime: 0,
  });

type Saved = { campaign: { id: number } };

export const createCampaign = (values: Record<string, unknown>) => apiRequest<Saved>("POST", "/api/campaigns", values);

export const updateCampaign = (id: number, changed: Record<string, unknown>) => apiRequest<Saved>("PATCH", `/api/campaigns/${id}`, changed);

export const saveMembers = (id: number, input: { allAnnotators: boolean; userIds: number[] }) =>
  apiRequest<{ campaign: CampaignMembers }>("PUT", `/api/campaigns/${id}/members`, input);

export const changeBatch = (id: number, action: BatchAction) => apiRequest<{ batch: unknown }>("POST", `/api/batches/${id}/${action}`, {});

export const changeAnnotator = (campaignId: number, userId: number, action: "pause" | "resume") =>
  apiRequest<unknown>("POST", `/api/campaigns/${campaignId}/annotators/${userId}/${action}`, {});

/** POST /api/knowledge: a knowledge-source file, optionally with the files whose citations it keeps. */
export const importKnowledge = (body: FormData, handlers: UploadHandlers) =>
  upload<KnowledgeImportResult>("/api/knowledge", body, handlers);

/** POST /api/campaigns/:id/batches: questions and optional candidates as a draft batch. */
export const importBatch = (campaignId: number, body: FormData, handlers: UploadHandlers) =>
  upload<BatchImportResult>(`/api/campaigns/${campaignId}/batches`, body, handlers);

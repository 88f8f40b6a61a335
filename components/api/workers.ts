// The payment report's query (key factory and `queryOptions`) and its download addresses. Pure
// browser code over components/api/client.ts, so client components may import it.
import { queryOptions } from "@tanstack/react-query";
import type { WorkerOutcomeFilter, WorkerReportFormat, WorkerSessionRow } from "@/lib/crowd/workers-report.contract";
import { apiRequest } from "./client";
import { listParams, type ListPageParams } from "./people";

/** Which page of a campaign's crowd sessions: `q` a part of the platform worker id, `outcome` one outcome (or `open`), `after` the session id ending the page before. */
export interface WorkerPageParams extends ListPageParams {
  outcome?: WorkerOutcomeFilter;
}

/** A page of the payment report, as GET /api/campaigns/:id/workers answers. */
export interface WorkerPage {
  workers: WorkerSessionRow[];
  next: number | null;
}

/** TanStack Query keys of the payment report, under the campaign's `["campaigns", id]`. */
export const workerKeys = {
  all: (campaignId: number) => ["campaigns", campaignId, "workers"] as const,
  page: (campaignId: number, params: WorkerPageParams) => ["campaigns", campaignId, "workers", params] as const,
};

/** GET /api/campaigns/:id/workers: one page of the report. */
export const fetchWorkerPage = (campaignId: number, params: WorkerPageParams = {}) =>
  apiRequest<WorkerPage>("GET", `/api/campaigns/${campaignId}/workers${listParams(params)}`);

/** One page of the report; read again whenever it is shown (sessions end while the coordinator looks). */
export const workersQuery = (campaignId: number, params: WorkerPageParams = {}) =>
  queryOptions({
    queryKey: workerKeys.page(campaignId, params),
    queryFn: () => fetchWorkerPage(campaignId, params),
    staleTime: 0,
  });

/** The address of the whole report as a download, with the search and outcome filter on screen. */
export const workersDownloadUrl = (campaignId: number, format: WorkerReportFormat, params: Pick<WorkerPageParams, "q" | "outcome"> = {}) =>
  `/api/campaigns/${campaignId}/workers${listParams({ format, q: params.q, outcome: params.outcome })}`;

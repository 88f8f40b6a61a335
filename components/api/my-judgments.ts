// The annotator's own judgments: the history page's pages and revising a judgment (undo on the
// judging page too). Browser code through the one API client.

import { infiniteQueryOptions } from "@tanstack/react-query";
import type { MyJudgment, MyJudgmentsFilter, RevisedJudgmentView } from "@/lib/campaign/annotate/judgments.contract";
import type { JudgmentBody } from "./annotate";
import { apiRequest } from "./client";

export type { MyJudgment, MyJudgmentsFilter };

/** The body of PUT /api/claims/:handle/judgment: the new version and the revision it replaces. */
export type RevisionBody = JudgmentBody & { revision: number };

/** A revised judgment as the API answers it (dates as JSON text). */
export type RevisedJudgment = Omit<RevisedJudgmentView, "createdAt" | "revisedAt"> & { createdAt: string; revisedAt: string | null };

export const myJudgmentKeys = {
  all: (campaignId: number) => ["my-judgments", campaignId] as const,
  filtered: (campaignId: number, filter: MyJudgmentsFilter) => ["my-judgments", campaignId, filter] as const,
};

/** PUT /api/claims/:handle/judgment: 200 with the judgment at its new revision; 409 says why it cannot change. */
export async function putRevision(claim: string, body: RevisionBody): Promise<RevisedJudgment> {
  const { judgment } = await apiRequest<{ judgment: RevisedJudgment }>("PUT", `/api/claims/${encodeURIComponent(claim)}/judgment`, body);
  return judgment;
}

interface MyJudgmentsPage {
  judgments: MyJudgment[];
  next: string | null;
}

/** The query string of a page of the history: the filter, and `after` the claim handle ending the page before. */
function myJudgmentsSearch(filter: MyJudgmentsFilter, after: string | null): string {
  const p = new URLSearchParams();
  if (filter.verdict) p.set("verdict", filter.verdict);
  if (filter.q) p.set("q", filter.q);
  if (after) p.set("after", after);
  const s = p.toString();
  return s ? `?${s}` : "";
}

/** GET /api/campaigns/:id/my-judgments?verdict=&q=, page after page. */
export function myJudgmentsQuery(campaignId: number, filter: MyJudgmentsFilter = {}) {
  return infiniteQueryOptions({
    queryKey: myJudgmentKeys.filtered(campaignId, filter),
    queryFn: ({ pageParam }) =>
      apiRequest<MyJudgmentsPage>("GET", `/api/campaigns/${campaignId}/my-judgments${myJudgmentsSearch(filter, pageParam)}`),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
  });
}

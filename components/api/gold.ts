// The dashboard's gold queries: suspect decoys (GET /api/campaigns/:id/suspect-decoys). Browser code.
import { queryOptions } from "@tanstack/react-query";
import type { SuspectDecoys } from "@/lib/campaign/quality/suspect-decoys.contract";
import { apiRequest } from "./client";

/** Suspect decoys change only as judgments arrive: refreshed every 30 s, under the campaign's key. */
export const suspectDecoysQuery = (campaignId: number) =>
  queryOptions({
    queryKey: ["campaigns", campaignId, "suspect-decoys"] as const,
    queryFn: () => apiRequest<SuspectDecoys>("GET", `/api/campaigns/${campaignId}/suspect-decoys?limit=20`),
    refetchInterval: 30_000,
  });

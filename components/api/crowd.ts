// The crowd entry's queries (key factories and `queryOptions`) and the call its settings form makes.
// Pure browser code over components/api/client.ts, so client components may import it.
import { queryOptions } from "@tanstack/react-query";
import type { CrowdSettingsAnswer, UpdateCrowdSettingsInput } from "@/lib/crowd/settings.contract";
import { apiRequest } from "./client";
import { campaignKeys } from "./campaigns";

/** TanStack Query keys of a campaign's crowd entry (under the campaign's own key, so its invalidation covers them). */
export const crowdKeys = {
  settings: (campaignId: number) => [...campaignKeys.detail(campaignId), "crowd"] as const,
};

/** GET /api/campaigns/:id/crowd: the settings, codes and the entry URL to paste into the platform. */
export const crowdSettingsQuery = (campaignId: number) =>
  queryOptions({
    queryKey: crowdKeys.settings(campaignId),
    queryFn: () => apiRequest<{ crowd: CrowdSettingsAnswer }>("GET", `/api/campaigns/${campaignId}/crowd`).then((d) => d.crowd),
  });

/** PUT /api/campaigns/:id/crowd with the changed settings; answers the settings as stored. */
export const saveCrowdSettings = (campaignId: number, changed: UpdateCrowdSettingsInput | Record<string, unknown>) =>
  apiRequest<{ crowd: CrowdSettingsAnswer }>("PUT", `/api/campaigns/${campaignId}/crowd`, changed).then((d) => d.crowd);

import { createCampaign, listCampaigns } from "@/lib/campaign/campaigns";
import { createCampaignSchema } from "@/lib/campaign/settings.contract";
import { campaignListQuerySchema } from "@/lib/list-options.contract";
import { json, readJson, requestContext, route } from "@/app/_server/http";
import { pagedListRoute } from "@/app/_server/paged-list";

// GET /api/campaigns — campaigns newest first with their size, a page at a time (?q=, ?after=, ?limit=) (coordinators)
export const GET = pagedListRoute("campaigns", campaignListQuerySchema, listCampaigns);

// POST /api/campaigns — creates a campaign with its settings (defaults: R 3, T 2, …)
export const POST = route(async (req) => {
  const { db, actor } = await requestContext(req);
  const input = await readJson(req, createCampaignSchema);
  return json({ campaign: await createCampaign(db, actor, input) }, 201);
});

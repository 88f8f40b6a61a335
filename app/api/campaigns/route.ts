import { createCampaign, listCampaigns } from "@/lib/campaign/campaigns";
import { createCampaignSchema } from "@/lib/campaign/settings";
import { parseInput } from "@/lib/errors";
import { campaignListQuerySchema, searchParamsObject } from "@/lib/lists/list-options";
import { json, readJson, requestContext, route } from "@/lib/server/http";

// GET /api/campaigns — campaigns newest first with their size, a page at a time (?q=, ?after=, ?limit=) (coordinators)
export const GET = route(async (req) => {
  const { db, actor } = await requestContext(req);
  const query = parseInput(campaignListQuerySchema, searchParamsObject(new URL(req.url).searchParams), "query string");
  const page = await listCampaigns(db, actor, query);
  return json({ campaigns: page.rows, next: page.next });
});

// POST /api/campaigns — creates a campaign with its settings (defaults: R 3, T 2, …)
export const POST = route(async (req) => {
  const { db, actor } = await requestContext(req);
  const input = await readJson(req, createCampaignSchema);
  return json({ campaign: await createCampaign(db, actor, input) }, 201);
});

import { createCampaign, listCampaigns } from "@/lib/campaign/campaigns";
import { createCampaignSchema } from "@/lib/campaign/settings";
import { json, readJson, requestContext, route } from "@/lib/server/http";

// GET /api/campaigns — every campaign with its size (coordinators)
export const GET = route(async (req) => {
  const { db, actor } = await requestContext(req);
  return json({ campaigns: await listCampaigns(db, actor) });
});

// POST /api/campaigns — creates a campaign with its settings (defaults: R 3, T 2, …)
export const POST = route(async (req) => {
  const { db, actor } = await requestContext(req);
  const input = await readJson(req, createCampaignSchema);
  return json({ campaign: await createCampaign(db, actor, input) }, 201);
});

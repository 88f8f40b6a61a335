import { getCampaign, updateCampaign } from "@/lib/campaign/campaigns";
import { updateCampaignSchema } from "@/lib/campaign/settings.contract";
import { json, readJson, requestContext, route } from "@/app/_server/http";
import { idParam, type IdContext } from "@/app/_server/route-params";

// GET /api/campaigns/:id — a campaign's settings and members (coordinators)
export const GET = route(async (req, ctx: IdContext) => {
  const { db, actor } = await requestContext(req);
  return json({ campaign: await getCampaign(db, actor, await idParam(ctx)) });
});

// PATCH /api/campaigns/:id — changes settings (only the fields sent)
export const PATCH = route(async (req, ctx: IdContext) => {
  const { db, actor } = await requestContext(req);
  const id = await idParam(ctx);
  const input = await readJson(req, updateCampaignSchema);
  return json({ campaign: await updateCampaign(db, actor, id, input) });
});

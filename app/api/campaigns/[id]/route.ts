import { getCampaign, updateCampaign } from "@/lib/campaign/campaigns";
import { updateCampaignSchema } from "@/lib/campaign/settings.contract";
import { json, readJson } from "@/app/_server/http";
import { idRoute } from "@/app/_server/route-params";

// GET /api/campaigns/:id — a campaign's settings and members (coordinators)
export const GET = idRoute(async (_req, { db, actor, id }) => json({ campaign: await getCampaign(db, actor, id) }));

// PATCH /api/campaigns/:id — changes settings (only the fields sent)
export const PATCH = idRoute(async (req, { db, actor, id }) => {
  const input = await readJson(req, updateCampaignSchema);
  return json({ campaign: await updateCampaign(db, actor, id, input) });
});

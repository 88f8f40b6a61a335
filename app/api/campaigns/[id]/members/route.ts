import { setCampaignMembers } from "@/lib/campaign/campaigns";
import { membersSchema } from "@/lib/campaign/settings.contract";
import { json, readJson, requestContext, route } from "@/app/_server/http";
import { idParam, type IdContext } from "@/app/_server/route-params";

// PUT /api/campaigns/:id/members — who works on the campaign: {allAnnotators, userIds}
export const PUT = route(async (req, ctx: IdContext) => {
  const { db, actor } = await requestContext(req);
  const id = await idParam(ctx);
  const input = await readJson(req, membersSchema);
  return json({ campaign: await setCampaignMembers(db, actor, id, input) });
});

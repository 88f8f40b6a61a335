import { getLeaderboard } from "@/lib/campaign/runs/leaderboard";
import { leaderboardQuerySchema } from "@/lib/campaign/runs/runs.contract";
import { json, requestContext, route } from "@/app/_server/http";
import { readQuery } from "@/app/_server/paged-list";
import { idParam, type IdContext } from "@/app/_server/route-params";

// GET /api/campaigns/:id/leaderboard?level=page|paragraph&ks=1,5,10 — every run scored against the original, endorsed and both golds, computed from the campaign's outcomes now (coordinators)
export const GET = route(async (req, ctx: IdContext) => {
  const { db, actor } = await requestContext(req);
  const campaignId = await idParam(ctx);
  return json(await getLeaderboard(db, actor, { campaignId, ...readQuery(req, leaderboardQuerySchema) }));
});

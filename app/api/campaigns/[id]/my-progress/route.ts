import { getMyProgress } from "@/lib/campaign/annotate/my-progress";
import { requireCrowdWorkOpen } from "@/lib/crowd/work";
import { json, requestContext, route } from "@/app/_server/http";
import { idParam, type IdContext } from "@/app/_server/route-params";

// GET /api/campaigns/:id/my-progress — the caller's own progress in a campaign they judge (annotators only; nothing of gold or others' work)
export const GET = route(async (req, ctx: IdContext) => {
  const { db, actor } = await requestContext(req);
  const campaignId = await idParam(ctx);
  await requireCrowdWorkOpen(db, actor);
  return json({ progress: await getMyProgress(db, actor, campaignId) });
});

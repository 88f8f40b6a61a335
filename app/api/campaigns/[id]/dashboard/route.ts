import { getDashboard } from "@/lib/campaign/report/dashboard";
import { json, requestContext, route } from "@/app/_server/http";
import { idParam, type IdContext } from "@/app/_server/route-params";

// GET /api/campaigns/:id/dashboard — progress, activity, agreement and questions (coordinators; the annotators: GET …/annotators)
export const GET = route(async (req, ctx: IdContext) => {
  const { db, actor } = await requestContext(req);
  return json({ dashboard: await getDashboard(db, actor, await idParam(ctx)) });
});

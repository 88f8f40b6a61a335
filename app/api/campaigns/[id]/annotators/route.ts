import { listStandings } from "@/lib/campaign/quality/standings";
import { json, requestContext, route } from "@/lib/server/http";
import { idParam, type IdContext } from "@/lib/server/route-params";

// GET /api/campaigns/:id/annotators — annotators with judgments, gold figures and standing (coordinators)
export const GET = route(async (req, ctx: IdContext) => {
  const { db, actor } = await requestContext(req);
  return json({ annotators: await listStandings(db, actor, await idParam(ctx)) });
});

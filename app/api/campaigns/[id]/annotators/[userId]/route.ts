import { getAnnotatorDetail } from "@/lib/campaign/report/annotator-detail";
import { json, requestContext, route } from "@/app/_server/http";
import { annotatorParam, type AnnotatorContext } from "@/app/_server/route-params";

// GET /api/campaigns/:id/annotators/:userId — one annotator's figures, warnings, speed histogram and agreement per day (coordinators)
export const GET = route(async (req, ctx: AnnotatorContext) => {
  const { db, actor } = await requestContext(req);
  const { id, userId } = await annotatorParam(ctx);
  return json({ annotator: await getAnnotatorDetail(db, actor, id, userId) });
});

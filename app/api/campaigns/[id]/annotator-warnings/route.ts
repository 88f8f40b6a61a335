import { listAnnotatorWarnings } from "@/lib/campaign/report/annotator-detail";
import { json, requestContext, route } from "@/app/_server/http";
import { idParam, type IdContext } from "@/app/_server/route-params";

// GET /api/campaigns/:id/annotator-warnings — annotators too fast or agreeing too little, by the campaign's thresholds (coordinators)
export const GET = route(async (req, ctx: IdContext) => {
  const { db, actor } = await requestContext(req);
  return json(await listAnnotatorWarnings(db, actor, await idParam(ctx)));
});

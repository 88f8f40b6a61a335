import { adjudicationListQuerySchema, listAdjudications } from "@/lib/campaign/quality/adjudication";
import { parseInput } from "@/lib/errors";
import { json, requestContext, route } from "@/app/_server/http";
import { idParam, type IdContext } from "@/app/_server/route-params";

// GET /api/campaigns/:id/adjudications — the coordinator's decisions, newest first (?queryId=, ?reverted=1 for reverted ones too) (coordinators)
export const GET = route(async (req, ctx: IdContext) => {
  const { db, actor } = await requestContext(req);
  const campaignId = await idParam(ctx);
  const query = parseInput(adjudicationListQuerySchema, Object.fromEntries(new URL(req.url).searchParams), "query string");
  return json({ adjudications: await listAdjudications(db, actor, campaignId, query) });
});

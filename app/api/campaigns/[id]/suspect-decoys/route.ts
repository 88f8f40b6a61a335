import { listSuspectDecoys, suspectDecoysQuerySchema } from "@/lib/campaign/quality/suspect-decoys";
import { parseInput } from "@/lib/errors";
import { json, requestContext, route } from "@/app/_server/http";
import { idParam, type IdContext } from "@/app/_server/route-params";

// GET /api/campaigns/:id/suspect-decoys — decoys that T annotators in good standing judged sufficient (?limit=) (coordinators)
export const GET = route(async (req, ctx: IdContext) => {
  const { db, actor } = await requestContext(req);
  const campaignId = await idParam(ctx);
  const query = parseInput(suspectDecoysQuerySchema, Object.fromEntries(new URL(req.url).searchParams), "query string");
  return json(await listSuspectDecoys(db, actor, campaignId, query));
});

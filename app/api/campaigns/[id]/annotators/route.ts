import { listStandings } from "@/lib/campaign/quality/standings";
import { parseInput } from "@/lib/errors";
import { annotatorListQuerySchema, searchParamsObject } from "@/lib/lists/list-options";
import { json, requestContext, route } from "@/lib/server/http";
import { idParam, type IdContext } from "@/lib/server/route-params";

// GET /api/campaigns/:id/annotators — annotators with judgments, gold figures and standing, sorted by any column, a page at a time (?sort=, ?dir=, ?q=, ?after=, ?limit=) (coordinators)
export const GET = route(async (req, ctx: IdContext) => {
  const { db, actor } = await requestContext(req);
  const campaignId = await idParam(ctx);
  const query = parseInput(annotatorListQuerySchema, searchParamsObject(new URL(req.url).searchParams), "query string");
  const page = await listStandings(db, actor, campaignId, query);
  return json({ annotators: page.rows, next: page.next });
});

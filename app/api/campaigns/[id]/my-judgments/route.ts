import { listMyJudgments, myJudgmentsQuerySchema } from "@/lib/campaign/annotate/my-judgments";
import { json, requestContext, route } from "@/app/_server/http";
import { readQuery } from "@/app/_server/paged-list";
import { idParam, type IdContext } from "@/app/_server/route-params";

// GET /api/campaigns/:id/my-judgments?verdict=&q=&after=&limit= — the caller's own judgments in the campaign, newest first
// ({judgments, next}: `next` the claim handle to pass as `after`, null on the last page) (annotators of the campaign)
export const GET = route(async (req, ctx: IdContext) => {
  const { db, actor } = await requestContext(req);
  const campaignId = await idParam(ctx);
  const page = await listMyJudgments(db, actor, campaignId, readQuery(req, myJudgmentsQuerySchema));
  return json({ judgments: page.rows, next: page.next });
});

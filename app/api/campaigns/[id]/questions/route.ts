import { listQuestions } from "@/lib/campaign/report/question-list";
import { questionListQuerySchema } from "@/lib/campaign/report/question-list-options";
import { parseInput } from "@/lib/errors";
import { json, requestContext, route } from "@/app/_server/http";
import { idParam, type IdContext } from "@/app/_server/route-params";

// GET /api/campaigns/:id/questions — questions by outcome so far (?show=, ?q=, ?after=, ?limit=) (coordinators)
export const GET = route(async (req, ctx: IdContext) => {
  const { db, actor } = await requestContext(req);
  const campaignId = await idParam(ctx);
  const query = parseInput(questionListQuerySchema, Object.fromEntries(new URL(req.url).searchParams), "query string");
  return json(await listQuestions(db, actor, campaignId, query));
});

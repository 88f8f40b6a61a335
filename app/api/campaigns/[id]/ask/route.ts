import { getAsk } from "@/lib/campaign/annotate/ask";
import { json, requestContext, route } from "@/app/_server/http";
import { idParam, type IdContext } from "@/app/_server/route-params";

// GET /api/campaigns/:id/ask — the question the caller owes another passage or an explanation for (they judged all its passages not sufficient), or null (annotators; crowd workers: null)
export const GET = route(async (req, ctx: IdContext) => {
  const { db, actor } = await requestContext(req);
  return json({ ask: await getAsk(db, actor, await idParam(ctx)) });
});

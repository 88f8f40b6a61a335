import { getPassageContext } from "@/lib/campaign/annotate/passage-context";
import { requireCrowdWorkOpen } from "@/lib/crowd/work";
import { json, requestContext, route } from "@/app/_server/http";
import { claimHandleParam, type HandleContext } from "@/app/_server/route-params";

// GET /api/claims/:handle/context — the paragraphs before and after the claim's passage (read-only context; the claim's annotator, or a coordinator)
export const GET = route(async (req, ctx: HandleContext) => {
  const { db, actor } = await requestContext(req);
  const handle = await claimHandleParam(ctx);
  await requireCrowdWorkOpen(db, actor);
  return json({ context: await getPassageContext(db, actor, handle) });
});

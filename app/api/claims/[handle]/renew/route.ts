import { renewClaim } from "@/lib/campaign/annotate/assignment";
import { requireCrowdWorkOpen } from "@/lib/crowd/work";
import { json, readEmptyBody, requestContext, route } from "@/app/_server/http";
import { claimHandleParam, type HandleContext } from "@/app/_server/route-params";

// POST /api/claims/:handle/renew — extends the caller's live claim by the campaign's lease; 410 once expired or ended;
// 409 `sessionEnded` once the crowd worker's session is over (its time, a stopped study: its claims were freed)
export const POST = route(async (req, ctx: HandleContext) => {
  const { db, actor } = await requestContext(req);
  await readEmptyBody(req);
  const handle = await claimHandleParam(ctx);
  await requireCrowdWorkOpen(db, actor);
  return json({ claim: await renewClaim(db, actor, handle) });
});

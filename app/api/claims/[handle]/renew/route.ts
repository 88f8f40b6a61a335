import { claimHandleParam, renewClaim } from "@/lib/campaign/annotate/assignment";
import { json, readEmptyBody, requestContext, route } from "@/lib/server/http";

type HandleContext = { params: Promise<{ handle: string }> };

// POST /api/claims/:handle/renew — extends the caller's live claim by the campaign's lease; 410 once expired or ended
export const POST = route(async (req, ctx: HandleContext) => {
  const { db, actor } = await requestContext(req);
  await readEmptyBody(req);
  return json({ claim: await renewClaim(db, actor, await claimHandleParam(ctx)) });
});

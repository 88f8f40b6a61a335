import { renewClaim } from "@/lib/campaign/annotate/assignment";
import { json, readEmptyBody, requestContext, route } from "@/lib/server/http";
import { idParam, type IdContext } from "@/lib/server/route-params";

// POST /api/claims/:id/renew — extends the caller's live claim by the campaign's lease; 410 once expired
export const POST = route(async (req, ctx: IdContext) => {
  const { db, actor } = await requestContext(req);
  await readEmptyBody(req);
  return json({ claim: await renewClaim(db, actor, await idParam(ctx)) });
});

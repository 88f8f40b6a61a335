import { renewClaim } from "@/lib/campaign/assignment";
import { json, readEmptyBody, requestContext, route } from "@/lib/http";
import { idParam, type IdContext } from "@/lib/route-params";

// POST /api/claims/:id/renew — extends the caller's live claim by the campaign's lease; 410 once expired
export const POST = route(async (req, ctx: IdContext) => {
  const { db, actor } = await requestContext(req);
  await readEmptyBody(req);
  return json({ claim: await renewClaim(db, actor, await idParam(ctx)) });
});

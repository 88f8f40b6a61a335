import { revokeApiToken } from "@/lib/auth/api-tokens";
import { json, readEmptyBody, requestContext, route } from "@/app/_server/http";
import { idParam, type IdContext } from "@/app/_server/route-params";

// DELETE /api/tokens/:id — revokes an API token at once (coordinators)
export const DELETE = route(async (req, ctx: IdContext) => {
  const { db, actor } = await requestContext(req);
  await readEmptyBody(req);
  await revokeApiToken(db, actor, await idParam(ctx));
  return json({ revoked: true });
});

import { enableUser } from "@/lib/auth/users";
import { json, readEmptyBody, requestContext, route } from "@/app/_server/http";
import { idParam, type IdContext } from "@/app/_server/route-params";

// POST /api/users/:id/enable — re-enables a disabled account (coordinators)
export const POST = route(async (req, ctx: IdContext) => {
  const { db, actor } = await requestContext(req);
  await readEmptyBody(req);
  return json({ user: await enableUser(db, actor, await idParam(ctx)) });
});

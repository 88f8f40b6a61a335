import { disableUser } from "@/lib/auth/users";
import { json, readEmptyBody, requestContext, route } from "@/app/_server/http";
import { idParam, type IdContext } from "@/app/_server/route-params";

// POST /api/users/:id/disable — disables an account: its sessions and tokens end at once (coordinators, not themselves)
export const POST = route(async (req, ctx: IdContext) => {
  const { db, actor } = await requestContext(req);
  await readEmptyBody(req);
  return json({ user: await disableUser(db, actor, await idParam(ctx)) });
});

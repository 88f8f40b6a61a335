import { setUserPassword } from "@/lib/auth/passwords";
import { setPasswordSchema } from "@/lib/auth/schemas";
import { json, readJson, requestContext, route } from "@/app/_server/http";
import { idParam, type IdContext } from "@/app/_server/route-params";

// PUT /api/users/:id/password — sets another user's password; their sessions end (coordinators)
export const PUT = route(async (req, ctx: IdContext) => {
  const { db, actor } = await requestContext(req);
  const userId = await idParam(ctx);
  const input = await readJson(req, setPasswordSchema);
  return json(await setUserPassword(db, actor, userId, input));
});

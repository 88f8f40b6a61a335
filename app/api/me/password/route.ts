import { changeOwnPassword } from "@/lib/auth/passwords";
import { changePasswordSchema } from "@/lib/auth/schemas";
import { json, readJson, requestContext, route } from "@/app/_server/http";

// PUT /api/me/password — changes the caller's own password (current one required); their other sessions end
export const PUT = route(async (req) => {
  const { db, actor } = await requestContext(req);
  const input = await readJson(req, changePasswordSchema);
  return json(await changeOwnPassword(db, actor, input));
});

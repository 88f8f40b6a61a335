import { createPasswordResetLink } from "@/lib/auth/passwords";
import { resetLinkSchema } from "@/lib/auth/schemas";
import { env } from "@/lib/env";
import { json, publicOrigin, readJson, requestContext, route } from "@/app/_server/http";
import { idParam, type IdContext } from "@/app/_server/route-params";

// POST /api/users/:id/reset-link — a single-use, expiring link that sets the user's password (coordinators)
export const POST = route(async (req, ctx: IdContext) => {
  const { db, actor } = await requestContext(req);
  const userId = await idParam(ctx);
  const input = await readJson(req, resetLinkSchema);
  // The link's origin first: a refused Host (production without KPS_PUBLIC_URL) creates no link.
  const origin = publicOrigin(req, env().KPS_PUBLIC_URL);
  const link = await createPasswordResetLink(db, actor, userId, input);
  const url = `${origin}/invite/${link.token}`;
  return json({ resetLink: { url, username: link.username, expiresAt: link.expiresAt } }, 201);
});

import { createApiToken, listApiTokens } from "@/lib/auth/api-tokens";
import { createTokenSchema } from "@/lib/auth/schemas";
import { tokenListQuerySchema } from "@/lib/list-options.contract";
import { json, readJson, requestContext, route } from "@/app/_server/http";
import { pagedListRoute } from "@/app/_server/paged-list";

// GET /api/tokens — API tokens newest first, never their secrets, a page at a time (?q=, ?after=, ?limit=) (coordinators)
export const GET = pagedListRoute("tokens", tokenListQuerySchema, listApiTokens);

// POST /api/tokens — creates an API token acting as the caller; the token is in this answer only
export const POST = route(async (req) => {
  const { db, actor } = await requestContext(req);
  const input = await readJson(req, createTokenSchema);
  return json({ token: await createApiToken(db, actor, input) }, 201);
});

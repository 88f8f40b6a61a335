import { createApiToken, listApiTokens } from "@/lib/auth/api-tokens";
import { createTokenSchema } from "@/lib/auth/schemas";
import { json, readJson, requestContext, route } from "@/lib/server/http";

// GET /api/tokens — lists API tokens, never their secrets (coordinators)
export const GET = route(async (req) => {
  const { db, actor } = await requestContext(req);
  return json({ tokens: await listApiTokens(db, actor) });
});

// POST /api/tokens — creates an API token acting as the caller; the token is in this answer only
export const POST = route(async (req) => {
  const { db, actor } = await requestContext(req);
  const input = await readJson(req, createTokenSchema);
  return json({ token: await createApiToken(db, actor, input) }, 201);
});

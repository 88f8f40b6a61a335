import { createApiToken, listApiTokens } from "@/lib/auth/api-tokens";
import { createTokenSchema } from "@/lib/auth/schemas";
import { parseInput } from "@/lib/errors";
import { searchParamsObject, tokenListQuerySchema } from "@/lib/lists/list-options";
import { json, readJson, requestContext, route } from "@/lib/server/http";

// GET /api/tokens — API tokens newest first, never their secrets, a page at a time (?q=, ?after=, ?limit=) (coordinators)
export const GET = route(async (req) => {
  const { db, actor } = await requestContext(req);
  const query = parseInput(tokenListQuerySchema, searchParamsObject(new URL(req.url).searchParams), "query string");
  const page = await listApiTokens(db, actor, query);
  return json({ tokens: page.rows, next: page.next });
});

// POST /api/tokens — creates an API token acting as the caller; the token is in this answer only
export const POST = route(async (req) => {
  const { db, actor } = await requestContext(req);
  const input = await readJson(req, createTokenSchema);
  return json({ token: await createApiToken(db, actor, input) }, 201);
});

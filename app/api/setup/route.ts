import { setupSchema } from "@/lib/auth/schemas";
import { createFirstCoordinator } from "@/lib/auth/users";
import { json, readJson, requestContext, route } from "@/lib/server/http";

// POST /api/setup — creates the first coordinator; 409 once any user exists
export const POST = route(async (req) => {
  const { db, actor } = await requestContext(req);
  const input = await readJson(req, setupSchema);
  const user = await createFirstCoordinator(db, actor, input);
  return json({ user }, 201);
});

import { setupSchema } from "@/lib/auth/schemas";
import { createFirstCoordinator } from "@/lib/auth/users";
import { clientAddress, json, readJson, requestContext, route } from "@/app/_server/http";

// POST /api/setup — creates the first coordinator; 409 once any user exists (before hashing), 429 per address
export const POST = route(async (req) => {
  const { db, actor } = await requestContext(req);
  const input = await readJson(req, setupSchema);
  const user = await createFirstCoordinator(db, actor, { ...input, address: clientAddress(req) });
  return json({ user }, 201);
});

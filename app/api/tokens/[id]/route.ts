import { z } from "zod";
import { revokeApiToken } from "@/lib/auth/api-tokens";
import { parseInput } from "@/lib/errors";
import { json, requestContext, route } from "@/lib/http";

const paramsSchema = z.object({ id: z.coerce.number().int().positive() });

// DELETE /api/tokens/:id — revokes an API token at once (coordinators)
export const DELETE = route(async (req, ctx: { params: Promise<{ id: string }> }) => {
  const { db, actor } = await requestContext(req);
  const { id } = parseInput(paramsSchema, await ctx.params, "path");
  await revokeApiToken(db, actor, id);
  return json({ revoked: true });
});

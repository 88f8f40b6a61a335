import { parseInput } from "@/lib/errors";
import { pageParamsSchema } from "@/lib/knowledge/schemas";
import { getKnowledgePage } from "@/lib/knowledge/search";
import { json, requestContext, route } from "@/app/_server/http";

// GET /api/knowledge/pages/:wikipediaId — one page of the knowledge source, every paragraph with its section
export const GET = route(async (req, ctx: { params: Promise<{ wikipediaId: string }> }) => {
  const { db, actor } = await requestContext(req);
  const { wikipediaId } = parseInput(pageParamsSchema, await ctx.params, "path");
  return json(await getKnowledgePage(db, actor, wikipediaId));
});

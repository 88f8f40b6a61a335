import { searchOptionsSchema } from "@/lib/knowledge/schemas";
import { searchKnowledge } from "@/lib/knowledge/search";
import { json, requestContext, route } from "@/app/_server/http";
import { readQuery } from "@/app/_server/paged-list";

// GET /api/knowledge/search?q=&mode=title|text&limit= — searches the knowledge source by title prefix, or by text once indexed
export const GET = route(async (req) => {
  const { db, actor } = await requestContext(req);
  return json(await searchKnowledge(db, actor, readQuery(req, searchOptionsSchema)));
});

import { getIndexStatus, startIndexBuild } from "@/lib/knowledge/index-build";
import { indexBuildQuerySchema } from "@/lib/knowledge/schemas";
import { json, readEmptyBody, requestContext, route } from "@/app/_server/http";
import { readQuery } from "@/app/_server/paged-list";

// GET /api/knowledge/index — the text index's state and progress (coordinators)
export const GET = route(async (req) => {
  const { db, actor } = await requestContext(req);
  return json(await getIndexStatus(db, actor));
});

// POST /api/knowledge/index[?rebuild=1] — starts a build of the text index in the background (coordinators) → 202
export const POST = route(async (req) => {
  const { db, actor } = await requestContext(req);
  const { rebuild } = readQuery(req, indexBuildQuerySchema);
  await readEmptyBody(req);
  return json(await startIndexBuild(db, actor, { rebuild }), 202);
});

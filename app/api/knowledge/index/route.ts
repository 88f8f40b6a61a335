import { getIndexStatus, startIndexBuild } from "@/lib/knowledge/index-build";
import { json, readEmptyBody, requestContext, route } from "@/app/_server/http";

// GET /api/knowledge/index — the text index's state and progress (coordinators)
export const GET = route(async (req) => {
  const { db, actor } = await requestContext(req);
  return json(await getIndexStatus(db, actor));
});

// POST /api/knowledge/index — starts an incremental build of the text index in the background (coordinators) → 202
export const POST = route(async (req) => {
  const { db, actor } = await requestContext(req);
  await readEmptyBody(req);
  return json(await startIndexBuild(db, actor), 202);
});

import { getBatch } from "@/lib/campaign/batches";
import { json, requestContext, route } from "@/app/_server/http";
import { idParam, type IdContext } from "@/app/_server/route-params";

// GET /api/batches/:id — a batch's status and counts (coordinators)
export const GET = route(async (req, ctx: IdContext) => {
  const { db, actor } = await requestContext(req);
  return json({ batch: await getBatch(db, actor, await idParam(ctx)) });
});

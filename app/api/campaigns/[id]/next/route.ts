import { z } from "zod";
import { claimHandleSchema } from "@/lib/campaign/annotate/assignment";
import { nextTaskFor } from "@/lib/crowd/work";
import { parseInput } from "@/lib/errors";
import { json, readEmptyBody, requestContext, route } from "@/app/_server/http";
import { idParam, type IdContext } from "@/app/_server/route-params";

const querySchema = z.object({ after: claimHandleSchema.optional() });

// POST /api/campaigns/:id/next — the annotator's next passage (their live claim first); 204 when none is left.
// A crowd worker's comes within their session (nextTaskFor picks that path).
// ?after=<claim handle> prefetches: a task other than the one on screen.
export const POST = route(async (req, ctx: IdContext) => {
  const { db, actor } = await requestContext(req);
  await readEmptyBody(req);
  const campaignId = await idParam(ctx);
  const { after } = parseInput(querySchema, Object.fromEntries(new URL(req.url).searchParams), "query string");
  const task = await nextTaskFor(db, actor, { campaignId, after });
  return task ? json(task) : new Response(null, { status: 204 });
});

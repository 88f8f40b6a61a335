import { proposalInputSchema, proposePassage } from "@/lib/campaign/annotate/proposals";
import { json, readJson, requestContext, route } from "@/app/_server/http";
import { idParam, type IdContext } from "@/app/_server/route-params";

// POST /api/campaigns/:id/proposals — proposes another passage for the question the caller is asked about (a new passage, or merged into one at the same location)
export const POST = route(async (req, ctx: IdContext) => {
  const { db, actor } = await requestContext(req);
  const id = await idParam(ctx);
  const input = await readJson(req, proposalInputSchema);
  return json({ proposal: await proposePassage(db, actor, id, input) }, 201);
});

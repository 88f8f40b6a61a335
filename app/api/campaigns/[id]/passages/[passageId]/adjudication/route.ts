import { z } from "zod";
import { adjudicatePassage, revertAdjudication } from "@/lib/campaign/quality/adjudication";
import { parseInput } from "@/lib/errors";
import { assertJsonContentType, json, readEmptyBody, readJson, requestContext, route } from "@/app/_server/http";

const paramsSchema = z.object({
  id: z.coerce.number().int().positive("must be a positive integer"),
  passageId: z.coerce.number().int().positive("must be a positive integer"),
});

type Context = { params: Promise<{ id: string; passageId: string }> };

// PUT /api/campaigns/:id/passages/:passageId/adjudication — the coordinator's decision on a passage ({decision, span?, reason}); replaces the live one
export const PUT = route(async (req, ctx: Context) => {
  const { db, actor } = await requestContext(req);
  assertJsonContentType(req);
  const { id, passageId } = parseInput(paramsSchema, await ctx.params, "path");
  const body = await readJson(req, z.unknown());
  return json({ adjudication: await adjudicatePassage(db, actor, id, passageId, body) });
});

// DELETE /api/campaigns/:id/passages/:passageId/adjudication — reverts the live decision: the vote decides again
export const DELETE = route(async (req, ctx: Context) => {
  const { db, actor } = await requestContext(req);
  await readEmptyBody(req);
  const { id, passageId } = parseInput(paramsSchema, await ctx.params, "path");
  return json({ adjudication: await revertAdjudication(db, actor, id, passageId) });
});

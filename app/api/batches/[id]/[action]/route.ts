import { z } from "zod";
import { changeBatchStatus } from "@/lib/campaign/batches";
import { parseInput } from "@/lib/errors";
import { json, readEmptyBody, requestContext, route } from "@/app/_server/http";

const paramsSchema = z.object({
  id: z.coerce.number().int().positive("must be a positive integer"),
  action: z.enum(["launch", "pause", "close"], "must be launch, pause or close"),
});

// POST /api/batches/:id/launch|pause|close — moves a batch through draft → launched ⇄ paused → closed
export const POST = route(async (req, ctx: { params: Promise<{ id: string; action: string }> }) => {
  const { db, actor } = await requestContext(req);
  await readEmptyBody(req);
  const { id, action } = parseInput(paramsSchema, await ctx.params, "path");
  return json({ batch: await changeBatchStatus(db, actor, id, action) });
});

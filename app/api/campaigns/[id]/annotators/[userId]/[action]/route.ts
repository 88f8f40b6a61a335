import { z } from "zod";
import { pauseAnnotator, resumeAnnotator } from "@/lib/campaign/quality/standings";
import { parseInput } from "@/lib/errors";
import { json, readEmptyBody, requestContext, route } from "@/app/_server/http";

const paramsSchema = z.object({
  id: z.coerce.number().int().positive("must be a positive integer"),
  userId: z.coerce.number().int().positive("must be a positive integer"),
  action: z.enum(["pause", "resume"], "must be pause or resume"),
});

// POST /api/campaigns/:id/annotators/:userId/pause|resume — a coordinator pauses or resumes an annotator
export const POST = route(async (req, ctx: { params: Promise<{ id: string; userId: string; action: string }> }) => {
  const { db, actor } = await requestContext(req);
  await readEmptyBody(req);
  const { id, userId, action } = parseInput(paramsSchema, await ctx.params, "path");
  const standing = action === "pause" ? await pauseAnnotator(db, actor, id, userId) : await resumeAnnotator(db, actor, id, userId);
  return json({ annotator: standing });
});

import { z } from "zod";
import { getQuestionView } from "@/lib/campaign/report/question-view";
import { parseInput } from "@/lib/errors";
import { json, requestContext, route } from "@/app/_server/http";

const paramsSchema = z.object({
  id: z.coerce.number().int().positive("must be a positive integer"),
  queryId: z.coerce.number().int().positive("must be a question id (from GET /api/campaigns/:id/questions)").max(Number.MAX_SAFE_INTEGER),
});

// GET /api/campaigns/:id/questions/:queryId — one question's view: its passages (with ids), judgments, consensus, gold and live decisions (coordinators)
export const GET = route(async (req, ctx: { params: Promise<{ id: string; queryId: string }> }) => {
  const { db, actor } = await requestContext(req);
  const { id, queryId } = parseInput(paramsSchema, await ctx.params, "path");
  return json({ question: await getQuestionView(db, actor, id, queryId) });
});

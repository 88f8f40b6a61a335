import { z } from "zod";
import { getQuestionView } from "@/lib/campaign/report/question-view";
import { parseInput } from "@/lib/errors";
import { json, requestContext, route } from "@/lib/server/http";

const questionParams = z.object({
  id: z.coerce.number().int().positive("must be a positive integer"),
  queryId: z.coerce.number().int().positive("must be a positive integer"),
});

type QuestionContext = { params: Promise<{ id: string; queryId: string }> };

// GET /api/campaigns/:id/questions/:queryId — the question view: every passage with its votes, highlights, consensus span, gold and posterior (coordinators)
export const GET = route(async (req, ctx: QuestionContext) => {
  const { db, actor } = await requestContext(req);
  const { id, queryId } = parseInput(questionParams, await ctx.params, "path");
  return json({ question: await getQuestionView(db, actor, id, queryId) });
});

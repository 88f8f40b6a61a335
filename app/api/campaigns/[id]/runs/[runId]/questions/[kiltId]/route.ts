import { getRunQuestion } from "@/lib/campaign/runs/run-questions";
import { runQuestionQuerySchema } from "@/lib/campaign/runs/runs.contract";
import { json, requestContext, route } from "@/app/_server/http";
import { readQuery } from "@/app/_server/paged-list";
import { runQuestionParam, type RunQuestionContext } from "@/app/_server/route-params";

// GET /api/campaigns/:id/runs/:runId/questions/:kiltId?level=page|paragraph — one question's drill-down: the run's ranked list and each gold's evidence sets with the hits (coordinators)
export const GET = route(async (req, ctx: RunQuestionContext) => {
  const { db, actor } = await requestContext(req);
  const { id, runId, kiltId } = await runQuestionParam(ctx);
  return json(await getRunQuestion(db, actor, { campaignId: id, runId, kiltId, ...readQuery(req, runQuestionQuerySchema) }));
});

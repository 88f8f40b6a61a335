import { listRunQuestions } from "@/lib/campaign/runs/run-questions";
import { runQuestionListQuerySchema } from "@/lib/campaign/runs/runs.contract";
import { json, requestContext, route } from "@/app/_server/http";
import { readQuery } from "@/app/_server/paged-list";
import { runParam, type RunContext } from "@/app/_server/route-params";

// GET /api/campaigns/:id/runs/:runId/questions?after=&limit=&q=&level=page|paragraph — the run's questions in id order with R-precision and first complete rank per gold (coordinators)
export const GET = route(async (req, ctx: RunContext) => {
  const { db, actor } = await requestContext(req);
  const { id, runId } = await runParam(ctx);
  return json(await listRunQuestions(db, actor, { campaignId: id, runId, ...readQuery(req, runQuestionListQuerySchema) }));
});

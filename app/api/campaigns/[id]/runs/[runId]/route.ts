import { deleteRun } from "@/lib/campaign/runs/list-runs";
import { readEmptyBody, requestContext, route } from "@/app/_server/http";
import { runParam, type RunContext } from "@/app/_server/route-params";

// DELETE /api/campaigns/:id/runs/:runId — deletes a run and its predictions (coordinators)
export const DELETE = route(async (req, ctx: RunContext) => {
  const { db, actor } = await requestContext(req);
  await readEmptyBody(req);
  const { id, runId } = await runParam(ctx);
  await deleteRun(db, actor, { campaignId: id, runId });
  return new Response(null, { status: 204 });
});

import { judgmentInputSchema, submitJudgment } from "@/lib/campaign/annotate/judgments";
import { json, readJson, requestContext, route } from "@/lib/server/http";
import { idParam, type IdContext } from "@/lib/server/route-params";

// POST /api/claims/:id/judgment — records the verdict (and span) once: 201, or 200 with the same body on a replay
export const POST = route(async (req, ctx: IdContext) => {
  const { db, actor } = await requestContext(req);
  const claimId = await idParam(ctx);
  const input = await readJson(req, judgmentInputSchema);
  const { judgment, replayed } = await submitJudgment(db, actor, claimId, input);
  return json({ judgment }, replayed ? 200 : 201);
});

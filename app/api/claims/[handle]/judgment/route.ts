import { claimHandleParam } from "@/lib/campaign/annotate/assignment";
import { judgmentInputSchema, submitJudgment } from "@/lib/campaign/annotate/judgments";
import { json, readJson, requestContext, route } from "@/lib/server/http";

type HandleContext = { params: Promise<{ handle: string }> };

// POST /api/claims/:handle/judgment — records the verdict (and span) once: 201, or 200 with the same body on a replay;
// 409 when the passage's batch is paused or closed. `handle` is the opaque claim handle from …/next.
export const POST = route(async (req, ctx: HandleContext) => {
  const { db, actor } = await requestContext(req);
  const handle = await claimHandleParam(ctx);
  const input = await readJson(req, judgmentInputSchema);
  const { judgment, replayed } = await submitJudgment(db, actor, handle, input);
  return json({ judgment }, replayed ? 200 : 201);
});

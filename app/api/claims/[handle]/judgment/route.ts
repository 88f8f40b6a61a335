import { judgmentInputSchema, judgmentQuerySchema, submitJudgmentAndNext } from "@/lib/campaign/annotate/judgments";
import { reviseJudgment, revisionInputSchema } from "@/lib/campaign/annotate/revise-judgment";
import { nextTaskFor, requireCrowdWorkOpen } from "@/lib/crowd/work";
import { parseInput } from "@/lib/errors";
import { json, readJson, requestContext, route } from "@/app/_server/http";
import { claimHandleParam, type HandleContext } from "@/app/_server/route-params";

// POST /api/claims/:handle/judgment — records the verdict (and span) once: 201, or 200 with the same body on a replay;
// 409 when the passage's batch is paused or closed, or the crowd worker's session is over (`sessionEnded`). `handle` is the
// opaque claim handle from …/next.
// ?next=1[&after=<claim handle>] answers with the next task too ({judgment, next: Task | null}), other than `after`.
export const POST = route(async (req, ctx: HandleContext) => {
  const { db, actor } = await requestContext(req);
  const handle = await claimHandleParam(ctx);
  const query = parseInput(judgmentQuerySchema, Object.fromEntries(new URL(req.url).searchParams), "query string");
  const input = await readJson(req, judgmentInputSchema);
  await requireCrowdWorkOpen(db, actor);
  const { judgment, replayed, next } = await submitJudgmentAndNext(db, actor, handle, input, query, nextTaskFor);
  return json(next === undefined ? { judgment } : { judgment, next }, replayed ? 200 : 201);
});

// PUT /api/claims/:handle/judgment — revises the caller's judgment on that claim (undo, history): 200 {judgment} with its new
// `revision`; the same idempotency key and body again answer the same; 409 once its passage is finished, the batch is not
// launched or the annotator is paused (`details.reason`), when `revision` is not the judgment's current one, or once the crowd
// worker's session is over (`sessionEnded`: after the completion code, nothing changes).
export const PUT = route(async (req, ctx: HandleContext) => {
  const { db, actor } = await requestContext(req);
  const handle = await claimHandleParam(ctx);
  const input = await readJson(req, revisionInputSchema);
  await requireCrowdWorkOpen(db, actor);
  const { judgment } = await reviseJudgment(db, actor, handle, input);
  return json({ judgment });
});

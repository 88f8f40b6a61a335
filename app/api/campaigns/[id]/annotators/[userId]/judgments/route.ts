import { annotatorJudgmentsQuerySchema, listAnnotatorJudgments } from "@/lib/campaign/report/annotator-detail";
import { json, requestContext, route } from "@/app/_server/http";
import { readQuery } from "@/app/_server/paged-list";
import { annotatorParam, type AnnotatorContext } from "@/app/_server/route-params";

// GET /api/campaigns/:id/annotators/:userId/judgments — their judgments newest first with passage text and gold results (?gold=1, ?after=, ?limit=) (coordinators)
export const GET = route(async (req, ctx: AnnotatorContext) => {
  const { db, actor } = await requestContext(req);
  const { id, userId } = await annotatorParam(ctx);
  const page = await listAnnotatorJudgments(db, actor, id, userId, readQuery(req, annotatorJudgmentsQuerySchema));
  return json({ judgments: page.rows, next: page.next });
});

import { z } from "zod";
import { exportJudgments } from "@/lib/campaign/report/export-judgments";
import { parseInput } from "@/lib/errors";
import { requestContext, route } from "@/app/_server/http";
import { idParam, type IdContext } from "@/app/_server/route-params";
import { linesResponse, primed } from "@/app/_server/downloads";

const querySchema = z.object({ batch: z.coerce.number().int().positive("must be a batch id").optional() });

// GET /api/campaigns/:id/judgments — every judgment as JSONL (streamed; annotators by pseudonym) (coordinators)
export const GET = route(async (req, ctx: IdContext) => {
  const { db, actor } = await requestContext(req);
  const campaignId = await idParam(ctx);
  const { batch } = parseInput(querySchema, Object.fromEntries(new URL(req.url).searchParams), "query string");
  const lines = await primed(exportJudgments(db, actor, campaignId, { batchId: batch }));
  return linesResponse(lines, `campaign-${campaignId}-judgments.jsonl`);
});

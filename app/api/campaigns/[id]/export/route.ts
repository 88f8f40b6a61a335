import { exportKilt } from "@/lib/campaign/report/export-kilt";
import { exportQuerySchema } from "@/lib/campaign/report/export-options";
import { parseInput } from "@/lib/errors";
import { requestContext, route } from "@/app/_server/http";
import { idParam, type IdContext } from "@/app/_server/route-params";
import { linesResponse, primed } from "@/app/_server/downloads";

// GET /api/campaigns/:id/export?batch=&location=span|passage&aggregation=majority|dawid-skene — KILT provenance JSONL, streamed (coordinators)
export const GET = route(async (req, ctx: IdContext) => {
  const { db, actor } = await requestContext(req);
  const campaignId = await idParam(ctx);
  const { batch, location, aggregation } = parseInput(exportQuerySchema, Object.fromEntries(new URL(req.url).searchParams), "query string");
  const lines = await primed(exportKilt(db, actor, campaignId, { batchId: batch, location, aggregation }));
  // Distinct names for the two variants, so both downloads keep their own file.
  return linesResponse(
    lines,
    `campaign-${campaignId}${batch ? `-batch-${batch}` : ""}-kilt${location === "passage" ? "-passage-location" : ""}${aggregation ? `-${aggregation}` : ""}.jsonl`,
  );
});

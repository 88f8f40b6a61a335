import { exportReport } from "@/lib/campaign/report/export-kilt";
import { exportQuerySchema } from "@/lib/campaign/report/export-options";
import { parseInput } from "@/lib/errors";
import { json, requestContext, route } from "@/app/_server/http";
import { idParam, type IdContext } from "@/app/_server/route-params";

// GET /api/campaigns/:id/export/report?batch=&location=&aggregation= — the export's counts: exported, endorsed, unanswerable, without endorsement
export const GET = route(async (req, ctx: IdContext) => {
  const { db, actor } = await requestContext(req);
  const campaignId = await idParam(ctx);
  const { batch, location, aggregation } = parseInput(exportQuerySchema, Object.fromEntries(new URL(req.url).searchParams), "query string");
  return json({ report: await exportReport(db, actor, campaignId, { batchId: batch, location, aggregation }) });
});

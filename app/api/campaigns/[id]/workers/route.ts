import { exportWorkerSessions, listWorkerSessions } from "@/lib/crowd/workers-report";
import { workerListQuerySchema } from "@/lib/crowd/workers-report.contract";
import { linesResponse, primed } from "@/app/_server/downloads";
import { json, requestContext, route } from "@/app/_server/http";
import { readQuery } from "@/app/_server/paged-list";
import { idParam, type IdContext } from "@/app/_server/route-params";

// GET /api/campaigns/:id/workers — the payment report: one row per crowd worker and session, newest first, a page at a time (?q=, ?outcome=, ?after=, ?limit=); with ?format=csv|jsonl every matching row as a streamed download (coordinators)
export const GET = route(async (req, ctx: IdContext) => {
  const { db, actor } = await requestContext(req);
  const campaignId = await idParam(ctx);
  const query = readQuery(req, workerListQuerySchema);
  if (query.format) {
    const lines = await primed(exportWorkerSessions(db, actor, campaignId, { format: query.format, q: query.q, outcome: query.outcome }));
    const csv = query.format === "csv";
    return linesResponse(
      lines,
      `campaign-${campaignId}-workers.${query.format}`,
      csv ? "text/csv; charset=utf-8; header=present" : undefined,
    );
  }
  const page = await listWorkerSessions(db, actor, campaignId, query);
  return json({ workers: page.rows, next: page.next });
});

import { listAudit } from "@/lib/audit/audit";
import { auditQuerySchema } from "@/lib/audit/schemas";
import { parseInput } from "@/lib/errors";
import { json, requestContext, route } from "@/app/_server/http";

// GET /api/audit — a page of the audit log (?cursor=, ?order=desc|asc, ?since=, ?limit=; filters ?action=&actor=&target=&from=&to=) (coordinators)
export const GET = route(async (req) => {
  const { db, actor } = await requestContext(req);
  const query = parseInput(auditQuerySchema, Object.fromEntries(new URL(req.url).searchParams), "query string");
  return json(await listAudit(db, actor, query));
});

import { getMyCrowdSession } from "@/lib/crowd/sessions";
import { json, requestContext, route } from "@/app/_server/http";

// GET /api/crowd/session — the caller's crowd session (crowd workers, Bearer kpsw_…); one whose time ran out ends now.
export const GET = route(async (req) => {
  const { db, actor } = await requestContext(req);
  return json(await getMyCrowdSession(db, actor));
});

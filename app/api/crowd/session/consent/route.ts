import { consentToCrowdSession } from "@/lib/crowd/sessions";
import { json, readEmptyBody, requestContext, route } from "@/app/_server/http";

// POST /api/crowd/session/consent — the worker agrees to the consent text: training (or real work) follows.
export const POST = route(async (req) => {
  const { db, actor } = await requestContext(req);
  await readEmptyBody(req);
  return json(await consentToCrowdSession(db, actor));
});

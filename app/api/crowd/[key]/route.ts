import { getCrowdEntryInfo } from "@/lib/crowd/sessions";
import { json, requestContext, route } from "@/app/_server/http";
import { entryKeyParam, type EntryKeyContext } from "@/app/_server/route-params";

// GET /api/crowd/:key — the public face of a crowd entry (anyone with the link): consent, instructions, limits, one example.
export const GET = route(async (req, ctx: EntryKeyContext) => {
  const { db, actor } = await requestContext(req);
  return json(await getCrowdEntryInfo(db, actor, await entryKeyParam(ctx)));
});

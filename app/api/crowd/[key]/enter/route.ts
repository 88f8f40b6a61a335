import { enterCrowd } from "@/lib/crowd/sessions";
import { assertJsonContentType, clientAddress, json, readJson, requestContext, route } from "@/app/_server/http";
import { entryKeyParam, type EntryKeyContext } from "@/app/_server/route-params";
import { z } from "zod";

// POST /api/crowd/:key/enter — a platform worker enters with the platform's ids (body: the entry URL's parameters);
// answers a crowd credential for `Authorization: Bearer` and the session (resumed when the worker has one open).
export const POST = route(async (req, ctx: EntryKeyContext) => {
  const { db, actor } = await requestContext(req);
  assertJsonContentType(req);
  const key = await entryKeyParam(ctx);
  const body = await readJson(req, z.unknown());
  return json(await enterCrowd(db, actor, { key, body, userAgent: req.headers.get("user-agent"), address: clientAddress(req) }));
});

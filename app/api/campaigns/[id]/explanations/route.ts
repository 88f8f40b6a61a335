import { explainQuestion, explanationInputSchema } from "@/lib/campaign/annotate/explanations";
import { json, readJson, requestContext, route } from "@/app/_server/http";
import { idParam, type IdContext } from "@/app/_server/route-params";

// POST /api/campaigns/:id/explanations — explains why no passage answers the question the caller is asked about (a reason and text)
export const POST = route(async (req, ctx: IdContext) => {
  const { db, actor } = await requestContext(req);
  const id = await idParam(ctx);
  const input = await readJson(req, explanationInputSchema);
  return json({ explanation: await explainQuestion(db, actor, id, input) }, 201);
});

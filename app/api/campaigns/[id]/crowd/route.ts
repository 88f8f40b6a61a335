import { getCrowdSettings, updateCrowdSettings } from "@/lib/crowd/crowd-settings";
import { crowdEntryUrl, updateCrowdSettingsSchema, type CrowdSettingsView } from "@/lib/crowd/settings.contract";
import { env } from "@/lib/env";
import { json, publicOrigin, readJson, requestContext, route } from "@/app/_server/http";
import { idParam, type IdContext } from "@/app/_server/route-params";

/** The answer of both methods: the settings and the link to paste into the platform. */
const answer = (crowd: CrowdSettingsView, origin: string) =>
  json({ crowd: { ...crowd, entryUrl: crowdEntryUrl(origin, crowd.entryKey, crowd.platform) } });

// GET /api/campaigns/:id/crowd — the campaign's crowd entry: settings, codes and entry URL (coordinators)
export const GET = route(async (req, ctx: IdContext) => {
  const { db, actor } = await requestContext(req);
  const id = await idParam(ctx);
  const crowd = await getCrowdSettings(db, actor, id);
  return answer(crowd, publicOrigin(req, env().KPS_PUBLIC_URL));
});

// PUT /api/campaigns/:id/crowd — changes the crowd settings sent (the others are kept)
export const PUT = route(async (req, ctx: IdContext) => {
  const { db, actor } = await requestContext(req);
  const id = await idParam(ctx);
  const input = await readJson(req, updateCrowdSettingsSchema);
  // The link's origin first: a refused Host (production without KPS_PUBLIC_URL) changes nothing.
  const origin = publicOrigin(req, env().KPS_PUBLIC_URL);
  return answer(await updateCrowdSettings(db, actor, id, input), origin);
});

import { shortcutPrefsSchema } from "@/lib/campaign/annotate/shortcuts.contract";
import { getShortcuts, updateShortcuts } from "@/lib/campaign/annotate/user-shortcuts";
import { json, readJson, requestContext, route } from "@/app/_server/http";

// GET /api/me/shortcuts — the caller's judging shortcuts: on or off, and every action's key
export const GET = route(async (req) => {
  const { db, actor } = await requestContext(req);
  return json(await getShortcuts(db, actor));
});

// PUT /api/me/shortcuts — replaces them: {enabled, keys: {action: key}} (unknown actions, duplicate or reserved keys are a 422)
export const PUT = route(async (req) => {
  const { db, actor } = await requestContext(req);
  const input = await readJson(req, shortcutPrefsSchema);
  return json(await updateShortcuts(db, actor, input));
});

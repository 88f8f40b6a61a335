import { env } from "@/lib/env";
import { listRuns } from "@/lib/campaign/runs/list-runs";
import { uploadRun } from "@/lib/campaign/runs/upload-run";
import { json, requestContext, route } from "@/app/_server/http";
import { idParam, type IdContext } from "@/app/_server/route-params";
import { runUploadParts } from "@/app/_server/uploads";

// GET /api/campaigns/:id/runs — the campaign's runs, newest first (coordinators)
export const GET = route(async (req, ctx: IdContext) => {
  const { db, actor } = await requestContext(req);
  return json({ runs: await listRuns(db, actor, await idParam(ctx)) });
});

// POST /api/campaigns/:id/runs — uploads a run: multipart field `name` (1–80 characters, unique in the campaign) and a `guess` file (KILT guess JSONL, optionally gzip), one prediction per question (coordinators)
export const POST = route(async (req, ctx: IdContext) => {
  const { db, actor } = await requestContext(req);
  const campaignId = await idParam(ctx);
  const parts = runUploadParts(req, env().KPS_MAX_BATCH_BYTES); // read only once uploadRun has authorized the caller
  return json({ run: await uploadRun(db, actor, { campaignId, parts }) }, 201);
});

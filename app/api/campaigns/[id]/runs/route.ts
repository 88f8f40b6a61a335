import { env } from "@/lib/env";
import { listRuns } from "@/lib/campaign/runs/list-runs";
import { uploadRun } from "@/lib/campaign/runs/upload-run";
import { json } from "@/app/_server/http";
import { idRoute } from "@/app/_server/route-params";
import { runUploadParts } from "@/app/_server/uploads";

// GET /api/campaigns/:id/runs — the campaign's runs, newest first (coordinators)
export const GET = idRoute(async (_req, { db, actor, id }) => json({ runs: await listRuns(db, actor, id) }));

// POST /api/campaigns/:id/runs — uploads a run: multipart field `name` (1–80 characters, unique in the campaign) and a `guess` file (KILT guess JSONL, optionally gzip), one prediction per question (coordinators)
export const POST = idRoute(async (req, { db, actor, id: campaignId }) => {
  const parts = runUploadParts(req, env().KPS_MAX_BATCH_BYTES); // read only once uploadRun has authorized the caller
  return json({ run: await uploadRun(db, actor, { campaignId, parts }) }, 201);
});

import { listBatches } from "@/lib/campaign/batches";
import { importBatch } from "@/lib/campaign/import/import-batch";
import { batchUploadParts } from "@/app/_server/uploads";
import { env } from "@/lib/env";
import { batchListQuerySchema } from "@/lib/list-options.contract";
import { json, requestContext, route } from "@/app/_server/http";
import { campaignPagedListRoute } from "@/app/_server/paged-list";
import { idParam, type IdContext } from "@/app/_server/route-params";
import { acceptsProgress, progressResponse } from "@/app/_server/progress-stream";

// GET /api/campaigns/:id/batches — the campaign's batches with their counts, newest first, a page at a time (?q=, ?after=, ?limit=)
export const GET = campaignPagedListRoute("batches", batchListQuerySchema, listBatches);

// POST /api/campaigns/:id/batches — imports a batch: multipart `queries` file, optional `candidates` files (one per retriever), `perRetriever` (old name `topK`), `minAnswerOverlap`, `retrieve`, `retrieveTopK`, `name`.
// With `Accept: application/x-ndjson`, text retrieval's progress streams as NDJSON (progress-stream.ts).
export const POST = route(async (req, ctx: IdContext) => {
  const { db, actor } = await requestContext(req);
  const campaignId = await idParam(ctx);
  const parts = batchUploadParts(req, env().KPS_MAX_BATCH_BYTES); // read only once importBatch has authorized the caller
  if (acceptsProgress(req)) return progressResponse((onProgress) => importBatch(db, actor, { campaignId, parts }, { onProgress }), 201);
  return json(await importBatch(db, actor, { campaignId, parts }), 201);
});

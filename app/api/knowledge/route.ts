import { requireCoordinator } from "@/lib/auth/actor";
import { importKnowledgeUpload } from "@/lib/server/uploads";
import { env } from "@/lib/env";
import { json, requestContext, route } from "@/lib/server/http";

// POST /api/knowledge — imports KILT knowledge-source pages: a streamed JSONL body (plain or gzip),
// or multipart with optional `references` files (queries/candidates: keep only their pages) before `file`
export const POST = route(async (req) => {
  const { db, actor } = await requestContext(req);
  requireCoordinator(actor); // before reading the upload
  return json(await importKnowledgeUpload(db, actor, req, env().KPS_MAX_KNOWLEDGE_BYTES), 201);
});

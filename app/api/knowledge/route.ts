import { importKnowledge } from "@/lib/knowledge/import-knowledge";
import { env } from "@/lib/env";
import { json, requestContext, route } from "@/app/_server/http";
import { knowledgeUploadParts } from "@/app/_server/uploads";

// POST /api/knowledge — imports KILT knowledge-source pages: a streamed JSONL body (plain or gzip),
// or multipart with optional `references` files (queries/candidates: keep only their pages) before `file`
export const POST = route(async (req) => {
  const { db, actor } = await requestContext(req);
  const parts = knowledgeUploadParts(req, env().KPS_MAX_KNOWLEDGE_BYTES); // read only once importKnowledge has authorized the caller
  return json(await importKnowledge(db, actor, { parts }), 201);
});

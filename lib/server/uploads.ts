import type { Db } from "@/db/client";
import type { Actor } from "@/lib/auth/actor";
import { AppError, parseInput } from "@/lib/errors";
import { isMultipart, limitedBody, multipartParts } from "@/lib/server/multipart";
import { batchImportOptionsSchema, referencedPageIds, type ImportFile } from "../campaign/import/import-batch";
import { importKnowledge, type KnowledgeImportResult } from "../campaign/import/import-knowledge";

async function buffer(stream: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks);
}

function fromBuffer(fileName: string, data: Buffer): ImportFile {
  return {
    fileName,
    source: (async function* () {
      yield data;
    })(),
  };
}

/** A batch upload: multipart with a `queries` file, an optional `candidates` file, and `topK`/`name` fields. */
export async function readBatchUpload(req: Request, maxBytes: number) {
  if (!isMultipart(req)) {
    throw new AppError("bad_request", "Send the batch as multipart/form-data with a 'queries' file (and optionally 'candidates', 'topK', 'name').");
  }
  const files = new Map<string, ImportFile>();
  const fields: Record<string, string> = {};
  for await (const part of multipartParts(req, { maxBytes })) {
    if (part.kind === "field") fields[part.name] = part.value;
    else if (part.name === "queries" || part.name === "candidates") files.set(part.name, fromBuffer(part.fileName, await buffer(part.stream)));
    else throw new AppError("invalid", `Unexpected file part '${part.name}': send 'queries' and optionally 'candidates'.`);
  }
  const queries = files.get("queries");
  if (!queries) {
    throw new AppError("invalid", "Invalid request body: queries: a KILT task file is required", {
      problems: [{ field: "queries", message: "a KILT task file is required" }],
    });
  }
  const options = parseInput(batchImportOptionsSchema, { name: fields.name || undefined, topK: fields.topK || undefined }, "form fields");
  return { ...options, queries, candidates: files.get("candidates") };
}

/**
 * A knowledge-source upload: a raw JSONL body (`?name=` names the file in messages), or multipart
 * with optional `references` files first (only the pages they cite are kept) and then `file`.
 */
export async function importKnowledgeUpload(db: Db, actor: Actor, req: Request, maxBytes: number): Promise<KnowledgeImportResult> {
  if (!isMultipart(req)) {
    const fileName = new URL(req.url).searchParams.get("name") || "knowledge.jsonl";
    return importKnowledge(db, actor, { fileName, source: limitedBody(req, maxBytes) });
  }
  const references: ImportFile[] = [];
  let result: KnowledgeImportResult | undefined;
  for await (const part of multipartParts(req, { maxBytes })) {
    if (part.kind === "field") continue;
    if (part.name === "references") {
      if (result) throw new AppError("invalid", "Send 'references' files before the 'file' part.");
      references.push(fromBuffer(part.fileName, await buffer(part.stream)));
    } else if (part.name === "file") {
      if (result) throw new AppError("invalid", "Send one 'file' part per request.");
      const onlyPageIds = references.length ? await referencedPageIds(references) : undefined;
      result = await importKnowledge(db, actor, { fileName: part.fileName, source: part.stream, onlyPageIds });
    } else {
      throw new AppError("invalid", `Unexpected part '${part.name}': send optional 'references' files, then 'file'.`);
    }
  }
  if (!result) {
    throw new AppError("invalid", "Invalid request body: file: a knowledge-source file is required", {
      problems: [{ field: "file", message: "a knowledge-source file is required" }],
    });
  }
  return result;
}

// The edge of the two imports: a request becomes the parts its import pulls (`BatchPart`,
// `KnowledgePart`), typed, with the files streamed. These generators read nothing until the import
// pulls the first part, which it does only once it has authorized the caller: an unauthorized upload
// is refused before a byte of its body is read, with no check in the route.
import { AppError, parseInput } from "@/lib/errors";
import { batchImportOptionsSchema, type BatchPart } from "@/lib/campaign/import/import-batch";
import type { KnowledgePart } from "@/lib/campaign/import/import-knowledge";
import { isMultipart, limitedBody, multipartParts } from "@/lib/server/multipart";

/**
 * A batch upload: multipart with a `queries` file, then optionally a `candidates` file, and the fields
 * `topK`/`name` before or after the files (the form sends them first, the CLI last).
 */
export async function* batchUploadParts(req: Request, maxBytes: number): AsyncGenerator<BatchPart> {
  if (!isMultipart(req)) {
    throw new AppError("bad_request", "Send the batch as multipart/form-data with a 'queries' file (and optionally 'candidates', 'topK', 'name').");
  }
  const fields: Record<string, string> = {};
  const files = new Set<string>();
  for await (const part of multipartParts(req, { maxBytes })) {
    if (part.kind === "field") fields[part.name] = part.value;
    else if (part.name === "queries" || part.name === "candidates") {
      if (files.has(part.name)) throw new AppError("invalid", `Send one '${part.name}' file.`);
      files.add(part.name);
      yield { kind: part.name, file: { fileName: part.fileName, source: part.stream } };
    } else throw new AppError("invalid", `Unexpected file part '${part.name}': send 'queries' and optionally 'candidates'.`);
  }
  // Without a queries file the import refuses the upload for that, before looking at the fields.
  if (!files.has("queries")) return;
  const options = parseInput(batchImportOptionsSchema, { name: fields.name || undefined, topK: fields.topK || undefined }, "form fields");
  yield { kind: "options", options };
}

/**
 * A knowledge-source upload: a raw JSONL body (`?name=` names the file in messages), or multipart
 * with optional `references` files first (only the pages they cite are kept) and then `file`.
 */
export async function* knowledgeUploadParts(req: Request, maxBytes: number): AsyncGenerator<KnowledgePart> {
  if (!isMultipart(req)) {
    const fileName = new URL(req.url).searchParams.get("name") || "knowledge.jsonl";
    yield { kind: "file", file: { fileName, source: limitedBody(req, maxBytes) } };
    return;
  }
  let sentFile = false;
  for await (const part of multipartParts(req, { maxBytes })) {
    if (part.kind === "field") continue;
    if (part.name === "references") {
      if (sentFile) throw new AppError("invalid", "Send 'references' files before the 'file' part.");
      yield { kind: "references", file: { fileName: part.fileName, source: part.stream } };
    } else if (part.name === "file") {
      if (sentFile) throw new AppError("invalid", "Send one 'file' part per request.");
      sentFile = true;
      yield { kind: "file", file: { fileName: part.fileName, source: part.stream } };
    } else {
      throw new AppError("invalid", `Unexpected part '${part.name}': send optional 'references' files, then 'file'.`);
    }
  }
}

// The edge of the uploads: a request becomes the parts its import pulls (`BatchPart`,
// `KnowledgePart`, `RunPart`), typed, with the files streamed. These generators read nothing until the import
// pulls the first part, which it does only once it has authorized the caller: an unauthorized upload
// is refused before a byte of its body is read, with no check in the route.
import { AppError, parseInput } from "@/lib/errors";
import { batchImportOptionsSchema, type BatchPart } from "@/lib/campaign/import/import-batch";
import { BATCH_FORM_FIELDS, MAX_CANDIDATE_FILES } from "@/lib/campaign/import/import-options";
import type { KnowledgePart } from "@/lib/knowledge/import-knowledge";
import type { RunPart } from "@/lib/campaign/runs/upload-run";
import { isMultipart, limitedBody, multipartParts } from "@/app/_server/multipart";

/**
 * A batch upload: multipart with a `queries` file, optionally `candidates` files (one per retriever, at
 * most MAX_CANDIDATE_FILES), and the fields `name`, `perRetriever` (old name `topK`), `minAnswerOverlap`,
 * `retrieve`, `retrieveTopK`, `retriever`, `task`, `mapEvidence`, `minBleu` before or after the files (the form sends them
 * first, the CLI last), and with `mapEvidence` optionally one `redirects` file (from-title, tab, to-title).
 */
export async function* batchUploadParts(req: Request, maxBytes: number): AsyncGenerator<BatchPart> {
  if (!isMultipart(req)) {
    throw new AppError(
      "bad_request",
      "Send the batch as multipart/form-data with a 'queries' file (and optionally 'candidates' files and the fields 'perRetriever', 'minAnswerOverlap', 'retrieve', 'retrieveTopK', 'retriever', 'task', 'mapEvidence', 'minBleu', 'name', and a 'redirects' file).",
    );
  }
  const fields = new Map<string, string>();
  let queries = 0;
  let candidates = 0;
  let redirects = 0;
  for await (const part of multipartParts(req, { maxBytes })) {
    if (part.kind === "field") fields.set(part.name, part.value);
    else if (part.name === "queries") {
      if (queries++) throw new AppError("invalid", "Send one 'queries' file.");
      yield { kind: "queries", file: { fileName: part.fileName, source: part.stream } };
    } else if (part.name === "candidates") {
      if (++candidates > MAX_CANDIDATE_FILES) throw new AppError("invalid", `Send at most ${MAX_CANDIDATE_FILES} 'candidates' files.`);
      yield { kind: "candidates", file: { fileName: part.fileName, source: part.stream } };
    } else if (part.name === "redirects") {
      if (redirects++) throw new AppError("invalid", "Send one 'redirects' file.");
      yield { kind: "redirects", file: { fileName: part.fileName, source: part.stream } };
    } else
      throw new AppError(
        "invalid",
        `Unexpected file part '${part.name}': send 'queries' and optionally 'candidates' files and a 'redirects' file.`,
      );
  }
  // Without a queries file the import refuses the upload for that, before looking at the fields.
  if (!queries) return;
  // An empty field is a field left out (the form sends every input).
  const given = Object.fromEntries(BATCH_FORM_FIELDS.flatMap((f) => (fields.get(f) ? [[f, fields.get(f)]] : [])));
  yield { kind: "options", options: parseInput(batchImportOptionsSchema, given, "form fields") };
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

/** A run upload: multipart with the field `name` and one `guess` file (KILT guess JSONL, optionally gzip), in either order. */
export async function* runUploadParts(req: Request, maxBytes: number): AsyncGenerator<RunPart> {
  if (!isMultipart(req)) throw new AppError("bad_request", "Send the run as multipart/form-data with the field 'name' and a 'guess' file.");
  let guess = 0;
  for await (const part of multipartParts(req, { maxBytes })) {
    if (part.kind === "field") {
      if (part.name === "name") yield { kind: "name", name: part.value };
    } else if (part.name === "guess") {
      if (guess++) throw new AppError("invalid", "Send one 'guess' file.");
      yield { kind: "guess", file: { fileName: part.fileName, source: part.stream } };
    } else throw new AppError("invalid", `Unexpected file part '${part.name}': send the field 'name' and one 'guess' file.`);
  }
}

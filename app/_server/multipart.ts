import { Readable } from "node:stream";
import busboy from "busboy";
import { AppError, invalidField } from "@/lib/errors";
import { formatBytes } from "@/lib/format";
import { hasNul, NUL_MESSAGE } from "@/lib/nul";

export type Part =
  { kind: "field"; name: string; value: string } | { kind: "file"; name: string; fileName: string; stream: AsyncIterable<Uint8Array> };

/**
 * The parts of a multipart/form-data request, in order, with file parts streamed: a file part's
 * stream is read as the consumer pulls it, and whatever it leaves unread (stopping early does not
 * close it) is drained when the next part is asked for. Nothing is read before the first part is
 * pulled. Uses busboy.
 */
export async function* multipartParts(req: Request, limits: { maxBytes: number; maxFieldBytes?: number }): AsyncGenerator<Part> {
  const contentType = req.headers.get("content-type") ?? "";
  if (!req.body) throw new AppError("bad_request", "The request has no body.");
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: { "content-type": contentType }, limits: { fieldSize: limits.maxFieldBytes ?? 100_000 } });
  } catch (error) {
    throw new AppError("bad_request", `The request is not multipart/form-data: ${(error as Error).message}`);
  }
  const queue: (Part | { kind: "end" } | { kind: "error"; error: Error })[] = [];
  let wake: (() => void) | undefined;
  const push = (item: (typeof queue)[number]) => {
    queue.push(item);
    wake?.();
  };
  parser.on("field", (name, value) => push({ kind: "field", name, value }));
  parser.on("file", (name, stream, info) => push({ kind: "file", name, fileName: info.filename || name, stream: onceIterable(stream) }));
  parser.on("close", () => push({ kind: "end" }));
  parser.on("error", (error) => push({ kind: "error", error: error as Error }));
  const body = limitedBody(req, limits.maxBytes);
  body.on("error", (error) => {
    push({ kind: "error", error });
    // Fails the file part being read too (a 413 past the limit), which would otherwise wait forever.
    parser.destroy(error);
  });
  body.pipe(parser);

  try {
    for (;;) {
      if (!queue.length) await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
      const item = queue.shift()!;
      if (item.kind === "end") return;
      if (item.kind === "error") {
        if (item.error instanceof AppError) throw item.error;
        throw new AppError("bad_request", `The multipart body is malformed: ${item.error.message}`);
      }
      refuseNul(item);
      yield item;
      // Drain whatever the consumer left unread, so busboy can move on to the next part.
      if (item.kind === "file") for await (const _ of item.stream);
    }
  } finally {
    body.unpipe(parser);
    body.destroy();
  }
}

/**
 * A text field holding NUL is refused as parseInput refuses it (lib/nul.ts: PostgreSQL cannot store
 * it): a 422 naming the field, e.g. a run's `name`. (NUL in a part's header, a field's or a file's
 * name, is refused by busboy as a malformed header: a 400.)
 */
function refuseNul(part: Part): void {
  if (part.kind === "field" && hasNul(part.value)) throw invalidField(part.name, NUL_MESSAGE);
}

/**
 * One iterator over `stream`, handed out to every `for await`, without `return`: a consumer that
 * stops early neither destroys the stream (which would stall busboy) nor keeps the rest from the drain.
 */
function onceIterable(stream: Readable): AsyncIterable<Uint8Array> {
  const chunks = stream[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;
  const iterator: AsyncIterator<Uint8Array> = { next: () => chunks.next() };
  return { [Symbol.asyncIterator]: () => iterator };
}

export function isMultipart(req: Request): boolean {
  return (req.headers.get("content-type") ?? "").toLowerCase().startsWith("multipart/form-data");
}

/** The request body as a Node stream that fails with 413 past `maxBytes` (checked on Content-Length too). */
export function limitedBody(req: Request, maxBytes: number): Readable {
  const tooLarge = () => new AppError("too_large", `The upload is larger than the limit of ${formatBytes(maxBytes)}.`);
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge();
  if (!req.body) throw new AppError("bad_request", "The request has no body.");
  const source = Readable.fromWeb(req.body as import("node:stream/web").ReadableStream<Uint8Array>);
  let seen = 0;
  const out = new Readable({ read: () => source.resume() });
  source.on("data", (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > maxBytes) {
      source.destroy();
      out.destroy(tooLarge());
      return;
    }
    if (!out.push(chunk)) source.pause();
  });
  source.on("end", () => out.push(null));
  source.on("error", (error) => out.destroy(error));
  return out;
}

import { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import { nulPaths } from "../nul";

/** One problem in an imported file, located by file, line (1-based) and field. */
export interface ImportProblem {
  file: string;
  line: number;
  field: string;
  message: string;
}

/** A problem that stops reading a file at once (invalid UTF-8, a line too long, broken gzip). */
export class FatalImportError extends Error {
  constructor(readonly problem: ImportProblem) {
    super(`${problem.file} line ${problem.line}${problem.field ? `, ${problem.field}` : ""}: ${problem.message}`);
  }
}

export interface JsonlLine {
  lineNumber: number;
  /** The line without its line ending (and without a leading byte-order mark on line 1). */
  text: string;
}

export interface ReadLinesOptions {
  file: string;
  maxLineBytes: number;
  /** Called with the count of (compressed) bytes read so far. */
  onBytes?: (bytes: number) => void;
}

const NEWLINE = 0x0a;
const CR = 0x0d;
const decoder = new TextDecoder("utf-8", { fatal: true });

/** Transparently gunzips a gzip stream (detected by its magic bytes). */
async function* maybeGunzip(source: AsyncIterable<Uint8Array>, file: string, onBytes?: (n: number) => void): AsyncGenerator<Uint8Array> {
  const iterator = source[Symbol.asyncIterator]();
  let first = await iterator.next();
  // Chunks kept past the next read are copied: a source may reuse its buffer.
  if (!first.done) first = { done: false, value: Buffer.from(first.value) };
  while (!first.done && first.value.length < 2) {
    const next = await iterator.next();
    if (next.done) break;
    first = { done: false, value: Buffer.concat([first.value, next.value]) };
  }
  if (first.done) return;
  let read = 0;
  const isGzip = first.value[0] === 0x1f && first.value[1] === 0x8b;
  const counted = async function* () {
    read += first.value.length;
    onBytes?.(read);
    yield first.value;
    for (let r = await iterator.next(); !r.done; r = await iterator.next()) {
      read += r.value.length;
      onBytes?.(read);
      // zlib may hold on to its input past the next read: give it a copy.
      yield isGzip ? Buffer.from(r.value) : r.value;
    }
  };
  if (!isGzip) {
    yield* counted();
    return;
  }
  const gunzip = Readable.from(counted()).pipe(createGunzip());
  try {
    for await (const chunk of gunzip) yield chunk as Buffer;
  } catch (error) {
    throw new FatalImportError({ file, line: 0, field: "", message: `is not a valid gzip file (${(error as Error).message})` });
  }
}

/**
 * Reads a JSONL stream line by line with flat memory: plain or gzip, LF or CRLF, an optional
 * UTF-8 byte-order mark. Blank lines are skipped. Invalid UTF-8 or an over-long line stops the read.
 */
export async function* readLines(source: AsyncIterable<Uint8Array>, options: ReadLinesOptions): AsyncGenerator<JsonlLine> {
  const { file, maxLineBytes } = options;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let lineNumber = 0;

  const emit = (bytes: Buffer): JsonlLine | undefined => {
    let end = bytes.length;
    if (end > 0 && bytes[end - 1] === CR) end--;
    if (end > maxLineBytes) tooLong();
    lineNumber++;
    let start = 0;
    if (lineNumber === 1 && end >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;
    let text: string;
    try {
      text = decoder.decode(bytes.subarray(start, end));
    } catch {
      throw new FatalImportError({ file, line: lineNumber, field: "", message: "is not valid UTF-8" });
    }
    return text.trim() === "" ? undefined : { lineNumber, text };
  };
  const tooLong = (): never => {
    throw new FatalImportError({
      file,
      line: lineNumber + 1,
      field: "",
      message: `is longer than the limit of ${maxLineBytes} bytes`,
    });
  };

  for await (const raw of maybeGunzip(source, file, options.onBytes)) {
    const chunk = Buffer.isBuffer(raw) ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
    let from = 0;
    for (let nl = chunk.indexOf(NEWLINE, from); nl !== -1; nl = chunk.indexOf(NEWLINE, from)) {
      const piece = chunk.subarray(from, nl);
      if (pendingBytes + piece.length > maxLineBytes + 1) tooLong();
      const bytes = pendingBytes ? Buffer.concat([...pending, piece]) : piece;
      pending = [];
      pendingBytes = 0;
      const line = emit(bytes);
      if (line) yield line;
      from = nl + 1;
    }
    if (from < chunk.length) {
      const rest = chunk.subarray(from);
      pendingBytes += rest.length;
      if (pendingBytes > maxLineBytes + 1) tooLong();
      // Copy: the source may reuse its buffer.
      pending.push(Buffer.from(rest));
    }
  }
  if (pendingBytes) {
    const line = emit(Buffer.concat(pending));
    if (line) yield line;
  }
}

/** Node's fetch/Request body as an async iterable of bytes. */
export function bodyChunks(body: ReadableStream<Uint8Array> | null): AsyncIterable<Uint8Array> {
  if (!body) return (async function* () {})();
  return body as unknown as AsyncIterable<Uint8Array>;
}

/** Describes a zod issue path the way problems name fields: `output[0].provenance[1].wikipedia_id`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out || "(line)";
}

export type ParsedLine = { ok: true; value: unknown } | { ok: false; field: string; message: string };

/**
 * Parses one JSONL line. PostgreSQL text cannot hold NUL, so a string holding `\u0000` is a
 * problem of its own, named by its field (checked only when the escape appears in the line).
 */
export function parseJsonLine(text: string): ParsedLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, field: "(line)", message: `is not valid JSON: ${(error as Error).message}` };
  }
  if (text.includes("\\u0000")) {
    const [path] = nulPaths(value);
    if (path) return { ok: false, field: fieldPath(path), message: "contains a NUL character (\\u0000), which cannot be stored" };
  }
  return { ok: true, value };
}

import { createReadStream, statSync } from "node:fs";
import { basename } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

/** A small HTTP client for the app's API, used by the CLI. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export type UploadPart = { name: string; file: string } | { name: string; value: string };

export interface ClientOptions {
  url: string;
  token?: string;
}

export class ApiClient {
  constructor(private readonly options: ClientOptions) {}

  get baseUrl(): string {
    return this.options.url.replace(/\/+$/, "");
  }

  async request<T>(
    method: string,
    path: string,
    body?: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<{ data: T; headers: Headers }> {
    const headers: Record<string, string> = { ...extraHeaders };
    if (body !== undefined) headers["content-type"] = "application/json";
    return this.send<T>(method, path, body === undefined ? undefined : JSON.stringify(body), headers);
  }

  /**
   * Uploads files as multipart/form-data, streamed from disk (a 35 GB file never sits in memory),
   * reporting the bytes sent so far. With `onServerProgress`, asks for the server's progress as
   * NDJSON (app/_server/progress-stream.ts) and hands it each `progress` line.
   */
  async upload<T>(
    path: string,
    parts: UploadPart[],
    onProgress?: (sent: number, total: number) => void,
    onServerProgress?: (progress: unknown) => void,
  ): Promise<T> {
    const boundary = `----kps${Math.random().toString(16).slice(2)}${Date.now().toString(16)}`;
    const encoder = new TextEncoder();
    const heads = parts.map((p) =>
      encoder.encode(
        `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"` +
          ("file" in p
            ? `; filename="${basename(p.file).replace(/"/g, "")}"\r\nContent-Type: application/octet-stream\r\n\r\n`
            : "\r\n\r\n"),
      ),
    );
    const tail = encoder.encode(`--${boundary}--\r\n`);
    const sizes = parts.map((p) => ("file" in p ? statSync(p.file).size : Buffer.byteLength(p.value)));
    const total = heads.reduce((n, h) => n + h.length, 0) + sizes.reduce((n, s) => n + s + 2, 0) + tail.length;
    let sent = 0;
    const source = async function* (): AsyncGenerator<Uint8Array> {
      for (const [i, p] of parts.entries()) {
        yield heads[i]!;
        if ("file" in p) {
          for await (const chunk of createReadStream(p.file, { highWaterMark: 1 << 20 })) {
            sent += (chunk as Buffer).length;
            onProgress?.(sent, total);
            yield chunk as Buffer;
          }
        } else yield encoder.encode(p.value);
        yield encoder.encode("\r\n");
      }
      yield tail;
    };
    const body = Readable.toWeb(Readable.from(source())) as ReadableStream<Uint8Array>;
    const { data } = await this.send<T>(
      "POST",
      path,
      body,
      {
        "content-type": `multipart/form-data; boundary=${boundary}`,
        "content-length": String(total),
        ...(onServerProgress ? { accept: `${NDJSON}, application/json` } : {}),
      },
      onServerProgress,
    );
    return data;
  }

  /** Streams a download into `out` (a file or stdout) without holding it in memory; returns bytes written. */
  async download(path: string, out: NodeJS.WritableStream): Promise<number> {
    const headers: Record<string, string> = {};
    if (this.options.token) headers.authorization = `Bearer ${this.options.token}`;
    let res: Response;
    try {
      res = await fetch(this.baseUrl + path, { headers });
    } catch (error) {
      const reason = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
      throw new ApiError(
        `Cannot reach the app at ${this.baseUrl} (${reason}). Is it running? Start it with 'npm start', or pass --url.`,
        0,
        "unreachable",
      );
    }
    if (!res.ok || !res.body) {
      const data = (await res.json().catch(() => undefined)) as
        { error?: { code?: string; message?: string; details?: unknown } } | undefined;
      throw new ApiError(
        data?.error?.message ?? `The app answered ${res.status}.`,
        res.status,
        data?.error?.code ?? "http_error",
        data?.error?.details,
      );
    }
    let bytes = 0;
    const counted = Readable.fromWeb(res.body as import("node:stream/web").ReadableStream<Uint8Array>).on(
      "data",
      (c: Buffer) => (bytes += c.length),
    );
    await pipeline(counted, out, { end: out !== process.stdout });
    return bytes;
  }

  private async send<T>(
    method: string,
    path: string,
    body: BodyInit | undefined,
    extraHeaders: Record<string, string>,
    onServerProgress?: (progress: unknown) => void,
  ): Promise<{ data: T; headers: Headers }> {
    const headers: Record<string, string> = { accept: "application/json", ...extraHeaders };
    if (this.options.token) headers.authorization = `Bearer ${this.options.token}`;
    let res: Response;
    try {
      res = await fetch(this.baseUrl + path, {
        method,
        headers,
        body,
        ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
      } as RequestInit);
    } catch (error) {
      const reason = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
      throw new ApiError(
        `Cannot reach the app at ${this.baseUrl} (${reason}). Is it running? Start it with 'npm start', or pass --url.`,
        0,
        "unreachable",
      );
    }
    if (res.ok && res.body && onServerProgress && res.headers.get("content-type")?.startsWith(NDJSON))
      return { data: await progressLines<T>(res.body, onServerProgress), headers: res.headers };
    const text = await res.text();
    let data: unknown = undefined;
    try {
      data = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: reported below when the status is an error
    }
    if (!res.ok) throw apiErrorOf(res.status, data, res.statusText);
    return { data: data as T, headers: res.headers };
  }
}

const NDJSON = "application/x-ndjson";

/** The error of an answer with status ≥ 400, from its `{error: {code, message, details}}` body. */
function apiErrorOf(status: number, data: unknown, statusText = ""): ApiError {
  const err = (data as { error?: { code?: string; message?: string; details?: unknown } } | undefined)?.error;
  const answered = `The app answered ${[status, statusText].filter(Boolean).join(" ")}.`;
  return new ApiError(err?.message ?? answered, status, err?.code ?? "http_error", err?.details);
}

/** Reads NDJSON progress lines (`{progress}`) up to the last one, `{status, body}`: the body, or its error. */
async function progressLines<T>(stream: ReadableStream<Uint8Array>, onLine: (progress: unknown) => void): Promise<T> {
  const decoder = new TextDecoder();
  let buffered = "";
  let end: { status: number; body: unknown } | undefined;
  const take = (line: string) => {
    if (!line.trim()) return;
    const v = JSON.parse(line) as { progress?: unknown; status?: number; body?: unknown };
    if (v.status !== undefined) end = { status: v.status, body: v.body };
    else onLine(v.progress);
  };
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(chunk, { stream: true });
    const lines = buffered.split("\n");
    buffered = lines.pop()!;
    lines.forEach(take);
  }
  take(buffered + decoder.decode());
  if (!end) throw new ApiError("The app's answer ended before the import did.", 0, "http_error");
  if (end.status >= 400) throw apiErrorOf(end.status, end.body);
  return end.body as T;
}

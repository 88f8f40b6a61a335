// The fast path: the three annotation requests an annotator sends in a loop, answered by the
// production server (server/app-server.mjs) before Next.js's request pipeline sees them:
//   POST /api/claims/:handle/judgment   (with ?next=1 the answer brings the next task)
//   POST /api/campaigns/:id/next
//   POST /api/claims/:handle/renew
// It calls the very route handlers Next.js calls (app/api/…/route.ts), with a Request built from the
// Node request and the path's segments as Next.js hands them in, so authentication, the same-origin
// check, body limits, zod schemas and the error mapping (app/_server/http.ts) are the same code; the
// server's own security headers are set before either path runs. What it skips is Next.js's routing,
// its request and response adapters and its per-request bookkeeping (a third of the app's CPU per
// judgment: bench/annotate). scripts/build-fast-path.mjs bundles this file into
// .next/kps-fast-path.mjs after every `next build`; `next dev` never loads it.
import type { IncomingMessage, ServerResponse } from "node:http";
import { POST as nextPost } from "@/app/api/campaigns/[id]/next/route";
import { POST as judgmentPost } from "@/app/api/claims/[handle]/judgment/route";
import { POST as renewPost } from "@/app/api/claims/[handle]/renew/route";
import { MAX_JSON_BYTES } from "@/app/_server/http";
// @ts-expect-error: Next.js's compiled copy of the `compression` middleware ships without types
import compression from "next/dist/compiled/compression/index.js";
import { releaseCompressionStream } from "next/dist/server/lib/release-compression-stream.js";

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** Method + path shapes, as Next.js's router matches them (case-sensitive, no trailing slash: Next.js redirects that). */
const ROUTES: { pattern: RegExp; param: string; handler: Handler }[] = [
  { pattern: /^\/api\/claims\/([^/]+)\/judgment$/, param: "handle", handler: judgmentPost as Handler },
  { pattern: /^\/api\/campaigns\/([^/]+)\/next$/, param: "id", handler: nextPost as Handler },
  { pattern: /^\/api\/claims\/([^/]+)\/renew$/, param: "handle", handler: renewPost as Handler },
];

/** Set by app/_server/start-up.ts once the database is migrated and bootstrapped (Next.js runs it). */
const started = () => (globalThis as { __kpsStartedUp?: boolean }).__kpsStartedUp === true;

/** The route a request is for, or undefined: then Next.js answers it. */
function match(req: IncomingMessage): { handler: Handler; params: Record<string, string> } | undefined {
  if (req.method !== "POST" || !started()) return undefined;
  const url = req.url ?? "/";
  const q = url.indexOf("?");
  const pathname = q < 0 ? url : url.slice(0, q);
  for (const { pattern, param, handler } of ROUTES) {
    const m = pattern.exec(pathname);
    // server/app-server.mjs answered undecodable segments already; Next.js hands the decoded segment in.
    if (m) return { handler, params: { [param]: decodeURIComponent(m[1]!) } };
  }
  return undefined;
}

/**
 * The body, read up to one byte past MAX_JSON_BYTES (readJson answers 413 then, as on Next.js's path,
 * and the server closes the connection whose body was not read whole). A declared Content-Length over
 * the limit is refused before anything is read.
 */
function readBody(req: IncomingMessage): Promise<Buffer | null> {
  if (Number(req.headers["content-length"] ?? "0") > MAX_JSON_BYTES) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (error?: Error) => {
      req.off("data", onData).off("end", onEnd).off("error", finish);
      if (error) reject(error);
      else resolve(size === 0 ? null : Buffer.concat(chunks));
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      // Past the limit: stop reading, but never destroy the socket (the 413 must reach the client).
      if (size > MAX_JSON_BYTES) {
        req.pause();
        finish();
      }
    };
    const onEnd = () => finish();
    req.on("data", onData).on("end", onEnd).on("error", finish);
  });
}

function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    try {
      headers.append(raw[i]!, raw[i + 1]!);
    } catch {
      // A header value Headers refuses (Next.js's adapter skips it too).
    }
  }
  // Set by the app server after the raw headers were read (server/app-server.mjs).
  headers.set("x-kps-client-address", String(req.headers["x-kps-client-address"] ?? ""));
  if (req.headers["x-forwarded-host"] === undefined) headers.delete("x-forwarded-host");
  if (req.headers["x-forwarded-proto"] === undefined) headers.delete("x-forwarded-proto");
  return headers;
}

/**
 * Next.js's response compression, as its router server applies it to every response (next.config.ts
 * leaves `compress` on): gzip or deflate by the request's Accept-Encoding, for bodies past 1 KB.
 */
const compress = (compression as () => (req: IncomingMessage, res: ServerResponse, next: () => void) => void)();

function compressed(req: IncomingMessage, res: ServerResponse): void {
  compress(req, res, () => {});
  // On a client's disconnect the middleware never ends its zlib stream (Next.js releases it the same way).
  res.once("close", () => {
    if (!res.writableFinished) releaseCompressionStream(res);
  });
}

async function answer(req: IncomingMessage, res: ServerResponse, handler: Handler, params: Record<string, string>): Promise<void> {
  const headers = headersOf(req);
  const body = await readBody(req);
  const request = new Request(`http://${req.headers.host ?? "localhost"}${req.url ?? "/"}`, {
    method: "POST",
    headers,
    body: body as Uint8Array<ArrayBuffer> | null,
  });
  const response = await handler(request, { params: Promise.resolve(params) });
  compressed(req, res);
  const payload = response.body ? Buffer.from(await response.arrayBuffer()) : undefined;
  res.statusCode = response.status;
  response.headers.forEach((value, name) => res.setHeader(name, value));
  // Written as Next.js streams a body (no Content-Length, then the bytes): compressed whenever the client accepts it, whatever its size.
  if (payload) res.write(payload);
  res.end();
}

/**
 * Answers `req` when it is one of the fast path's routes and returns true; false leaves it to Next.js.
 * `x-kps-fast-path: off` on a request leaves it to Next.js too (the HTTP tests compare both paths).
 */
export function fastPath(req: IncomingMessage, res: ServerResponse): boolean {
  const route = match(req);
  if (!route || req.headers["x-kps-fast-path"] === "off") return false;
  answer(req, res, route.handler, route.params).catch((error: unknown) => {
    console.error("request failed:", error);
    if (!res.headersSent) res.writeHead(500).end();
  });
  return true;
}

import { z } from "zod";
import { getDb, type Db } from "@/db/client";
import { resolveActor, SESSION_COOKIE } from "@/lib/auth/sessions";
import type { Actor } from "@/lib/auth/actor";
import { AppError, parseInput } from "@/lib/errors";
import { databaseConfig, env } from "@/lib/env";
import { readAuthorization, readCookie } from "./credentials";

export { readCookie } from "./credentials";

/**
 * The edge between HTTP and the domain: route handlers are `route(async (req, ctx) => …)`.
 * It maps AppError to `{"error": {code, message, details?}}` with its status, and anything
 * unexpected to a logged 500 (or 503 when the database is out of reach).
 */
export function route<C>(handler: (req: Request, ctx: C) => Promise<Response>): (req: Request, ctx: C) => Promise<Response> {
  return async (req, ctx) => {
    try {
      return await handler(req, ctx);
    } catch (error) {
      return errorResponse(error);
    }
  };
}

export function errorResponse(error: unknown): Response {
  if (error instanceof AppError) {
    const body = {
      error: { code: error.code, message: error.message, ...(error.details === undefined ? {} : { details: error.details }) },
    };
    // A refusal that names when to come back (`details.retryAfterSeconds`) says it in Retry-After too.
    const retry = (error.details as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
    return Response.json(body, { status: error.status, headers: typeof retry === "number" ? { "retry-after": String(retry) } : undefined });
  }
  if (isConnectionError(error)) {
    console.error("database unavailable:", error);
    return Response.json({ error: { code: "unavailable", message: "The database is unavailable; try again shortly." } }, { status: 503 });
  }
  console.error("unexpected error:", error);
  return Response.json(
    { error: { code: "internal", message: "Something went wrong on the server; it has been logged." } },
    { status: 500 },
  );
}

/**
 * Socket errors, postgres.js's connection errors, and PostgreSQL's "connection exception" (08…)
 * and "operator intervention" (57P…: shut down, restarting) classes, also when wrapped as the
 * `cause` of drizzle's query error.
 */
const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
]);

export function isConnectionError(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && (CONNECTION_CODES.has(code) || code.startsWith("08") || code.startsWith("57P"))) return true;
  }
  return false;
}

export function json(data: unknown, status = 200, headers?: HeadersInit): Response {
  return Response.json(data, { status, headers });
}

/** Largest JSON body accepted by ordinary API routes (imports stream and have their own limits). */
export const MAX_JSON_BYTES = 1_000_000;

/** Reads a JSON body (400 when it is not JSON, 413 when too large) and parses it with `schema` (422). */
export async function readJson<S extends z.ZodType>(req: Request, schema: S): Promise<z.infer<S>> {
  const text = await readBodyText(req);
  if (text === "") throw new AppError("bad_request", "The request body is empty; send a JSON object.");
  return parseInput(schema, parseJsonText(text));
}

const noFields = z.object({}).strict();

/**
 * For routes that take no input: no body, or `{}`. Malformed JSON is a 400 as on every other route
 * (never silently ignored), fields are a 422, and a body past the limit a 413.
 */
export async function readEmptyBody(req: Request): Promise<void> {
  const text = await readBodyText(req);
  if (text.trim() === "") return;
  parseInput(noFields, parseJsonText(text));
}

/**
 * The body as text, read while it streams and never past MAX_JSON_BYTES (a declared Content-Length
 * over it is refused before reading; a chunked body at the byte that crosses it). The stream is
 * released, not cancelled: cancelling destroys the request's socket before the 413 can be sent. The
 * production server closes a connection whose response went out before its body was read whole.
 */
async function readBodyText(req: Request): Promise<string> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > MAX_JSON_BYTES) throw tooLarge();
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_JSON_BYTES) {
      reader.releaseLock();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/** 415 unless the body is declared `application/json` (a cross-site form cannot send that without CORS). */
export function assertJsonContentType(req: Request): void {
  const type = (req.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/json") {
    throw new AppError("unsupported_media_type", `Send the body as Content-Type: application/json (got ${type ? `'${type}'` : "none"}).`);
  }
}

function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new AppError("bad_request", `The request body is not valid JSON: ${(error as Error).message}`);
  }
}

function tooLarge(): AppError {
  return new AppError("too_large", `The request body is larger than ${MAX_JSON_BYTES} bytes.`);
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The database and the caller of a request. A cookie-authenticated unsafe request must come from
 * this site (Origin or Sec-Fetch-Site): cross-site POSTs are refused even where SameSite is not honoured.
 */
export async function requestContext(req: Request): Promise<{ db: Db; actor: Actor }> {
  const db = await getDb(databaseConfig());
  // A header that is not `Bearer <token>` counts as none (a proxy's `Basic …` must not lock the
  // cookie out); a malformed cookie too. Only a well-formed but unknown credential is a 401 here.
  const authorization = readAuthorization(req);
  const bearerToken = authorization.kind === "bearer" ? authorization.token : undefined;
  const sessionToken = bearerToken ? undefined : readCookie(req, SESSION_COOKIE);
  if (sessionToken && !SAFE_METHODS.has(req.method)) assertSameOrigin(req);
  const actor = await resolveActor(db, { bearerToken, sessionToken, address: clientAddress(req) });
  return {
    db,
    actor: actor.kind === "anonymous" && authorization.kind === "ignored" ? { kind: "anonymous", ignored: authorization.reason } : actor,
  };
}

/**
 * Refuses a request a browser marks cross-site (Sec-Fetch-Site) or whose Origin is neither this
 * request's host nor KPS_PUBLIC_URL's (a proxy that rewrites Host still passes with the latter).
 */
export function assertSameOrigin(req: Request, publicUrl = env().KPS_PUBLIC_URL): void {
  const site = req.headers.get("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none") {
    throw new AppError("forbidden", "Cross-site requests are not accepted.");
  }
  const origin = req.headers.get("origin");
  if (origin && origin !== "null") {
    const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host");
    let originHost: string;
    try {
      originHost = new URL(origin).host;
    } catch {
      throw new AppError("forbidden", "Cross-site requests are not accepted.");
    }
    const publicHost = publicUrl ? new URL(publicUrl).host : undefined;
    if (host && originHost !== host && originHost !== publicHost) throw new AppError("forbidden", "Cross-site requests are not accepted.");
  } else if (origin === "null") {
    throw new AppError("forbidden", "Cross-site requests are not accepted.");
  }
}

/**
 * The caller's address, as the production server (server/production-server.mjs) read it from the socket (or,
 * behind KPS_TRUST_PROXY, from the right-most untrusted X-Forwarded-For hop). Never a header the client chose: a
 * forged X-Forwarded-For does not escape the per-address sign-in limit. Without that server (next
 * dev) every caller shares one address.
 */
export function clientAddress(req: Request): string {
  return req.headers.get("x-kps-client-address") || "unknown";
}

const LOOPBACK_HOST = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d+)?$/i;

/**
 * The public origin for links the app prints (invites): KPS_PUBLIC_URL. Without it, the request's
 * Host header (chosen by the client) is used only outside production or when it names this machine
 * (localhost); in production any other Host is refused, so a forged Host cannot plant a link.
 */
export function publicOrigin(req: Request, configured?: string, production = env().NODE_ENV === "production"): string {
  if (configured) return configured.replace(/\/+$/, "");
  const url = new URL(req.url);
  const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host") ?? url.host;
  if (production && !LOOPBACK_HOST.test(host)) {
    throw new AppError(
      "conflict",
      `Links are not built from the request's Host header ('${host}') in production: set KPS_PUBLIC_URL to the address people use (e.g. https://kps.example.org) and restart.`,
    );
  }
  const proto = req.headers.get("x-forwarded-proto") ?? url.protocol.replace(":", "");
  return `${proto}://${host}`;
}

/** Secure cookies in production unless KPS_SECURE_COOKIES=0 (browsers accept them on localhost too). */
function secureCookies(): boolean {
  const { NODE_ENV, KPS_SECURE_COOKIES } = env();
  return KPS_SECURE_COOKIES ? KPS_SECURE_COOKIES === "1" : NODE_ENV === "production";
}

/** The session cookie: httpOnly, SameSite=Lax, Secure in production; `null` expiry clears it. */
export function sessionCookie(value: string, expiresAt: Date | null, secure = secureCookies()): string {
  const parts = [`${SESSION_COOKIE}=${value}`, "Path=/", "HttpOnly", "SameSite=Lax"];
  parts.push(expiresAt ? `Expires=${expiresAt.toUTCString()}` : "Max-Age=0");
  if (secure) parts.push("Secure");
  return parts.join("; ");
}

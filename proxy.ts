import { NextResponse, type NextRequest } from "next/server";
import { crowdFrameOrigins } from "@/lib/crowd/origins";

/**
 * A Content-Security-Policy with a fresh nonce for every page: Next.js reads the nonce from the
 * request's CSP header and puts it on its own scripts, so no other inline script runs. Pages are
 * rendered per request for this (app/layout.tsx: force-dynamic). Styles allow 'unsafe-inline':
 * React renders `style` attributes (progress bars, charts) that a nonce cannot cover.
 * API routes are not matched: a proxy makes Next.js copy the request body (up to 10 MB) before the
 * route reads it, which would defeat the streamed body limits and truncate uploads.
 * The production server (server/production-server.mjs) gives every other response a strict CSP.
 * Only the crowd entry pages (/crowd/…) may be framed, by MTurk's worker sites (and KPS_CROWD_FRAME_ORIGINS),
 * and post their assignment form there; every other page keeps frame-ancestors 'none'.
 */
export function proxy(request: NextRequest): NextResponse {
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString("base64");
  const framedBy = request.nextUrl.pathname.startsWith("/crowd/") ? crowdFrameOrigins() : [];
  const policy = contentSecurityPolicy(nonce, process.env.NODE_ENV === "development", framedBy);
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("content-security-policy", policy);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("content-security-policy", policy);
  response.headers.set("x-content-type-options", "nosniff");
  response.headers.set("referrer-policy", "same-origin");
  return response;
}

function contentSecurityPolicy(nonce: string, development = false, framedBy: readonly string[] = []): string {
  return [
    "default-src 'self'",
    // 'strict-dynamic': scripts Next.js's nonced scripts load are trusted; no inline script without the nonce.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    `form-action 'self'${framedBy.map((o) => ` ${o}`).join("")}`,
    framedBy.length ? `frame-ancestors ${framedBy.join(" ")}` : "frame-ancestors 'none'",
  ].join("; ");
}

export const config = {
  matcher: ["/((?!api(?:/|$)|_next/static|_next/image|icon\\.svg|favicon\\.ico).*)"],
};

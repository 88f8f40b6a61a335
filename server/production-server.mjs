#!/usr/bin/env node
// The production server: Next.js's request handler on Node's http server, like `next start`, plus
// the edge defences Next.js leaves to the server:
// - timeouts: request headers within KPS_HEADERS_TIMEOUT_MS, every request body within
//   KPS_REQUEST_TIMEOUT_MS (else 408 and the socket is closed), except the two upload routes
//   (POST /api/knowledge, POST /api/campaigns/:id/batches: a 35 GB upload may take hours), which
//   are only cut when no byte moves for KPS_UPLOAD_IDLE_TIMEOUT_MS;
// - at most KPS_MAX_CONNECTIONS_PER_ADDRESS open connections per client address;
// - a response sent before its request body was read whole (413, 401 on an upload…) closes the
//   connection shortly after, so the rest of the body is never read;
// - the caller's address from the socket, or behind KPS_TRUST_PROXY from the right-most untrusted
//   X-Forwarded-For hop (server/client-address.mjs);
// - security headers on every response (pages get their nonce-based CSP from proxy.ts).
// Usage: node server/production-server.mjs [--port N]   (PORT and HOSTNAME are read too)
import http from "node:http";
import path from "node:path";
import { clientAddressOf, isTrusted, normalizeAddress, parseTrustProxy } from "./client-address.mjs";

process.env.NODE_ENV = "production";

/** A whole number from the environment (milliseconds or a count), `fallback` when unset. */
function envInt(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw)) {
    console.error(`Invalid environment variables:\n  ${name}: expected a whole number, got "${raw}"`);
    process.exit(1);
  }
  return Number(raw);
}

const HEADERS_TIMEOUT_MS = envInt("KPS_HEADERS_TIMEOUT_MS", 20_000);
const REQUEST_TIMEOUT_MS = envInt("KPS_REQUEST_TIMEOUT_MS", 60_000);
const UPLOAD_IDLE_TIMEOUT_MS = envInt("KPS_UPLOAD_IDLE_TIMEOUT_MS", 5 * 60_000);
const MAX_CONNECTIONS_PER_ADDRESS = envInt("KPS_MAX_CONNECTIONS_PER_ADDRESS", 64);
/** How long a connection whose response went out before its body was read stays open (for the client to read it). */
const LINGER_MS = 2_000;

let trust;
try {
  trust = parseTrustProxy(process.env.KPS_TRUST_PROXY);
} catch (error) {
  console.error(`Invalid environment variables:\n  ${error.message}`);
  process.exit(1);
}
const secureCookies = process.env.KPS_SECURE_COOKIES ? process.env.KPS_SECURE_COOKIES === "1" : true;

const { default: next } = await import("next");
const root = path.resolve(import.meta.dirname, "..");
const portArg = process.argv.indexOf("--port");
const port = Number(portArg > -1 ? process.argv[portArg + 1] : process.env.PORT || 3000);
const hostname = process.env.HOSTNAME || "0.0.0.0";

const app = next({ dev: false, dir: root, port, hostname: "localhost" });
await app.prepare();
const handle = app.getRequestHandler();

const UPLOAD_ROUTE = /^\/api\/(knowledge|campaigns\/[^/]+\/batches)\/?$/;
const isUpload = (req) => req.method === "POST" && UPLOAD_ROUTE.test((req.url ?? "").split("?")[0]);

/** Headers every response carries; proxy.ts replaces the CSP of pages with one holding their nonce. */
function setSecurityHeaders(res) {
  res.setHeader("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Referrer-Policy", "same-origin");
  if (secureCookies) res.setHeader("Strict-Transport-Security", "max-age=31536000");
}

/** The body must be in within REQUEST_TIMEOUT_MS (uploads: no idle gap longer than UPLOAD_IDLE_TIMEOUT_MS). */
function limitTime(req, res) {
  const socket = req.socket;
  if (isUpload(req)) {
    if (UPLOAD_IDLE_TIMEOUT_MS > 0) {
      socket.setTimeout(UPLOAD_IDLE_TIMEOUT_MS);
      const idle = () => socket.destroy();
      socket.once("timeout", idle);
      res.once("close", () => {
        socket.setTimeout(0);
        socket.off("timeout", idle);
      });
    }
    return;
  }
  if (REQUEST_TIMEOUT_MS <= 0) return;
  const timer = setTimeout(() => {
    if (req.complete) return;
    if (!res.headersSent) {
      res.writeHead(408, { "content-type": "application/json", connection: "close" });
      res.end(JSON.stringify({ error: { code: "timeout", message: `The request body did not arrive within ${REQUEST_TIMEOUT_MS} ms.` } }));
    }
    setTimeout(() => socket.destroy(), 200).unref();
  }, REQUEST_TIMEOUT_MS);
  timer.unref();
  res.once("close", () => clearTimeout(timer));
}

const server = http.createServer(
  { requestTimeout: 0, headersTimeout: HEADERS_TIMEOUT_MS, connectionsCheckingInterval: Math.min(1_000, HEADERS_TIMEOUT_MS || 1_000) },
  (req, res) => {
    // Set here so that a client cannot choose it: an incoming x-kps-client-address is overwritten, and
    // X-Forwarded-Host/-Proto are believed only from a trusted proxy (links, same-origin checks).
    req.headers["x-kps-client-address"] = clientAddressOf(trust, req.socket.remoteAddress, req.headers["x-forwarded-for"]);
    if (trust.kind === "none" || (trust.kind === "list" && !isTrusted(trust, req.socket.remoteAddress))) {
      delete req.headers["x-forwarded-host"];
      delete req.headers["x-forwarded-proto"];
    }
    setSecurityHeaders(res);
    limitTime(req, res);
    res.once("finish", () => {
      if (!req.complete) setTimeout(() => req.complete || req.socket.destroy(), LINGER_MS).unref();
    });
    handle(req, res).catch((error) => {
      console.error("request failed:", error);
      if (!res.headersSent) res.writeHead(500).end();
    });
  },
);

// Connections per address: the excess is answered 503 and closed at once. Behind a proxy the proxy's
// own connections are not counted (with a count setting every connection comes through the proxy).
const connections = new Map();
server.prependListener("connection", (socket) => {
  if (MAX_CONNECTIONS_PER_ADDRESS <= 0 || trust.kind === "count" || isTrusted(trust, socket.remoteAddress)) return;
  const address = normalizeAddress(socket.remoteAddress) || "unknown";
  const open = (connections.get(address) ?? 0) + 1;
  connections.set(address, open);
  socket.once("close", () => {
    const left = (connections.get(address) ?? 1) - 1;
    if (left > 0) connections.set(address, left);
    else connections.delete(address);
  });
  if (open > MAX_CONNECTIONS_PER_ADDRESS) {
    socket.write("HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: 38\r\n\r\nToo many connections from one address.", () => socket.destroy());
  }
});
server.on("error", (error) => {
  console.error(`Cannot listen on port ${port}: ${error.message}`);
  process.exit(1);
});
server.listen(port, hostname, () => {
  console.log(`Ready: http://localhost:${port}`);
});

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    server.close();
    process.exit(0);
  });
}

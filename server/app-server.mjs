import cluster from "node:cluster";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { clientAddressOf, isTrusted, normalizeAddress } from "./client-address.mjs";
import { LINGER_MS } from "./settings.mjs";
import { answerMalformedSegment, malformedSegment } from "./path-segments.mjs";

/**
 * One app server: Next.js's handler behind the edge defences (server/production-server.mjs says
 * which). `settings` come from readSettings() (server/settings.mjs); `connectionCap` is this
 * process's share of KPS_MAX_CONNECTIONS_PER_ADDRESS; `announce` prints "Ready: …" once listening.
 */
/**
 * The fast path (server/fast-path.ts, bundled into .next/kps-fast-path.mjs by `next build`): the
 * judgment, next-task and renewal requests answered by the same route handlers without Next.js's
 * request pipeline. Off with KPS_FAST_PATH=0, and when the build has no bundle (said once).
 */
async function loadFastPath(root) {
  if (process.env.KPS_FAST_PATH === "0") return undefined;
  const bundle = path.join(root, ".next", "kps-fast-path.mjs");
  if (!fs.existsSync(bundle)) {
    if (cluster.isPrimary || cluster.worker?.id === 1)
      console.log(`No ${path.relative(root, bundle)}: every request goes through Next.js.`);
    return undefined;
  }
  return (await import(pathToFileURL(bundle).href)).fastPath;
}

export async function serve(settings, { connectionCap, announce }) {
  const { port, hostname, trust, secureCookies } = settings;
  const {
    headersTimeoutMs: HEADERS_TIMEOUT_MS,
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
    uploadIdleTimeoutMs: UPLOAD_IDLE_TIMEOUT_MS,
  } = settings;
  const MAX_CONNECTIONS_PER_ADDRESS = connectionCap;
  const { default: next } = await import("next");
  const root = path.resolve(import.meta.dirname, "..");

  const app = next({ dev: false, dir: root, port, hostname: "localhost" });
  // Start-up (instrumentation.ts) leaves its one-line summary here for "Ready" when it runs before listening.
  const ready = announce ? (globalThis.__kpsReady = {}) : undefined;
  await app.prepare();
  const handle = app.getRequestHandler();
  const fastPath = await loadFastPath(root);

  const UPLOAD_ROUTE = /^\/api\/(knowledge|campaigns\/[^/]+\/(batches|runs))\/?$/;
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
        res.end(
          JSON.stringify({ error: { code: "timeout", message: `The request body did not arrive within ${REQUEST_TIMEOUT_MS} ms.` } }),
        );
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
      const bad = malformedSegment(req.url ?? "/");
      if (bad) return answerMalformedSegment(res, req.url ?? "/", bad);
      if (fastPath?.(req, res)) return;
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
      socket.write(
        "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: 38\r\n\r\nToo many connections from one address.",
        () => socket.destroy(),
      );
    }
  });
  server.on("error", (error) => {
    console.error(`Cannot listen on port ${port}: ${error.message}`);
    process.exit(1);
  });
  server.listen(port, hostname, () => {
    if (!announce) return;
    console.log(`Ready: http://localhost:${port}` + (ready?.summary ? ` — ${ready.summary}` : ""));
    // Next.js may run start-up (instrumentation) after this, on its first request: then start-up prints its summary itself.
    ready.printed = true;
  });

  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.on(signal, () => {
      server.close();
      process.exit(0);
    });
  }
  return server;
}

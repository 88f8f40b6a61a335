#!/usr/bin/env node
// The production server: Next.js's request handler on Node's http server, like `next start`, plus
// the edge defences Next.js leaves to the server (server/app-server.mjs):
// - timeouts: request headers within KPS_HEADERS_TIMEOUT_MS, every request body within
//   KPS_REQUEST_TIMEOUT_MS (else 408 and the socket is closed), except the upload routes
//   (POST /api/knowledge, POST /api/campaigns/:id/batches and …/runs: a 35 GB upload may take hours), which
//   are only cut when no byte moves for KPS_UPLOAD_IDLE_TIMEOUT_MS;
// - at most KPS_MAX_CONNECTIONS_PER_ADDRESS open connections per client address (with N workers,
//   each worker allows ⌈cap / N⌉: server/settings.mjs);
// - a response sent before its request body was read whole (413, 401 on an upload…) closes the
//   connection shortly after, so the rest of the body is never read;
// - the caller's address from the socket, or behind KPS_TRUST_PROXY from the right-most untrusted
//   X-Forwarded-For hop (server/client-address.mjs);
// - security headers on every response (pages get their nonce-based CSP from proxy.ts).
// With PostgreSQL (DATABASE_URL), KPS_WORKERS processes (default: the number of cores) share the
// port through node:cluster (server/primary.mjs); every worker is a whole app server with all of the
// above. The embedded database (PGlite) is one process's, so without DATABASE_URL there is one.
// Usage: node server/production-server.mjs [--port N]   (PORT and HOSTNAME are read too)
import cluster from "node:cluster";
import { connectionCapPerWorker, readSettings } from "./settings.mjs";

process.env.NODE_ENV = "production";
const settings = readSettings();

if (cluster.isPrimary && settings.workers > 1) {
  const { runPrimary } = await import("./primary.mjs");
  runPrimary(settings);
} else {
  if (cluster.isPrimary && settings.workersAsked > 1 && !process.env.DATABASE_URL && process.env.KPS_WORKERS) {
    console.log(`KPS_WORKERS=${settings.workersAsked} is for PostgreSQL: the embedded database (PGlite) is served by one process.`);
  }
  const { serve } = await import("./app-server.mjs");
  await serve(settings, {
    connectionCap: connectionCapPerWorker(settings.maxConnectionsPerAddress, settings.workers),
    // The primary says "Ready" for its workers, once all of them listen.
    announce: cluster.isPrimary,
  });
}

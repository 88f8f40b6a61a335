// The production server's settings from the environment, read and checked once (by the primary and by
// every worker alike: an invalid value stops the start before anything listens).
import os from "node:os";
import { parseTrustProxy } from "./client-address.mjs";

/** How long a connection whose response went out before its body was read stays open (for the client to read it). */
export const LINGER_MS = 2_000;

/** Stops the process with the message lib/env.ts would print. */
function invalid(message) {
  console.error(`Invalid environment variables:\n  ${message}`);
  process.exit(1);
}

/** A whole number from the environment (milliseconds or a count), `fallback` when unset. */
function envInt(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw)) invalid(`${name}: expected a whole number, got "${raw}"`);
  return Number(raw);
}

export function readSettings(argv = process.argv) {
  let trust;
  try {
    trust = parseTrustProxy(process.env.KPS_TRUST_PROXY);
  } catch (error) {
    invalid(error.message);
  }
  const workersAsked = envInt("KPS_WORKERS", os.availableParallelism());
  if (workersAsked < 1) invalid(`KPS_WORKERS: expected 1 or more, got "${process.env.KPS_WORKERS}"`);
  const postgres = !!process.env.DATABASE_URL;
  const portArg = argv.indexOf("--port");
  return {
    port: Number(portArg > -1 ? argv[portArg + 1] : process.env.PORT || 3000),
    hostname: process.env.HOSTNAME || "0.0.0.0",
    trust,
    secureCookies: process.env.KPS_SECURE_COOKIES ? process.env.KPS_SECURE_COOKIES === "1" : true,
    headersTimeoutMs: envInt("KPS_HEADERS_TIMEOUT_MS", 20_000),
    requestTimeoutMs: envInt("KPS_REQUEST_TIMEOUT_MS", 60_000),
    uploadIdleTimeoutMs: envInt("KPS_UPLOAD_IDLE_TIMEOUT_MS", 5 * 60_000),
    maxConnectionsPerAddress: envInt("KPS_MAX_CONNECTIONS_PER_ADDRESS", 64),
    workersAsked,
    /** Worker processes: KPS_WORKERS on PostgreSQL; the embedded database is one process's. */
    workers: postgres ? workersAsked : 1,
  };
}

/**
 * Each worker counts its own connections, and the primary's round robin spreads one address's
 * connections over the workers: each gets ⌈cap / N⌉, so one address holds at most about the cap
 * in total (0 = no cap).
 */
export function connectionCapPerWorker(cap, workers) {
  return cap <= 0 ? 0 : Math.ceil(cap / workers);
}

import "server-only";
import { z } from "zod";
import { databaseConfigOf, databaseEnvShape, type DatabaseConfig } from "@/db/config";

/** The one place that reads process.env. Every variable is validated here. */
const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  /** DATABASE_URL and KPS_DATA_DIR: where the database is (defined beside the client, db/config.ts). */
  ...databaseEnvShape,
  /** The first coordinator, created on start-up when no user of that name exists. */
  KPS_ADMIN_USERNAME: z.string().min(1).optional(),
  KPS_ADMIN_PASSWORD: z.string().min(1).optional(),
  /** Seed the demo campaign on first start with the embedded database ("0" turns it off). */
  KPS_DEMO: z.enum(["0", "1"]).optional(),
  /** Public base URL for links the app prints (invites); defaults to the request's origin. */
  KPS_PUBLIC_URL: z.url().optional(),
  /** Largest knowledge-source upload, in bytes (the full KILT file is 35 GB). */
  KPS_MAX_KNOWLEDGE_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(64 * 1024 ** 3),
  /** Largest batch upload (questions + candidates), in bytes. */
  KPS_MAX_BATCH_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(512 * 1024 ** 2),
  /**
   * Origins besides MTurk's own (https://www.mturk.com, https://workersandbox.mturk.com) that may frame
   * the crowd entry pages and receive their assignment submit: a comma-separated list, e.g. a test harness.
   */
  KPS_CROWD_FRAME_ORIGINS: z
    .string()
    .regex(/^https?:\/\/[\w.-]+(:\d+)?(\s*,\s*https?:\/\/[\w.-]+(:\d+)?)*$/, "a comma-separated list of origins (scheme://host[:port])")
    .optional(),
  /**
   * For tests and staging only: where the MTurk site a campaign chose (`mturkSite`) receives its
   * assignments' submit, instead of https://workersandbox.mturk.com or https://www.mturk.com (an
   * origin; it may also frame the crowd pages). Unset in production.
   */
  KPS_MTURK_SANDBOX_ORIGIN: z
    .string()
    .regex(/^https?:\/\/[\w.-]+(:\d+)?$/, "an origin (scheme://host[:port])")
    .optional(),
  KPS_MTURK_PRODUCTION_ORIGIN: z
    .string()
    .regex(/^https?:\/\/[\w.-]+(:\d+)?$/, "an origin (scheme://host[:port])")
    .optional(),
  /**
   * The knowledge source's text index: "postgres" (the default; paragraph_index in the app's
   * database, RUM where the server offers it, else GIN) or "lance" (an embedded BM25 index on disk).
   */
  KPS_KNOWLEDGE_ENGINE: z.enum(["postgres", "lance"]).default("postgres"),
  /** Where an embedded engine keeps its files (default: `knowledge-index` beside KPS_DATA_DIR's folder). */
  KPS_KNOWLEDGE_INDEX_DIR: z.string().min(1).optional(),
  /**
   * Chunks of a text index build run at once, on PostgreSQL with the postgres engine (default: the
   * core count, at most 4): each chunk's tsvectors are computed by its own server process, on a
   * connection of the app's pool. Always 1 on the embedded database and with the lance engine.
   */
  KPS_INDEX_BUILD_WORKERS: z.coerce.number().int().min(1).optional(),
  /** Secure cookies; defaults to on in production. "0" turns it off (e.g. plain-HTTP on localhost). */
  KPS_SECURE_COOKIES: z.enum(["0", "1"]).optional(),
  /**
   * The LanceDB engine's thread pools (lib/knowledge/engines/lance-store.ts): compute threads (default:
   * the core count) and I/O threads (default 8). LANCE_CPU_THREADS / LANCE_IO_THREADS, when set, win.
   */
  KPS_LANCE_CPU_THREADS: z.coerce.number().int().min(1).optional(),
  KPS_LANCE_IO_THREADS: z.coerce.number().int().min(1).optional(),
  /**
   * The LanceDB engine's index-build buffer, in MiB per build worker (default 256): a worker spills
   * what it has tokenized to a part file when its buffer reaches this size, which bounds the buffer's
   * share of a build's memory (not all of it: bench/search). LANCE_FTS_PARTITION_SIZE, when set, wins.
   */
  KPS_LANCE_FTS_PARTITION_MB: z.coerce.number().int().min(16).optional(),
  /**
   * The LanceDB engine's caches, in MiB, per process: index data (default 512; the library's own is
   * 6 GiB) and file metadata (default 128; the library's own is 1 GiB). They grow with what was read
   * or built, so they set most of a large build's and a long-running server's memory.
   */
  KPS_LANCE_INDEX_CACHE_MB: z.coerce.number().int().min(0).optional(),
  KPS_LANCE_METADATA_CACHE_MB: z.coerce.number().int().min(0).optional(),
  /**
   * The LanceDB engine's paragraphs per table (default 2,000,000): a build that fills a table brings
   * its index up to date and goes on in a new one, so no index build or merge holds more than this
   * many paragraphs (an index's build memory grows with its table), and a query asks every table.
   */
  KPS_LANCE_SHARD_PARAGRAPHS: z.coerce.number().int().min(1).optional(),
  /** The rows of a LanceDB shard from which its index is built in a child process (lance-store.ts; default 100,000; 0: always). */
  KPS_LANCE_INDEX_CHILD_ROWS: z.coerce.number().int().min(0).optional(),
  // ── read by server/production-server.mjs itself (plain JavaScript); listed here to be validated and documented ──
  /** Proxies in front: a count (1 = one reverse proxy) or a list of proxy addresses/CIDRs ("loopback", "private"); unset = none. */
  KPS_TRUST_PROXY: z
    .string()
    .regex(/^(\d+|[\w.:/]+(\s*,\s*[\w.:/]+)*)$/, "a number of proxies or a comma-separated list of addresses/CIDRs")
    .optional(),
  /** Milliseconds for a request's headers to arrive (default 20 s). */
  KPS_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(0).optional(),
  /** Milliseconds for a request's body to arrive, uploads exempt (default 60 s; 0 = none). */
  KPS_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(0).optional(),
  /** Milliseconds an upload may go without a byte before it is cut (default 5 minutes; 0 = none). */
  KPS_UPLOAD_IDLE_TIMEOUT_MS: z.coerce.number().int().min(0).optional(),
  /** Open connections per client address (default 64; 0 = no cap). */
  KPS_MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(0).optional(),
  /** Worker processes sharing the port, on PostgreSQL only (default: the number of cores; 1 = one process). */
  KPS_WORKERS: z.coerce.number().int().min(1).optional(),
  /**
   * Set by the cluster's primary (server/primary.mjs) for each worker it forks, never by hand: "lead" for
   * the first, which seeds and prints the demo; "follow" for the others and for restarts. Unset: one
   * process, which leads.
   */
  KPS_START_UP: z.enum(["lead", "follow"]).optional(),
});

export type Env = z.infer<typeof envSchema>;

let cached: Env | undefined;

export function env(): Env {
  if (cached) return cached;
  const parsed = envSchema.safeParse(emptyAsUndefined(process.env));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
    throw new Error(`Invalid environment variables:\n${problems}`);
  }
  if (parsed.data.KPS_ADMIN_USERNAME && !parsed.data.KPS_ADMIN_PASSWORD) {
    throw new Error("Invalid environment variables:\n  KPS_ADMIN_PASSWORD: required when KPS_ADMIN_USERNAME is set");
  }
  cached = parsed.data;
  return cached;
}

/** The database the app opens (`getDatabase(databaseConfig())`). */
export function databaseConfig(): DatabaseConfig {
  return databaseConfigOf(env());
}

function emptyAsUndefined(source: NodeJS.ProcessEnv): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(source).map(([k, v]) => [k, v === "" ? undefined : v]));
}

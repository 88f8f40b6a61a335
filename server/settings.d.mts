import type { TrustProxy } from "./client-address.mjs";

export const LINGER_MS: number;
export interface Settings {
  port: number;
  hostname: string;
  trust: TrustProxy;
  secureCookies: boolean;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  uploadIdleTimeoutMs: number;
  maxConnectionsPerAddress: number;
  /** KPS_WORKERS as given (default: the number of cores). */
  workersAsked: number;
  /** The worker processes: KPS_WORKERS on PostgreSQL, 1 on the embedded database. */
  workers: number;
}
export function readSettings(argv?: string[]): Settings;
export function connectionCapPerWorker(cap: number, workers: number): number;

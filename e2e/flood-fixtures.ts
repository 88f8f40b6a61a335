// Floods of crowd entries over HTTP, for the flooding and hoarding tests (test/http/crowd-flood.http.ts
// and e2e/crowd-flood.spec.ts, which ends on the page the 36th hoarder sees).
import { expect, type APIRequestContext } from "@playwright/test";
import { unique } from "./fixtures";

/** The entry limit per campaign and address (lib/crowd/entry-limits.ts ENTRY_LIMITS.perAddress). */
export const PER_ADDRESS = 120;

export interface Entry {
  status: number;
  retryAfter: string | null;
  body: { token?: string; error?: { code: string; message: string; details?: { full?: string; retryAfterSeconds?: number } } };
}

export async function enter(anonymous: APIRequestContext, entryKey: string, pid: string): Promise<Entry> {
  const res = await anonymous.post(`/api/crowd/${encodeURIComponent(entryKey)}/enter`, {
    data: { PROLIFIC_PID: pid, STUDY_ID: "flood-study", SESSION_ID: unique("s") },
  });
  return { status: res.status(), retryAfter: res.headers()["retry-after"] ?? null, body: await res.json() };
}

/**
 * `n` entries with made-up ids, `concurrency` in flight at once. The production server lets one
 * address hold at most 64 connections (KPS_MAX_CONNECTIONS_PER_ADDRESS; past it: 503 before the
 * app sees the request), so a flood from one address is at most that parallel; the other spec running
 * beside this one shares the address. 600 truly parallel entries are entry-limits.int.test.ts's.
 */
export async function flood(anonymous: APIRequestContext, entryKey: string, n: number, prefix: string, concurrency = 24): Promise<Entry[]> {
  const entries: Entry[] = [];
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < n; i = next++) entries[i] = await enter(anonymous, entryKey, unique(`${prefix}-${i}`));
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, lane));
  return entries;
}

/** How the entries were answered: entered (200), full (409, by kind), rate-limited (429). */
export function tally(entries: Entry[]): Record<string, number> {
  const t: Record<string, number> = {};
  for (const e of entries) {
    const k = e.status === 409 ? `full:${e.body.error?.details?.full}` : String(e.status);
    t[k] = (t[k] ?? 0) + 1;
  }
  return t;
}

export async function usageOf(admin: APIRequestContext, campaignId: number) {
  const res = await admin.get(`/api/campaigns/${campaignId}/crowd`);
  expect(res.status()).toBe(200);
  return (await res.json()).crowd as { usage: { workers: number; sessionsInProgress: number } };
}

import { expect, request, test, type APIRequestContext } from "@playwright/test";
import { crowdCampaign } from "./crowd-fixtures";
import { adminApi, createAccount, signedInApi, unique } from "./fixtures";
import { axeAtBothWidths } from "./ask-fixtures";

// Issue 27's flooding and hoarding attacks, played over HTTP as a script holding a crowd link would:
// made-up Prolific ids, all from this machine's one address. Each must fail — the campaign's caps
// (maxWorkers, maxSessionsInProgress) and the entry's rate limit per campaign and address hold, a
// refused entry makes no account, and a real annotator still gets work.

/** The entry limit per campaign and address (lib/crowd/entry-limits.ts ENTRY_LIMITS.perAddress). */
const PER_ADDRESS = 120;

interface Entry {
  status: number;
  retryAfter: string | null;
  body: { token?: string; error?: { code: string; message: string; details?: { full?: string; retryAfterSeconds?: number } } };
}

async function enter(anonymous: APIRequestContext, entryKey: string, pid: string): Promise<Entry> {
  const res = await anonymous.post(`/api/crowd/${encodeURIComponent(entryKey)}/enter`, { data: { PROLIFIC_PID: pid, STUDY_ID: "flood-study", SESSION_ID: unique("s") } });
  return { status: res.status(), retryAfter: res.headers()["retry-after"] ?? null, body: await res.json() };
}

/**
 * `n` entries with made-up ids, `concurrency` in flight at once. The production server lets one
 * address hold at most 64 connections (KPS_MAX_CONNECTIONS_PER_ADDRESS; past it: 503 before the
 * app sees the request), so a flood from one address is at most that parallel; the other spec running
 * beside this one shares the address. 600 truly parallel entries are entry-limits.int.test.ts's.
 */
async function flood(anonymous: APIRequestContext, entryKey: string, n: number, prefix: string, concurrency = 24): Promise<Entry[]> {
  const entries: Entry[] = [];
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < n; i = next++) entries[i] = await enter(anonymous, entryKey, unique(`${prefix}-${i}`));
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, lane));
  return entries;
}

/** How the entries were answered: entered (200), full (409, by kind), rate-limited (429). */
function tally(entries: Entry[]): Record<string, number> {
  const t: Record<string, number> = {};
  for (const e of entries) {
    const k = e.status === 409 ? `full:${e.body.error?.details?.full}` : String(e.status);
    t[k] = (t[k] ?? 0) + 1;
  }
  return t;
}

async function usageOf(admin: APIRequestContext, campaignId: number) {
  const res = await admin.get(`/api/campaigns/${campaignId}/crowd`);
  expect(res.status()).toBe(200);
  return (await res.json()).crowd as { usage: { workers: number; sessionsInProgress: number } };
}

test("a flood of 600 entries with made-up ids, 24 at a time, makes at most maxWorkers (40) workers: 40 enter, 80 find the study full, 480 are rate-limited with Retry-After", async ({ baseURL }) => {
  const admin = await adminApi(baseURL!);
  const c = await crowdCampaign(admin, { prefix: "flood", questions: 2, training: 0, crowd: { trainingItems: 0, maxWorkers: 40 } });
  const anonymous = await request.newContext({ baseURL });
  const entries = await flood(anonymous, c.entryKey, 600, "flood");
  expect(tally(entries)).toEqual({ "200": 40, "full:places": PER_ADDRESS - 40, "429": 600 - PER_ADDRESS });
  for (const e of entries.filter((x) => x.status === 429)) {
    expect(e.body.error).toMatchObject({ code: "rate_limited", message: expect.stringMatching(/^Too many entries into this study from your address: try again in \d+ s\.$/) });
    expect(Number(e.retryAfter)).toBe(e.body.error!.details!.retryAfterSeconds);
    expect(Number(e.retryAfter)).toBeGreaterThanOrEqual(1);
  }
  expect(entries.find((e) => e.status === 409)!.body.error!.message).toContain("This study is full: all its 40 places are taken");

  // 40 workers and no more: in the counts beside the caps, and in the payment report (one row per worker and session).
  expect((await usageOf(admin, c.campaignId)).usage).toEqual({ workers: 40, sessionsInProgress: 40 });
  const report = await admin.get(`/api/campaigns/${c.campaignId}/workers?limit=500`);
  expect((await report.json()).workers).toHaveLength(40);
  await anonymous.dispose();
});

test("hoarding by 35 made-up ids on a campaign whose maxSessionsInProgress is 10: at most 10 sessions hold claims, at most 2 each, and a real annotator still gets work; the 36th sees a clear page", async ({
  baseURL,
  page,
}) => {
  const admin = await adminApi(baseURL!);
  // 15 questions × (gold + candidate), one judgment each: 30 slots — fewer than 35 hoarders × 2 claims.
  const c = await crowdCampaign(admin, {
    prefix: "hoard",
    questions: 15,
    candidates: true,
    training: 0,
    settings: { judgmentsPerPassage: 1, endorsementThreshold: 1 },
    crowd: { trainingItems: 0, maxSessionsInProgress: 10 },
  });
  const anonymous = await request.newContext({ baseURL });
  const entries = await flood(anonymous, c.entryKey, 35, "hoard");
  expect(tally(entries)).toEqual({ "200": 10, "full:sessions": 25 });

  // Every admitted hoarder consents, then asks for a passage, prefetches a second and tries for a third.
  const held = await Promise.all(
    entries
      .filter((e) => e.status === 200)
      .map(async (e) => {
        const api = await request.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${e.body.token}` } });
        expect((await api.post("/api/crowd/session/consent")).status()).toBe(200);
        const handles = new Set<string>();
        let after: string | undefined;
        for (let i = 0; i < 3; i++) {
          const res = await api.post(`/api/campaigns/${c.campaignId}/next${after ? `?after=${after}` : ""}`);
          if (res.status() !== 200) break;
          after = ((await res.json()) as { claim: { handle: string } }).claim.handle;
          handles.add(after);
        }
        await api.dispose();
        return handles.size;
      }),
  );
  expect(held.filter((n) => n > 0).length).toBeLessThanOrEqual(10);
  expect(Math.max(...held)).toBeLessThanOrEqual(2);
  expect((await usageOf(admin, c.campaignId)).usage).toEqual({ workers: 10, sessionsInProgress: 10 });

  const annotator = await signedInApi(baseURL!, await createAccount(admin, "annotator", "hoard-real"));
  const next = await annotator.post(`/api/campaigns/${c.campaignId}/next`);
  expect(next.status(), await next.text()).toBe(200);
  await annotator.dispose();

  // The 36th worker's page says why, and no account is made for them.
  await page.goto(c.entryPath({ PROLIFIC_PID: unique("hoard-late"), STUDY_ID: "flood-study", SESSION_ID: unique("s") }));
  await expect(page.getByRole("heading", { name: "This study is full" })).toBeVisible();
  await expect(page.getByText("This study is full right now: 10 people are working on it")).toBeVisible();
  await expect(page.getByRole("button", { name: "Try again" })).toBeVisible();
  expect(await axeAtBothWidths(page)).toEqual([]);
  expect((await usageOf(admin, c.campaignId)).usage.workers).toBe(10);
  await anonymous.dispose();
});

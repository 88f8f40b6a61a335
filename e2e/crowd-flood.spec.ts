import { expect, request, test } from "@playwright/test";
import { crowdCampaign } from "./crowd-fixtures";
import { adminApi, createAccount, signedInApi, unique } from "./fixtures";
import { axeAtBothWidths } from "./ask-fixtures";
import { flood, tally, usageOf } from "./flood-fixtures";

// Issue 27's flooding and hoarding attacks, played over HTTP as a script holding a crowd link would:
// made-up Prolific ids, all from this machine's one address. Each must fail — the campaign's caps
// (maxWorkers, maxSessionsInProgress) and the entry's rate limit per campaign and address hold, a
// refused entry makes no account, and a real annotator still gets work.
// The flood of made-up ids is test/http/crowd-flood.http.ts (no browser); the hoarding, which
// ends on the page the 36th worker sees, is here.

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

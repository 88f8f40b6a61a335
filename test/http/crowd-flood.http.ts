import { request } from "@playwright/test";
import { expect, inject, test } from "vitest";
import { crowdCampaign } from "../../e2e/crowd-fixtures";
import { adminApi } from "../../e2e/fixtures";
import { flood, PER_ADDRESS, tally, usageOf } from "../../e2e/flood-fixtures";

const baseURL = inject("baseURL");

// Issue 27's flooding and hoarding attacks, played over HTTP as a script holding a crowd link would:
// made-up Prolific ids, all from this machine's one address. Each must fail — the campaign's caps
// (maxWorkers, maxSessionsInProgress) and the entry's rate limit per campaign and address hold, a
// refused entry makes no account, and a real annotator still gets work.
// The hoarding test, which ends on a page, is e2e/crowd-flood.spec.ts.

test("a flood of 600 entries with made-up ids, 24 at a time, makes at most maxWorkers (40) workers: 40 enter, 80 find the study full, 480 are rate-limited with Retry-After", async () => {
  const admin = await adminApi(baseURL);
  const c = await crowdCampaign(admin, { prefix: "flood", questions: 2, training: 0, crowd: { trainingItems: 0, maxWorkers: 40 } });
  const anonymous = await request.newContext({ baseURL });
  const entries = await flood(anonymous, c.entryKey, 600, "flood");
  expect(tally(entries)).toEqual({ "200": 40, "full:places": PER_ADDRESS - 40, "429": 600 - PER_ADDRESS });
  for (const e of entries.filter((x) => x.status === 429)) {
    expect(e.body.error).toMatchObject({
      code: "rate_limited",
      message: expect.stringMatching(/^Too many entries into this study from your address: try again in \d+ s\.$/),
    });
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

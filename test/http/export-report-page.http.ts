// Who may open a campaign's export report page (/campaigns/:id/export-report): coordinators only. An
// annotator of the campaign gets "Not allowed" and none of the report; a crowd worker's token and an
// anonymous caller are sent to sign in; the JSON report it links to refuses both.
import { request } from "@playwright/test";
import { expect, inject, test } from "vitest";
import { crowdCampaign, enterCrowd } from "../../e2e/crowd-fixtures";
import { adminApi, createAccount, signedInApi, unique } from "../../e2e/fixtures";

const baseURL = inject("baseURL");

test("the export report page: coordinators read it; an annotator gets Not allowed, a crowd token and no sign-in go to sign in", async () => {
  const admin = await adminApi(baseURL);
  const c = await crowdCampaign(admin, {
    prefix: unique("report-authz"),
    questions: 1,
    candidates: true,
    training: 1,
    crowd: { platform: "generic", trainingItems: 1, quota: 5 },
  });
  const path = `/campaigns/${c.campaignId}/export-report`;

  const mine = await admin.get(`${path}?show=explained`);
  expect(mine.status()).toBe(200);
  const page = await mine.text();
  expect(page).toContain("Export report");
  expect(page).toContain(c.name);
  expect(page).toContain("Download the whole report (JSON)");

  const annotator = await signedInApi(baseURL, await createAccount(admin, "annotator", "report-reader"));
  const refused = await annotator.get(path);
  const refusedPage = await refused.text();
  expect(refusedPage).toContain("Not allowed");
  expect(refusedPage).not.toContain(c.name);
  expect(refusedPage).not.toContain("Download the whole report");
  expect((await annotator.get(`/api/campaigns/${c.campaignId}/export/report`)).status()).toBe(403);

  const worker = await enterCrowd(baseURL, c.entryKey, { worker: unique("report-worker") });
  const anonymous = await request.newContext({ baseURL });
  for (const [who, api] of [
    ["crowd token", worker.api],
    ["anonymous", anonymous],
  ] as const) {
    const res = await api.get(path, { maxRedirects: 0 });
    expect(res.status(), who).toBe(307);
    expect(res.headers().location, who).toBe("/");
    expect(await res.text(), who).not.toContain(c.name);
  }
  expect((await worker.api.get(`/api/campaigns/${c.campaignId}/export/report`)).status()).toBe(403);
  expect((await anonymous.get(`/api/campaigns/${c.campaignId}/export/report`)).status()).toBe(401);

  for (const api of [admin, annotator, worker.api, anonymous]) await api.dispose();
});

// The authorization matrix held to the route table (its cases, by subject, in test/http/authz/; its
// tests in test/http/authz-<subject>.http.ts), and the attacks beyond one route at a time: a revoked
// bearer token, a crowd worker's token aimed at others' sessions, claims and campaigns, a cross-site
// POST, an oversized body.
import fs from "node:fs";
import path from "node:path";
import { request } from "@playwright/test";
import { expect, inject, test } from "vitest";
import { ROUTES, routeKey } from "@/app/api/routes";
import { crowdCampaign, enterCrowd, trainWorker } from "../../e2e/crowd-fixtures";
import { adminApi, signedInApi, unique } from "../../e2e/fixtures";
import { crowdEntry } from "./authz/matrix";
import { SUBJECTS } from "./authz/subjects";

const baseURL = inject("baseURL");

test("the authorization matrix has a case for every row of the route table", () => {
  // Every row is in one subject, each subject has a case for each of its rows and no other, and each
  // subject's file runs them.
  const subjects = Object.entries(SUBJECTS);
  expect(subjects.flatMap(([, { rows }]) => rows.map(routeKey)).sort()).toEqual(ROUTES.map(routeKey).sort());
  for (const [subject, { rows, cases }] of subjects) {
    expect(Object.keys(cases).sort(), subject).toEqual(rows.map(routeKey).sort());
    const file = path.join(import.meta.dirname, `authz-${subject}.http.ts`);
    expect(fs.existsSync(file) && fs.readFileSync(file, "utf8"), file).toContain(`authzMatrix(SUBJECTS.${subject});`);
  }
});

test("a bearer token acts as its coordinator, and a revoked one is refused at once", async () => {
  const admin = await adminApi(baseURL);
  const created = await (await admin.post("/api/tokens", { data: { name: "bearer test" } })).json();
  const api = await request.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${created.token.token}` } });
  expect((await api.get("/api/users")).status()).toBe(200);
  expect((await admin.delete(`/api/tokens/${created.token.id}`)).status()).toBe(200);
  const refused = await api.get("/api/users");
  expect(refused.status()).toBe(401);
  expect((await refused.json()).error.code).toBe("unauthorized");
  await api.dispose();
  await admin.dispose();
});

test("a crowd worker's token names their own session only: never another worker's session or claim, another campaign, or a coordinator's list", async () => {
  const admin = await adminApi(baseURL);
  const c = await crowdEntry({ admin, baseURL });
  const other = await crowdCampaign(admin, {
    prefix: "matrix-other",
    questions: 1,
    training: 0,
    crowd: { platform: "generic", trainingItems: 0 },
  });
  const aId = unique("worker-a");
  const bId = unique("worker-b");
  const a = await enterCrowd(baseURL, c.entryKey, { worker: aId });
  const b = await enterCrowd(baseURL, c.entryKey, { worker: bId });
  expect((await a.api.post("/api/crowd/session/consent")).status()).toBe(200);
  expect((await trainWorker(a.api))?.session.stage).toBe("working");

  // Each token reads its own session, whatever the query names; the answers carry no platform id.
  for (const query of ["", `?worker=${bId}`, `?user=1&session=1&worker=${bId}`]) {
    const mine = await a.api.get(`/api/crowd/session${query}`);
    expect(mine.status()).toBe(200);
    const text = await mine.text();
    expect(JSON.parse(text)).toMatchObject({ stage: "working", campaignId: c.campaignId });
    expect(text).not.toContain(aId);
    expect(text).not.toContain(bId);
    expect((await (await b.api.get(`/api/crowd/session${query}`)).json()).stage).toBe("consent");
  }
  // b's consent moves b's session only.
  expect((await (await b.api.post("/api/crowd/session/consent")).json()).stage).toBe("training");
  expect((await (await a.api.get("/api/crowd/session")).json()).stage).toBe("working");

  // a's claim is a's: b can neither judge nor renew it.
  const next = await a.api.post(`/api/campaigns/${c.campaignId}/next`);
  expect(next.status(), await next.text()).toBe(200);
  const handle: string = (await next.json()).claim.handle;
  const judgment = { verdict: "insufficient", span: null, durationMs: 3000, idempotencyKey: unique("k") };
  expect((await b.api.post(`/api/claims/${handle}/judgment`, { data: judgment })).status()).toBe(403);
  expect((await b.api.post(`/api/claims/${handle}/renew`)).status()).toBe(403);

  // Another campaign, even one with a crowd entry of its own: not found; the coordinator's routes: forbidden, own campaign included.
  for (const path of [`/api/campaigns/${other.campaignId}/next`]) expect((await a.api.post(path)).status(), path).toBe(404);
  expect((await a.api.get(`/api/campaigns/${other.campaignId}/my-progress`)).status()).toBe(404);
  for (const path of [
    "/api/campaigns",
    `/api/campaigns/${c.campaignId}`,
    `/api/campaigns/${other.campaignId}/my-judgments`,
    `/api/campaigns/${other.campaignId}/dashboard`,
    `/api/campaigns/${c.campaignId}/workers`,
    `/api/campaigns/${c.campaignId}/annotators`,
    "/api/users",
  ]) {
    expect((await a.api.get(path)).status(), path).toBe(403);
  }
  // Its own campaign, as an annotator's: the claim given above is judged.
  expect((await a.api.post(`/api/claims/${handle}/judgment`, { data: judgment })).status()).toBe(201);
  expect((await a.api.get(`/api/campaigns/${c.campaignId}/my-progress`)).status()).toBe(200);
  // Propose or explain is never asked of a crowd worker, and refused if tried.
  const ask = await a.api.get(`/api/campaigns/${c.campaignId}/ask`);
  expect(ask.status(), await ask.text()).toBe(200);
  expect(await ask.json()).toEqual({ ask: null });
  const explained = await a.api.post(`/api/campaigns/${c.campaignId}/explanations`, {
    data: { queryId: "q", reason: "ambiguous", text: "" },
  });
  expect(explained.status(), await explained.text()).toBe(403);

  // A made-up crowd token is nobody.
  const bogus = await request.newContext({ baseURL, extraHTTPHeaders: { authorization: "Bearer kpsw_not-a-session" } });
  expect((await bogus.get("/api/crowd/session")).status()).toBe(401);
  await Promise.all([a.api.dispose(), b.api.dispose(), bogus.dispose(), admin.dispose()]);
});

test("a cookie-authenticated POST from another site is refused", async () => {
  const api = await signedInApi(baseURL, inject("accounts").coordinator);
  const res = await api.post("/api/tokens", { data: { name: "csrf" }, headers: { origin: "https://evil.example" } });
  expect(res.status()).toBe(403);
  await api.dispose();
});

test("an oversized JSON body is a 413 with a message", async () => {
  const api = await signedInApi(baseURL, inject("accounts").coordinator);
  const res = await api.post("/api/campaigns", { data: { name: "big", instructions: "x".repeat(1_100_000) } });
  expect(res.status()).toBe(413);
  expect((await res.json()).error).toMatchObject({ code: "too_large", message: expect.stringContaining("larger than") });
  await api.dispose();
});

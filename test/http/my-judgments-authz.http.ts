// Issue 14: who may list and revise judgments, beyond the authorization matrix (authz-judging.http.ts):
// an annotator not on the campaign, an annotator of another campaign, a coordinator's bearer token, the owner.
import { request, type APIRequestContext } from "@playwright/test";
import { expect, inject, test } from "vitest";
import { adminApi, launchedTwoQuestionBatch, PASSWORD, signedInApi, unique } from "../../e2e/fixtures";

const baseURL = inject("baseURL");

async function newAnnotator(admin: APIRequestContext, prefix: string): Promise<{ id: number; username: string }> {
  const res = await admin.post("/api/users", { data: { username: unique(prefix), role: "annotator", password: PASSWORD } });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).user;
}

/** One judgment through the API: the claim handle it was made on and the body sent. */
async function judgeOne(api: APIRequestContext, campaignId: number) {
  const task = await (await api.post(`/api/campaigns/${campaignId}/next`)).json();
  const body = { verdict: "insufficient", span: null, durationMs: 900, idempotencyKey: unique("key") };
  expect((await api.post(`/api/claims/${task.claim.handle}/judgment`, { data: body })).status()).toBe(201);
  return task.claim.handle as string;
}

test("my judgments and their revision: the owner only; other annotators get 404, coordinators and their tokens 403", async () => {
  const admin = await adminApi(baseURL);
  const x = await launchedTwoQuestionBatch(admin, "authz-x");
  const y = await launchedTwoQuestionBatch(admin, "authz-y");
  const [owner, outsider, otherCampaign] = [
    await newAnnotator(admin, "owner"),
    await newAnnotator(admin, "outsider"),
    await newAnnotator(admin, "other"),
  ];
  expect(
    (await admin.put(`/api/campaigns/${x.campaignId}/members`, { data: { allAnnotators: false, userIds: [owner.id] } })).status(),
  ).toBe(200);
  expect(
    (await admin.put(`/api/campaigns/${y.campaignId}/members`, { data: { allAnnotators: false, userIds: [otherCampaign.id] } })).status(),
  ).toBe(200);
  const ownerApi = await signedInApi(baseURL, owner.username);
  const handle = await judgeOne(ownerApi, x.campaignId);
  const otherApi = await signedInApi(baseURL, otherCampaign.username);
  await judgeOne(otherApi, y.campaignId);
  const outsiderApi = await signedInApi(baseURL, outsider.username);
  const token = (await (await admin.post("/api/tokens", { data: { name: unique("bearer") } })).json()).token.token as string;
  const bearer = await request.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${token}` } });
  const revision = { verdict: "insufficient", span: null, unreadable: true, durationMs: 300, idempotencyKey: unique("rev"), revision: 0 };

  for (const [who, api, status] of [
    ["outsider", outsiderApi, 404],
    ["annotator of another campaign", otherApi, 404],
    ["bearer token", bearer, 403],
  ] as const) {
    const list = await api.get(`/api/campaigns/${x.campaignId}/my-judgments`);
    expect(list.status(), `${who}: ${await list.text()}`).toBe(status);
    const put = await api.put(`/api/claims/${handle}/judgment`, { data: revision });
    expect(put.status(), `${who}: ${await put.text()}`).toBe(status === 403 ? 403 : 404);
    expect(typeof (await put.json()).error.message).toBe("string");
  }
  // The other campaign's annotator sees their own judgment there, nothing of X.
  const theirs = await (await otherApi.get(`/api/campaigns/${y.campaignId}/my-judgments`)).json();
  expect(theirs.judgments).toHaveLength(1);
  expect(JSON.stringify(theirs)).not.toContain(handle);

  // The owner: listed by claim handle (no database id), revised once per key.
  const mine = await (await ownerApi.get(`/api/campaigns/${x.campaignId}/my-judgments`)).json();
  expect(mine.judgments.map((j: { claim: string }) => j.claim)).toEqual([handle]);
  expect(Object.keys(mine.judgments[0]).sort()).toEqual(
    [
      "claim",
      "comment",
      "flags",
      "label",
      "locked",
      "passage",
      "query",
      "revisedAt",
      "revision",
      "span",
      "submittedAt",
      "unreadable",
      "verdict",
    ].sort(),
  );
  const first = await ownerApi.put(`/api/claims/${handle}/judgment`, { data: revision });
  expect(first.status(), await first.text()).toBe(200);
  expect((await first.json()).judgment).toMatchObject({ claim: handle, revision: 1, unreadable: true });
  const replay = await ownerApi.put(`/api/claims/${handle}/judgment`, { data: revision });
  expect(replay.status()).toBe(200);
  expect((await replay.json()).judgment.revision).toBe(1);
  const conflict = await ownerApi.put(`/api/claims/${handle}/judgment`, { data: { ...revision, unreadable: false } });
  expect(conflict.status()).toBe(409);
  const stale = await ownerApi.put(`/api/claims/${handle}/judgment`, { data: { ...revision, idempotencyKey: unique("rev") } });
  expect(stale.status()).toBe(409);
  expect((await stale.json()).error).toMatchObject({ code: "conflict", details: { reason: "stale" } });
  for (const api of [ownerApi, otherApi, outsiderApi, bearer, admin]) await api.dispose();
});

test("my judgments filtered over HTTP: ?verdict= and ?q= narrow the list; a bad value or NUL is a 422 naming the parameter", async () => {
  const admin = await adminApi(baseURL);
  const x = await launchedTwoQuestionBatch(admin, "history-filter");
  const owner = await newAnnotator(admin, "filter");
  const api = await signedInApi(baseURL, owner.username);
  const handle = await judgeOne(api, x.campaignId); // not sufficient
  const list = (search: string) => api.get(`/api/campaigns/${x.campaignId}/my-judgments${search}`);
  const claims = async (search: string) => {
    const res = await list(search);
    expect(res.status(), `${search}: ${await res.text()}`).toBe(200);
    return ((await res.json()).judgments as { claim: string; query: { input: string } }[]).map((j) => j.claim);
  };
  expect(await claims("?verdict=insufficient")).toEqual([handle]);
  expect(await claims("?verdict=sufficient")).toEqual([]);
  expect(await claims("?verdict=unreadable")).toEqual([]);
  const input = ((await (await list("")).json()).judgments[0].query.input as string).toUpperCase();
  expect(await claims(`?q=${encodeURIComponent(input)}&verdict=insufficient`)).toEqual([handle]);
  expect(await claims("?q=no%20such%20question")).toEqual([]);

  for (const [search, field, message] of [
    ["?verdict=maybe", "verdict", /one of sufficient, insufficient, partial, unreadable/],
    ["?verdict=", "verdict", /one of/],
    ["?q=a%00b", "q", /NUL/],
    [`?q=${"x".repeat(201)}`, "q", /at most 200/],
    ["?limit=0", "limit", /1 or more/],
  ] as const) {
    const res = await list(search);
    const text = await res.text();
    expect(res.status(), `${search}: ${text}`).toBe(422);
    const problems = JSON.parse(text).error.details.problems as { field: string; message: string }[];
    expect(problems, search).toEqual([{ field, message: expect.stringMatching(message) }]);
  }
  for (const c of [api, admin]) await c.dispose();
});

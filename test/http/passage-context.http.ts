// The paragraphs around a passage (GET /api/claims/:handle/context), beyond the authorization matrix
// (authz-judging.http.ts): what a side holds at a page's edges and around section headers, who may
// read it (the claim's annotator, live or judged; coordinators), and hostile handles.
import { request } from "@playwright/test";
import { expect, inject, test } from "vitest";
import { crowdCampaign, enterCrowd } from "../../e2e/crowd-fixtures";
import { adminApi, createAccount, importKnowledgePage, signedInApi, unique } from "../../e2e/fixtures";

const baseURL = inject("baseURL");

const TEXT = [
  "Context lighthouse\n",
  "One: the cape was charted.\n", // 1
  "Two: a beacon burned there.\n", // 2
  "Section::::History.\n", // 3
  "Four: the tower was first lit in 1871.\n", // 4 (a passage)
  "Five: it was relit in 2005.\n", // 5
  "Section::::Later.\n", // 6
  "Seven: a museum opened.\n", // 7
  "Eight: ferries stop there.\n", // 8 (a passage)
  "Section::::See also.\n", // 9
];

interface Context {
  before: { id: number; text: string }[];
  after: { id: number; text: string }[];
}

test("the claim's annotator (live or judged) and coordinators read the paragraphs around a passage; others get 404, bad handles 422", async () => {
  const admin = await adminApi(baseURL);
  const wikipediaId = unique("context-page");
  await importKnowledgePage(admin, wikipediaId, "Context lighthouse", TEXT);
  const created = await admin.post("/api/campaigns", {
    data: { name: unique("context"), askWhenNoneSufficient: false, goldAccuracyThreshold: 0 },
  });
  const campaignId: number = (await created.json()).campaign.id;
  const at = (from: number, to: number) => [{ wikipedia_id: wikipediaId, start_paragraph_id: from, end_paragraph_id: to }];
  const ids = [unique("q"), unique("q"), unique("q")];
  const queries = [at(4, 4), at(1, 2), at(8, 8)].map((provenance, i) =>
    JSON.stringify({ id: ids[i], input: `context question ${i}`, output: [{ answer: "x", provenance }] }),
  );
  const batch = await admin.post(`/api/campaigns/${campaignId}/batches`, {
    multipart: { queries: { name: "q.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(queries.join("\n") + "\n") } },
  });
  expect(batch.status(), await batch.text()).toBe(201);
  expect((await admin.post(`/api/batches/${(await batch.json()).batch.id}/launch`)).status()).toBe(200);

  const owner = await signedInApi(baseURL, await createAccount(admin, "annotator", "context-owner"));
  const other = await signedInApi(baseURL, await createAccount(admin, "annotator", "context-other"));
  const token = (await (await admin.post("/api/tokens", { data: { name: unique("context-token") } })).json()).token.token as string;
  const bearer = await request.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${token}` } });
  const anonymous = await request.newContext({ baseURL });

  // Each passage: its context while claimed, then judged (the handle still the owner's).
  const contexts = new Map<number, Context>();
  const handles: string[] = [];
  for (;;) {
    const next = await owner.post(`/api/campaigns/${campaignId}/next`);
    if (next.status() === 204) break;
    const task = await next.json();
    const handle: string = task.claim.handle;
    handles.push(handle);
    const live = await owner.get(`/api/claims/${handle}/context`);
    expect(live.status(), await live.text()).toBe(200);
    const judged = await owner.post(`/api/claims/${handle}/judgment`, {
      data: { verdict: "insufficient", span: null, durationMs: 900, idempotencyKey: unique("key") },
    });
    expect(judged.status(), await judged.text()).toBe(201);
    const after = await owner.get(`/api/claims/${handle}/context`);
    expect(after.status()).toBe(200);
    const { context } = (await after.json()) as { context: Context };
    expect(context).toEqual(((await live.json()) as { context: Context }).context);
    contexts.set(task.passage.paragraphs[0].id, context);
  }
  expect([...contexts.keys()].sort()).toEqual([1, 4, 8]);
  const p = (id: number) => ({ id, text: TEXT[id] });
  // Two paragraphs of text a side, the headers between them kept; never the title; no header left dangling at the end.
  expect(contexts.get(4)).toEqual({ before: [p(1), p(2), p(3)], after: [p(5), p(6), p(7)] });
  expect(contexts.get(1)).toEqual({ before: [], after: [p(3), p(4), p(5)] });
  expect(contexts.get(8)).toEqual({ before: [p(5), p(6), p(7)], after: [] });

  const handle = handles[0]!;
  const coordinator = await bearer.get(`/api/claims/${handle}/context`);
  expect(coordinator.status(), await coordinator.text()).toBe(200);
  // Someone else's claim and a well-formed handle that names none are the same 404.
  for (const path of [`/api/claims/${handle}/context`, `/api/claims/${"A".repeat(22)}/context`]) {
    const res = await other.get(path);
    expect(res.status(), path).toBe(404);
    expect((await res.json()).error.message).toContain("No such claim for you");
  }
  expect((await anonymous.get(`/api/claims/${handle}/context`)).status()).toBe(401);
  // Malformed handles: a 422 naming the segment, never a 500 or someone's page.
  for (const bad of ["short", "1", "a%20b%20c%20d%20e%20f%20g%20h", "x".repeat(65), "..%2F..%2Fapi", "%00".repeat(20)]) {
    const res = await owner.get(`/api/claims/${bad}/context`);
    expect(res.status(), bad).toBe(422);
    expect((await res.json()).error.details.problems[0].field, bad).toBe("handle");
  }
  for (const api of [owner, other, bearer, anonymous, admin]) await api.dispose();
});

test("a crowd worker reads the context of their own claim with their token; another worker's token gets 404", async () => {
  const admin = await adminApi(baseURL);
  const c = await crowdCampaign(admin, {
    prefix: "context-crowd",
    questions: 1,
    candidates: true,
    training: 0,
    crowd: { platform: "generic", trainingItems: 0 },
  });
  await admin.dispose();
  const working = async () => {
    const w = await enterCrowd(baseURL, c.entryKey, { worker: unique("context-worker") });
    expect((await w.api.post("/api/crowd/session/consent")).status()).toBe(200);
    return w;
  };
  const [one, two] = [await working(), await working()];
  const next = await one.api.post(`/api/campaigns/${c.campaignId}/next`);
  expect(next.status(), await next.text()).toBe(200);
  const task = await next.json();
  const res = await one.api.get(`/api/claims/${task.claim.handle}/context`);
  expect(res.status(), await res.text()).toBe(200);
  const { context } = (await res.json()) as { context: Context };
  // The page's paragraphs 1–3: the gold passage (1) has two after it, the candidate (3) two before.
  const first: number = task.passage.paragraphs[0].id;
  expect([...context.before, ...context.after].map((p) => p.id)).toEqual([1, 2, 3].filter((id) => id !== first));
  expect((await two.api.get(`/api/claims/${task.claim.handle}/context`)).status()).toBe(404);
  await Promise.all([one.api.dispose(), two.api.dispose()]);
});

import { type APIRequestContext } from "@playwright/test";
import { expect, inject, test } from "vitest";
import { adminApi, createAccount, launchedTwoQuestionBatch, signedInApi, unique } from "../../e2e/fixtures";

const baseURL = inject("baseURL");

// Issue 13, over HTTP: POST /api/claims/:handle/judgment?next=1[&after=<handle>] answers with the next
// task in the same request; a replay gives the same task (nothing claimed twice); the new query
// parameters are checked (422 naming the parameter) before anything is stored.

interface Task {
  claim: { handle: string; expiresAt: string };
  passage: { paragraphs: { id: number; text: string }[] };
}

async function launchedCampaign(admin: APIRequestContext): Promise<number> {
  return (await launchedTwoQuestionBatch(admin, "next", { goldMinJudgments: 10_000 })).campaignId;
}

test("a judgment with ?next=1 brings the task after the prefetched one, once; bad parameters are 422 naming them @smoke", async () => {
  const admin = await adminApi(baseURL);
  const campaignId = await launchedCampaign(admin);
  const api = await signedInApi(baseURL, await createAccount(admin, "annotator", "next"));
  await admin.dispose();
  const shown = (await (await api.post(`/api/campaigns/${campaignId}/next`)).json()) as Task;
  const prefetched = (await (await api.post(`/api/campaigns/${campaignId}/next?after=${shown.claim.handle}`)).json()) as Task;
  const body = { verdict: "insufficient", span: null, durationMs: 1200, idempotencyKey: unique("key") };
  const url = `/api/claims/${shown.claim.handle}/judgment`;

  const hostile: [string, string][] = [
    ["?next=yes", "next"],
    ["?next=1'%3B%20DROP%20TABLE%20judgments%3B--", "next"],
    ["?next=1&after=%3Cscript%3E", "after"],
    [`?after=${prefetched.claim.handle}`, "after"],
  ];
  for (const [query, field] of hostile) {
    const res = await api.post(url + query, { data: body });
    expect(res.status(), query).toBe(422);
    expect(
      ((await res.json()).error.details.problems as { field: string }[]).map((p) => p.field),
      query,
    ).toEqual([field]);
  }

  const first = await api.post(`${url}?next=1&after=${prefetched.claim.handle}`, { data: body });
  expect(first.status(), await first.text()).toBe(201);
  const answer = (await first.json()) as { judgment: { claim: string }; next: Task | null };
  expect(answer.judgment.claim).toBe(shown.claim.handle);
  expect(answer.next).not.toBeNull();
  expect([shown.claim.handle, prefetched.claim.handle]).not.toContain(answer.next!.claim.handle);

  const replay = await api.post(`${url}?next=1&after=${prefetched.claim.handle}`, { data: body });
  expect(replay.status()).toBe(200);
  expect(((await replay.json()) as { next: Task }).next.claim.handle).toBe(answer.next!.claim.handle);
  // Without next=1 the answer is as before: the judgment alone.
  const plain = await api.post(url, { data: body });
  expect(Object.keys(await plain.json())).toEqual(["judgment"]);
  await api.dispose();
});

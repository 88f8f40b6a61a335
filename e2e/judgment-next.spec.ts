import { expect, test, type APIRequestContext } from "@playwright/test";
import { adminApi, createAccount, signedInApi, unique } from "./fixtures";

// Issue 13, over HTTP: POST /api/claims/:handle/judgment?next=1[&after=<handle>] answers with the next
// task in the same request; a replay gives the same task (nothing claimed twice); the new query
// parameters are checked (422 naming the parameter) before anything is stored.

interface Task {
  claim: { handle: string; expiresAt: string };
  passage: { paragraphs: { id: number; text: string }[] };
}

async function launchedCampaign(admin: APIRequestContext): Promise<number> {
  const wikipediaId = unique("next-page");
  const text = ["Next Page\n", "The tower was lit in 1871.\n", "It was relit in 2005.\n", "A museum opened in 2010.\n", "Ferries stop there.\n"];
  const knowledge = await admin.post("/api/knowledge?name=p.jsonl", {
    data: Buffer.from(JSON.stringify({ wikipedia_id: wikipediaId, wikipedia_title: "Next Page", text }) + "\n"),
    headers: { "content-type": "application/x-ndjson" },
  });
  expect(knowledge.status(), await knowledge.text()).toBe(201);
  const created = await admin.post("/api/campaigns", { data: { name: unique("e2e-next"), goldMinJudgments: 10_000 } });
  const campaignId: number = (await created.json()).campaign.id;
  const ids = [unique("q"), unique("q")];
  const queries = ids.map((id, i) => JSON.stringify({ id, input: `question ${i}`, output: [{ answer: "1871", provenance: [{ wikipedia_id: wikipediaId, start_paragraph_id: 1 + 2 * i, end_paragraph_id: 1 + 2 * i }] }] }));
  const candidates = ids.map((id, i) => JSON.stringify({ id, output: [{ provenance: [{ wikipedia_id: wikipediaId, start_paragraph_id: 2 + 2 * i, end_paragraph_id: 2 + 2 * i }] }] }));
  const imported = await admin.post(`/api/campaigns/${campaignId}/batches`, {
    multipart: {
      queries: { name: "q.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(queries.join("\n") + "\n") },
      candidates: { name: "c.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(candidates.join("\n") + "\n") },
    },
  });
  expect(imported.status(), await imported.text()).toBe(201);
  expect((await admin.post(`/api/batches/${(await imported.json()).batch.id}/launch`)).status()).toBe(200);
  return campaignId;
}

test("a judgment with ?next=1 brings the task after the prefetched one, once; bad parameters are 422 naming them", async ({ baseURL }) => {
  const admin = await adminApi(baseURL!);
  const campaignId = await launchedCampaign(admin);
  const api = await signedInApi(baseURL!, await createAccount(admin, "annotator", "next"));
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
    expect(((await res.json()).error.details.problems as { field: string }[]).map((p) => p.field), query).toEqual([field]);
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

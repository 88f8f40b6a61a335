import { type APIRequestContext } from "@playwright/test";
import { expect, inject, test } from "vitest";
import { adminApi, createAccount, launchedTwoQuestionBatch, signedInApi, unique } from "../../e2e/fixtures";

const baseURL = inject("baseURL");

// Issue 12, over HTTP: a closed batch takes no judgment (409, saying so) and its exports stay the same
// byte for byte after the attempt, a change of T, an annotator paused, and time; the claim routes
// take an opaque handle, and nothing the annotator receives carries a database id.

interface Task {
  claim: { handle: string; expiresAt: string };
  query: { id: string };
  passage: { wikipediaId: string; paragraphs: { id: number; text: string }[] };
}

/** A campaign with one launched batch of two questions (gold + one candidate each) on a fresh page. */
async function launchedBatch(admin: APIRequestContext): Promise<{ campaignId: number; batchId: number }> {
  return launchedTwoQuestionBatch(admin, "sealed", { judgmentsPerPassage: 3, endorsementThreshold: 2, goldMinJudgments: 10_000 });
}

function judgmentBody(task: Task, sufficient: boolean) {
  const p = task.passage.paragraphs[0]!;
  const word = p.text.split(" ")[0]!;
  return {
    verdict: sufficient ? "sufficient" : "insufficient",
    span: sufficient
      ? { startParagraphId: p.id, startCharacter: 0, endParagraphId: p.id, endCharacter: Array.from(word).length, text: word }
      : null,
    durationMs: 1500,
    idempotencyKey: unique("key"),
  };
}

/** The three exports of a batch, as downloaded. */
async function exportsOf(admin: APIRequestContext, campaignId: number, batchId: number): Promise<string> {
  const parts: string[] = [];
  for (const path of [`export?batch=${batchId}&location=span`, `export?batch=${batchId}&location=passage`, `judgments?batch=${batchId}`]) {
    const res = await admin.get(`/api/campaigns/${campaignId}/${path}`);
    expect(res.status(), path).toBe(200);
    parts.push(await res.text());
  }
  return parts.join("\n--\n");
}

test(
  "a closed batch refuses judgments with 409 and exports the same bytes after the attempt, a change of T, a pause and time",
  { timeout: 90_000 },
  async () => {
    const admin = await adminApi(baseURL);
    const { campaignId, batchId } = await launchedBatch(admin);
    const names = [
      await createAccount(admin, "annotator", "sealed"),
      await createAccount(admin, "annotator", "sealed"),
      await createAccount(admin, "annotator", "sealed"),
    ];
    const apis = await Promise.all(names.map((n) => signedInApi(baseURL, n)));
    const payloads: string[] = [];

    // Two annotators judge everything sufficient, the third judges one passage and holds a claim on the next.
    let held: Task | undefined;
    for (const [i, api] of apis.entries()) {
      for (let taken = 1; ; taken++) {
        const res = await api.post(`/api/campaigns/${campaignId}/next`);
        if (res.status() === 204) break;
        expect(res.status()).toBe(200);
        const raw = await res.text();
        payloads.push(raw);
        const task = JSON.parse(raw) as Task;
        expect(task.claim.handle).toMatch(/^[A-Za-z0-9_-]{22}$/);
        if (i === 2 && taken === 2) {
          held = task;
          break;
        }
        const judged = await api.post(`/api/claims/${task.claim.handle}/judgment`, { data: judgmentBody(task, i < 2) });
        expect(judged.status(), await judged.text()).toBe(201);
        payloads.push(await judged.text());
      }
    }
    expect(held).toBeDefined();
    // What the annotators received has these fields and no other: no database id (a passage id would tell gold apart).
    const allowed = new Set([
      "claim.handle",
      "claim.expiresAt",
      "query.id",
      "query.input",
      "query.kind", // the batch's KILT task, the same for all its passages
      "passage.wikipediaId",
      "passage.title",
      "passage.paragraphs[].id",
      "passage.paragraphs[].text",
      "passage.paragraphs[].section",
      "progress.judgedToday",
      "progress.passageOfQuestion",
      "progress.passagesInQuestion",
      "judgment.claim",
      "judgment.verdict",
      "judgment.unreadable",
      "judgment.span",
      "judgment.span.startParagraphId",
      "judgment.span.startCharacter",
      "judgment.span.endParagraphId",
      "judgment.span.endCharacter",
      "judgment.span.text",
      "judgment.durationMs",
      "judgment.createdAt",
      "judgment.comment",
      "judgment.flags[]", // issue 14: the annotator's own note and flags
      "judgment.label", // fact checking's label, the annotator's own
    ]);
    const paths = (v: unknown, at = ""): string[] =>
      Array.isArray(v)
        ? v.flatMap((x) => paths(x, `${at}[]`))
        : v !== null && typeof v === "object"
          ? Object.entries(v).flatMap(([k, x]) => paths(x, at ? `${at}.${k}` : k))
          : [at];
    const seen = new Set(payloads.flatMap((p) => paths(JSON.parse(p))));
    expect([...seen].filter((p) => !allowed.has(p))).toEqual([]);
    // A database id in the claim routes is refused as a malformed handle.
    const byNumber = await apis[2]!.post(`/api/claims/1/renew`);
    expect(byNumber.status()).toBe(422);

    expect((await admin.post(`/api/batches/${batchId}/close`)).status()).toBe(200);
    const atClose = await exportsOf(admin, campaignId, batchId);
    expect(atClose).toContain('"provenance"');

    // The held claim ended at close: the judgment is refused, saying why; the claim cannot be renewed.
    const late = await apis[2]!.post(`/api/claims/${held!.claim.handle}/judgment`, { data: judgmentBody(held!, true) });
    expect(late.status()).toBe(409);
    expect((await late.json()).error.message).toMatch(/batch was closed/);
    expect((await apis[2]!.post(`/api/claims/${held!.claim.handle}/renew`)).status()).toBe(410);
    expect((await apis[2]!.post(`/api/campaigns/${campaignId}/next`)).status()).toBe(204);
    expect(await exportsOf(admin, campaignId, batchId)).toBe(atClose);

    // Changes that would alter an open batch's export: T, an annotator paused; and time.
    expect((await admin.patch(`/api/campaigns/${campaignId}`, { data: { endorsementThreshold: 3 } })).status()).toBe(200);
    const me = (await (await apis[0]!.get("/api/me")).json()).user.id as number;
    expect((await admin.post(`/api/campaigns/${campaignId}/annotators/${me}/pause`)).status()).toBe(200);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await exportsOf(admin, campaignId, batchId)).toBe(atClose);

    await Promise.all(apis.map((a) => a.dispose()));
    await admin.dispose();
  },
);

test("a paused batch hands out nothing and refuses judgments on claims taken before the pause (409)", async () => {
  const admin = await adminApi(baseURL);
  const { campaignId, batchId } = await launchedBatch(admin);
  const api = await signedInApi(baseURL, await createAccount(admin, "annotator", "paused"));
  const task = (await (await api.post(`/api/campaigns/${campaignId}/next`)).json()) as Task;
  expect((await admin.post(`/api/batches/${batchId}/pause`)).status()).toBe(200);
  expect((await api.post(`/api/campaigns/${campaignId}/next`)).status()).toBe(204);
  const refused = await api.post(`/api/claims/${task.claim.handle}/judgment`, { data: judgmentBody(task, false) });
  expect(refused.status()).toBe(409);
  expect((await refused.json()).error).toMatchObject({ code: "conflict", details: { batch: "paused" } });
  await api.dispose();
  await admin.dispose();
});

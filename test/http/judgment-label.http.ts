import { expect, inject, test } from "vitest";
import { adminApi, createAccount, launchedTwoQuestionBatch, signedInApi, unique } from "../../e2e/fixtures";

const baseURL = inject("baseURL");

// Fact checking's label over HTTP: POST /api/claims/:handle/judgment refuses a label on a QA passage
// and hostile label values (lower case, FEVER's third class, 10 kB, NUL, not a string) with a 422
// naming `label`, before anything is stored, and a sufficient verdict without a span (with or without
// a client's page-level flag) with a 422 naming `span`; the judgment then goes in without a label.

interface Task {
  claim: { handle: string };
  query: { kind: string };
  passage: { paragraphs: { id: number; text: string }[] };
}

test("a label is a 422 naming `label` on a QA passage and for hostile values, a missing span one naming `span`; nothing is stored", async () => {
  const admin = await adminApi(baseURL);
  const { campaignId } = await launchedTwoQuestionBatch(admin, "label", { goldMinJudgments: 10_000 });
  const api = await signedInApi(baseURL, await createAccount(admin, "annotator", "label"));
  await admin.dispose();
  const task = (await (await api.post(`/api/campaigns/${campaignId}/next`)).json()) as Task;
  expect(task.query.kind).toBe("qa");
  const p = task.passage.paragraphs[0]!;
  const word = p.text.split(" ")[0]!;
  const span = { startParagraphId: p.id, startCharacter: 0, endParagraphId: p.id, endCharacter: Array.from(word).length, text: word };
  const url = `/api/claims/${task.claim.handle}/judgment`;
  const sufficient = { verdict: "sufficient", span, durationMs: 900 };

  const hostile: unknown[] = ["SUPPORTS", "supports", "NOT ENOUGH INFO", "R".repeat(10_000), "REFUTES\u0000", 1, ["REFUTES"]];
  for (const label of hostile) {
    const res = await api.post(url, { data: { ...sufficient, label, idempotencyKey: unique("key") } });
    expect(res.status(), String(label).slice(0, 20)).toBe(422);
    expect(((await res.json()).error.details.problems as { field: string }[]).map((x) => x.field)).toEqual(["label"]);
  }
  const insufficient = await api.post(url, {
    data: { verdict: "insufficient", span: null, label: "REFUTES", durationMs: 9, idempotencyKey: unique("key") },
  });
  expect(insufficient.status()).toBe(422);
  expect(((await insufficient.json()).error.details.problems as { field: string }[]).map((x) => x.field)).toEqual(["label"]);

  // Page-level verdicts are entity linking's, decided by the server: on QA a sufficient verdict
  // without a span is a 422 naming `span`, whatever page-level flag the client sends.
  for (const extra of [{}, { page_level: true }, { pageLevel: true, page_level: "true" }]) {
    const res = await api.post(url, { data: { ...sufficient, span: null, ...extra, idempotencyKey: unique("key") } });
    expect(res.status(), JSON.stringify(extra)).toBe(422);
    expect(((await res.json()).error.details.problems as { field: string }[]).map((x) => x.field)).toEqual(["span"]);
  }

  const ok = await api.post(url, { data: { ...sufficient, label: null, idempotencyKey: unique("key") } });
  expect(ok.status(), await ok.text()).toBe(201);
  expect((await ok.json()).judgment).toMatchObject({ verdict: "sufficient", label: null });
  await api.dispose();
});

// Evidence sets and partial evidence (issue 31) over HTTP: a client scripting the cheapest answer may send
// a set's `spans` on a single passage, or "part of the evidence" where the batch does not ask for it, or
// hostile `spans`; each is a 422 naming the field, and nothing is stored.
test("`spans` on a single passage, hostile `spans`, and a partial verdict not asked for are 422s naming the field; nothing is stored", async () => {
  const admin = await adminApi(baseURL);
  const { campaignId } = await launchedTwoQuestionBatch(admin, "sets", { goldMinJudgments: 10_000 });
  const api = await signedInApi(baseURL, await createAccount(admin, "annotator", "sets"));
  await admin.dispose();
  const task = (await (await api.post(`/api/campaigns/${campaignId}/next`)).json()) as Task & { members?: unknown };
  expect(task.members).toBeUndefined();
  const p = task.passage.paragraphs[0]!;
  const word = p.text.split(" ")[0]!;
  const span = { startParagraphId: p.id, startCharacter: 0, endParagraphId: p.id, endCharacter: Array.from(word).length, text: word };
  const url = `/api/claims/${task.claim.handle}/judgment`;
  const fieldsOf = async (data: object) => {
    const res = await api.post(url, { data: { durationMs: 900, idempotencyKey: unique("key"), ...data } });
    expect(res.status(), JSON.stringify(data).slice(0, 80)).toBe(422);
    return ((await res.json()).error.details.problems as { field: string }[]).map((x) => x.field);
  };
  expect(await fieldsOf({ verdict: "sufficient", span: null, spans: [span, span] })).toEqual(["spans"]);
  expect(await fieldsOf({ verdict: "partial", span })).toEqual(["verdict"]);
  expect(await fieldsOf({ verdict: "PARTIAL", span })).toEqual(["verdict"]);
  const hostile: unknown[] = [
    [span],
    Array(9).fill(span),
    Array(1000).fill(span),
    "spans",
    [{ ...span, text: "x\u0000" }, span],
    [null, span],
  ];
  for (const spans of hostile) {
    const fields = await fieldsOf({ verdict: "sufficient", span: null, spans });
    expect(fields.length, JSON.stringify(spans).slice(0, 40)).toBeGreaterThan(0);
    expect(
      fields.every((f) => f === "spans" || f.startsWith("spans.")),
      fields.join(),
    ).toBe(true);
  }
  const mine = await api.get(`/api/campaigns/${campaignId}/my-judgments`);
  expect(mine.status()).toBe(200);
  expect((await mine.json()).judgments).toEqual([]);
  const ok = await api.post(url, { data: { verdict: "sufficient", span, durationMs: 900, idempotencyKey: unique("key") } });
  expect(ok.status(), await ok.text()).toBe(201);
  await api.dispose();
});

import { axeBuilder } from "./axe";
import { expect, test, type APIRequestContext, type APIResponse } from "@playwright/test";
import { adminApi, createAccount, judgeAll, signedInApi, storageStatePath, unique } from "./fixtures";

test.use({ storageState: storageStatePath("coordinator"), viewport: { width: 1280, height: 900 } });

const MARKUP = `<img src=x data-xss onerror="window.__xss='img'"> <script>window.__xss = "script"</script> '); DROP TABLE explanations; --`;

/** One launched question (gold: paragraph 1, candidate: paragraph 2) on a page with astral characters; paragraph 3 is free to propose. */
async function oneQuestion(admin: APIRequestContext): Promise<{ campaignId: number; wikipediaId: string }> {
  const wikipediaId = unique("propose-page");
  const text = ["Propose page\n", "The 𐌅𐌄𐌋 tower was lit in 1871.\n", "It was relit in 2005.\n", "A museum 😀 opened in 2010.\n"];
  const knowledge = await admin.post("/api/knowledge?name=p.jsonl", {
    data: Buffer.from(JSON.stringify({ wikipedia_id: wikipediaId, wikipedia_title: "Propose page", text }) + "\n"),
    headers: { "content-type": "application/x-ndjson" },
  });
  expect(knowledge.status(), await knowledge.text()).toBe(201);
  const created = await admin.post("/api/campaigns", {
    data: { name: unique("e2e-propose"), goldAccuracyThreshold: 0, judgmentsPerPassage: 2, endorsementThreshold: 1 },
  });
  const campaignId: number = (await created.json()).campaign.id;
  const id = unique("q");
  const at = (p: number) => [{ wikipedia_id: wikipediaId, start_paragraph_id: p, end_paragraph_id: p }];
  const imported = await admin.post(`/api/campaigns/${campaignId}/batches`, {
    multipart: {
      queries: {
        name: "q.jsonl",
        mimeType: "application/x-ndjson",
        buffer: Buffer.from(
          JSON.stringify({ id, input: "when did the museum open", output: [{ answer: "2010", provenance: at(1) }] }) + "\n",
        ),
      },
      candidates: {
        name: "c.jsonl",
        mimeType: "application/x-ndjson",
        buffer: Buffer.from(JSON.stringify({ id, output: [{ provenance: at(2) }] }) + "\n"),
      },
    },
  });
  expect(imported.status(), await imported.text()).toBe(201);
  expect((await admin.post(`/api/batches/${(await imported.json()).batch.id}/launch`)).status()).toBe(200);
  return { campaignId, wikipediaId };
}

/** The fields a 422 names. */
async function fields(res: APIResponse): Promise<string[]> {
  expect(res.status(), await res.text()).toBe(422);
  return ((await res.json()) as { error: { details: { problems: { field: string }[] } } }).error.details.problems.map((p) => p.field);
}

test("propose and explain through the API: hostile bodies are refused naming the field, offsets are code points, a response is given once", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const admin = await adminApi(baseURL!);
  const { campaignId, wikipediaId } = await oneQuestion(admin);
  const proposer = await createAccount(admin, "annotator", "proposer");
  const api = await signedInApi(baseURL!, proposer);
  expect(await (await api.get(`/api/campaigns/${campaignId}/ask`)).json()).toEqual({ ask: null });
  await judgeAll(api, campaignId, () => false);
  const { ask } = await (await api.get(`/api/campaigns/${campaignId}/ask`)).json();
  expect(ask).toEqual({
    queryId: expect.any(String),
    input: "when did the museum open",
    kind: "qa",
    judged: 2,
    given: [1, 2].map((n) => ({ wikipediaId, startParagraphId: n, endParagraphId: n })),
  });

  const proposals = `/api/campaigns/${campaignId}/proposals`;
  // "A museum 😀 opened…": the emoji is code point 9 (UTF-16 units 9–10).
  const span = { startParagraphId: 3, startCharacter: 9, endParagraphId: 3, endCharacter: 10, text: "😀" };
  const ok = { queryId: ask.queryId, wikipediaId, startParagraphId: 3, endParagraphId: 3, span };
  const post = (data: unknown) => api.post(proposals, { data });
  expect((await api.post(proposals, { data: Buffer.from('{"queryId": '), headers: { "content-type": "application/json" } })).status()).toBe(
    400,
  );
  expect(await fields(await post({ ...ok, span: { ...span, endCharacter: 11 } }))).toEqual(["span.text"]); // UTF-16 offsets read "😀 "
  expect(await fields(await post({ ...ok, span: { ...span, startCharacter: -1 } }))).toEqual(["span.startCharacter"]);
  expect(await fields(await post({ ...ok, startParagraphId: "3" }))).toEqual(["startParagraphId"]);
  expect(
    await fields(await post({ ...ok, startParagraphId: 0, endParagraphId: 0, span: { ...span, startParagraphId: 0, endParagraphId: 0 } })),
  ).toContain("startParagraphId");
  expect(await fields(await post({ ...ok, endParagraphId: 4, span }))).toEqual(["endParagraphId"]);
  expect(await fields(await post({ ...ok, span: { ...span, text: "x".repeat(100_001) } }))).toEqual(["span.text"]);
  expect(await fields(await post({ ...ok, queryId: 42 }))).toEqual(["queryId"]);
  expect(await fields(await post({ ...ok, queryId: MARKUP }))).toEqual(["queryId"]);
  expect(await fields(await post({ ...ok, wikipediaId: MARKUP }))).toEqual(["wikipediaId"]);
  expect(await fields(await post({ ...ok, admin: true }))).toEqual(["(body)"]);

  const explanations = `/api/campaigns/${campaignId}/explanations`;
  const explain = (data: unknown) => api.post(explanations, { data });
  expect(await fields(await explain({ queryId: ask.queryId, reason: "other", text: "😀".repeat(2001) }))).toEqual(["text"]); // code points
  expect(await fields(await explain({ queryId: ask.queryId, reason: "other", text: " " }))).toEqual(["text"]);
  expect(await fields(await explain({ queryId: ask.queryId, reason: "bored" }))).toEqual(["reason"]);
  expect(await fields(await explain({ queryId: ask.queryId, reason: "ambiguous", text: ["a"] }))).toEqual(["text"]);

  const proposed = await post(ok);
  expect(proposed.status(), await proposed.text()).toBe(201);
  expect(await proposed.json()).toEqual({ proposal: { merged: false } });
  expect(await (await api.get(`/api/campaigns/${campaignId}/ask`)).json()).toEqual({ ask: null });
  expect((await post({ ...ok, startParagraphId: 2 })).status()).toBe(409);
  expect((await explain({ queryId: ask.queryId, reason: "ambiguous", text: "" })).status()).toBe(409);

  // A second annotator gets the proposed passage too, finds nothing, and explains with markup: stored verbatim, shown as text.
  const explainer = await createAccount(admin, "annotator", "explainer");
  const other = await signedInApi(baseURL!, explainer);
  expect((await judgeAll(other, campaignId, () => false)).sort()).toEqual([1, 2, 3]);
  const explained = await other.post(explanations, { data: { queryId: ask.queryId, reason: "other", text: MARKUP } });
  expect(explained.status(), await explained.text()).toBe(201);
  expect(await explained.json()).toEqual({ explanation: { reason: "other" } });

  const dialogs: string[] = [];
  page.on("dialog", (d) => void d.dismiss().then(() => dialogs.push(d.message())));
  const questions = await (await admin.get(`/api/campaigns/${campaignId}/questions`)).json();
  await page.goto(`/campaigns/${campaignId}/questions/${questions.questions[0].id}`);
  await expect(page.getByTestId("explanations")).toContainText(MARKUP);
  // The coordinator sees the annotators by username; the exported files keep pseudonyms.
  await expect(page.getByTestId("passage").nth(2)).toContainText(`proposed by ${proposer}`);
  await expect(page.getByTestId("explanations")).toContainText(explainer);
  expect(await page.evaluate(() => (window as unknown as { __xss?: string }).__xss)).toBeUndefined();
  await expect(page.locator("[data-xss]")).toHaveCount(0);
  expect(dialogs).toEqual([]);
  await page.goto(`/campaigns/${campaignId}`);
  await expect(page.getByTestId("explained-count")).toHaveText("1");
  await expect(page.getByTestId("proposal-count")).toHaveText("1");
  // The new panels (explanations, "proposed by", the dashboard's figure): no serious or critical axe violation, desktop and phone.
  const violations: string[] = [];
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 844 });
    for (const path of [`/campaigns/${campaignId}/questions/${questions.questions[0].id}`, `/campaigns/${campaignId}`]) {
      await page.goto(path);
      const found = (await axeBuilder(page).analyze()).violations.filter((v) => v.impact === "serious" || v.impact === "critical");
      violations.push(...found.map((v) => `${width}px ${path} ${v.id}: ${v.help}`));
    }
  }
  expect(violations).toEqual([]);
  await Promise.all([api.dispose(), other.dispose(), admin.dispose()]);
});

test("the campaign setting: on by default, turned off on the settings form, audited, and then nothing is asked", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const admin = await adminApi(baseURL!);
  const { campaignId } = await oneQuestion(admin);
  expect((await (await admin.get(`/api/campaigns/${campaignId}`)).json()).campaign.askWhenNoneSufficient).toBe(true);
  await page.goto(`/campaigns/${campaignId}/settings`);
  const box = page.getByLabel(/Ask for a passage or an explanation/);
  await expect(box).toBeChecked();
  await box.uncheck();
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page).toHaveURL(new RegExp(`/campaigns/${campaignId}$`));
  await expect(page.locator(".settings-summary div").filter({ hasText: "Ask when no passage is sufficient" }).locator("dd")).toHaveText(
    "off",
  );
  expect((await (await admin.get(`/api/campaigns/${campaignId}`)).json()).campaign.askWhenNoneSufficient).toBe(false);
  const audit = await (await admin.get("/api/audit?limit=20")).json();
  const entry = (audit.entries as { action: string; targetId: string; details: { changes?: Record<string, unknown> } }[]).find(
    (e) => e.action === "campaign.update" && e.targetId === String(campaignId),
  );
  expect(entry?.details.changes).toEqual({ askWhenNoneSufficient: false });
  const api = await signedInApi(baseURL!, await createAccount(admin, "annotator", "not-asked"));
  await judgeAll(api, campaignId, () => false);
  expect(await (await api.get(`/api/campaigns/${campaignId}/ask`)).json()).toEqual({ ask: null });
  await Promise.all([api.dispose(), admin.dispose()]);
});

import { expect, test, type APIResponse, type Page } from "@playwright/test";
import {
  adminApi,
  createAccount,
  launchedTwoQuestionBatch,
  PASSWORD,
  signedInApi,
  signInWithForm,
  storageStatePath,
  unique,
} from "./fixtures";
import { screenshotPath } from "./screenshots";

test.use({ storageState: storageStatePath("coordinator"), viewport: { width: 1280, height: 900 } });

// Each payload, if interpreted, would set window.__xss or add an element marked data-xss.
const XSS = [
  `<script>window.__xss = "script"</script>`,
  `<img src=x data-xss onerror="window.__xss='img'">`,
  `"><svg data-xss onload="window.__xss='svg'"></svg>`,
  `<iframe data-xss src="javascript:window.parent.__xss='iframe'"></iframe>`,
];
const SQL = [`'); DROP TABLE judgments; --`, `' OR '1'='1`, `"; DELETE FROM passages WHERE ''='`];
const hostile = (label: string) => `${label} ${XSS.join(" ")} ${SQL.join(" ")}`;

/** Nothing ran and nothing was interpreted: no global set, no injected element, no dialog. */
async function expectInert(page: Page, dialogs: string[]) {
  expect(await page.evaluate(() => (window as unknown as { __xss?: string }).__xss)).toBeUndefined();
  await expect(page.locator("[data-xss]")).toHaveCount(0);
  await expect(page.locator("main script, main iframe, main img[src='x']")).toHaveCount(0);
  expect(dialogs).toEqual([]);
}

function watchDialogs(page: Page): string[] {
  const dialogs: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  return dialogs;
}

test("hostile text in pages, questions, answers, instructions and names is shown as text and stored verbatim", async ({
  page,
  baseURL,
  browser,
}) => {
  test.setTimeout(120_000);
  const admin = await adminApi(baseURL!);
  const dialogs = watchDialogs(page);
  const tag = unique("hostile");
  const title = hostile("Title");
  const paragraph = `${hostile("Paragraph")} The tower was lit in 1871.\n`;
  const question = hostile("when was the tower lit");
  const answer = hostile("1871");
  const instructions = `# Rules\n\n${hostile("Read")}\n\n[click me](javascript:window.__xss='link')`;
  const campaignName = `Campaign ${tag} ${XSS[1]} ${SQL[0]}`; // unique on a shared database; names are at most 200 characters

  // Usernames are restricted to letters, digits, '.', '_' and '-': markup never becomes a name.
  const badUser = await admin.post("/api/users", {
    data: { username: `<img src=x onerror=alert(1)>`, role: "annotator", password: PASSWORD },
  });
  expect(badUser.status()).toBe(422);
  expect((await badUser.json()).error.details.problems[0].field).toBe("username");

  const knowledge = await page.request.post(`/api/knowledge?name=${tag}.jsonl`, {
    data: Buffer.from(
      JSON.stringify({ wikipedia_id: `${tag}-page`, wikipedia_title: title, text: [`${title}\n`, paragraph, "Second paragraph.\n"] }) +
        "\n",
    ),
    headers: { "content-type": "application/x-ndjson" },
  });
  expect(knowledge.status(), await knowledge.text()).toBe(201);
  const created = await page.request.post("/api/campaigns", {
    data: { name: campaignName, instructions, showAnswers: true, goldMinJudgments: 1000, judgmentsPerPassage: 2, endorsementThreshold: 1 },
  });
  expect(created.status(), await created.text()).toBe(201);
  const campaignId: number = (await created.json()).campaign.id;
  const line = JSON.stringify({
    id: `${tag}-q`,
    input: question,
    output: [{ answer, provenance: [{ wikipedia_id: `${tag}-page`, start_paragraph_id: 1, end_paragraph_id: 1 }] }],
  });
  const candidates = JSON.stringify({
    id: `${tag}-q`,
    output: [{ provenance: [{ wikipedia_id: `${tag}-page`, start_paragraph_id: 2, end_paragraph_id: 2 }] }],
  });
  const imported = await page.request.post(`/api/campaigns/${campaignId}/batches`, {
    multipart: {
      queries: { name: "q.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(line + "\n") },
      candidates: { name: "c.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(candidates + "\n") },
      name: `Batch ${XSS[0]} ${SQL[1]}`,
    },
  });
  expect(imported.status(), await imported.text()).toBe(201);
  expect((await page.request.post(`/api/batches/${(await imported.json()).batch.id}/launch`)).status()).toBe(200);

  // Stored verbatim: the SQL-looking strings are data, and every table is still there.
  const stored = (await (await page.request.get(`/api/campaigns/${campaignId}`)).json()).campaign;
  expect(stored.name).toBe(campaignName);
  expect(stored.instructions).toBe(instructions);

  // An annotator judges the first passage in the browser: the question, answers, title and text render as text.
  const name = await createAccount(admin, "annotator");
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] }, viewport: { width: 1280, height: 900 } });
  const annotatorPage = await context.newPage();
  const annotatorDialogs = watchDialogs(annotatorPage);
  await signInWithForm(annotatorPage, name);
  await annotatorPage.goto(`/annotate/${campaignId}`);
  const passage = annotatorPage.locator("article.passage");
  await expect(passage).toBeVisible();
  await expect(annotatorPage.getByText(question, { exact: true })).toBeVisible();
  await annotatorPage.locator(".answers-collapsed summary").click(); // an answer this long starts folded
  await expect(annotatorPage.getByText(answer).first()).toBeVisible();
  // First visit: the instructions are open. Markdown formats them; the raw HTML in them stays text.
  const panel = annotatorPage.getByRole("complementary", { name: "Instructions" });
  await expect(panel.getByRole("heading", { name: "Rules" })).toBeVisible();
  for (const literal of ["<script>window.", "<iframe data-xss src=", "DROP TABLE judgments"]) await expect(panel).toContainText(literal);
  // The javascript: link is not a link to script.
  for (const href of await annotatorPage.locator(".instructions-body a").evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""))) {
    expect(href.toLowerCase()).not.toContain("javascript:");
  }
  await expectInert(annotatorPage, annotatorDialogs);
  await annotatorPage.screenshot({ path: screenshotPath("hostile-judging.png"), fullPage: true });
  // Judge both passages through the API: the gold one (paragraph 1) sufficient with a highlight, the other not.
  await context.close();
  const api = await signedInApi(baseURL!, name);
  for (;;) {
    const res = await api.post(`/api/campaigns/${campaignId}/next`);
    if (res.status() === 204) break;
    const task = await res.json();
    const p = task.passage.paragraphs[0];
    const words = Array.from(p.text as string)
      .slice(0, 20)
      .join("");
    const sufficient = p.id === 1;
    const submit = await api.post(`/api/claims/${task.claim.handle}/judgment`, {
      data: {
        verdict: sufficient ? "sufficient" : "insufficient",
        span: sufficient ? { startParagraphId: p.id, startCharacter: 0, endParagraphId: p.id, endCharacter: 20, text: words } : null,
        durationMs: 2500,
        idempotencyKey: unique("k"),
      },
    });
    expect(submit.status(), await submit.text()).toBe(201);
  }
  // A second annotator disagrees, so the question shows up as disputed on the dashboard.
  const other = await createAccount(admin, "annotator");
  const otherApi = await signedInApi(baseURL!, other);
  for (;;) {
    const res = await otherApi.post(`/api/campaigns/${campaignId}/next`);
    if (res.status() === 204) break;
    const task = await res.json();
    expect(
      (
        await otherApi.post(`/api/claims/${task.claim.handle}/judgment`, {
          data: { verdict: "insufficient", span: null, durationMs: 3000, idempotencyKey: unique("k") },
        })
      ).status(),
    ).toBe(201);
  }

  // The coordinator's screens: campaign list, campaign page with instructions and dashboard, question view.
  await page.goto("/campaigns");
  await expect(page.getByRole("link", { name: campaignName })).toBeVisible();
  await expectInert(page, dialogs);
  await page.goto(`/campaigns/${campaignId}`);
  await expect(page.getByRole("heading", { name: campaignName, level: 1 })).toBeVisible();
  await page.getByText("Instructions", { exact: true }).click();
  for (const literal of ["<script>window.", "<iframe data-xss src=", "DROP TABLE judgments"])
    await expect(page.locator(".markdown-body")).toContainText(literal);
  const disputed = page.getByTestId("disputed").getByRole("link", { name: question });
  await expect(disputed).toBeVisible();
  await expectInert(page, dialogs);
  await disputed.click();
  await expect(page.getByRole("heading", { name: question, level: 2 })).toBeVisible();
  // The task block folds an answer this long; unfolded, it reads as text.
  await page.locator(".answers-collapsed summary").click();
  await expect(page.getByText(answer)).toBeVisible();
  await expect(
    page.getByRole("heading", { name: new RegExp(title.slice(0, 20).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")) }).first(),
  ).toBeVisible();
  await expect(page.getByTestId("passage").first().locator("mark.mark-highlight").first()).toHaveText(
    Array.from(paragraph).slice(0, 20).join(""),
  );
  await expectInert(page, dialogs);
  await page.screenshot({ path: screenshotPath("hostile-question-view.png"), fullPage: true });

  // The exports carry the strings byte for byte, and the judgments are all there.
  const exported = (await (await page.request.get(`/api/campaigns/${campaignId}/export?location=passage`)).text()).trim();
  expect(JSON.parse(exported).input).toBe(question);
  expect(exported).toContain(JSON.stringify(question).slice(1, -1));
  const judgments = (await (await page.request.get(`/api/campaigns/${campaignId}/judgments`)).text()).trim().split("\n");
  expect(judgments).toHaveLength(4);
  await api.dispose();
  await otherApi.dispose();
  await admin.dispose();
});

test("PUT /api/me/shortcuts refuses bad JSON, unknown actions, duplicate and reserved keys and an oversized body, naming the field; nothing is stored", async ({
  baseURL,
}) => {
  const admin = await adminApi(baseURL!);
  const api = await signedInApi(baseURL!, await createAccount(admin, "annotator", "hostile-shortcuts"));
  const put = (data: unknown) =>
    api.put(
      "/api/me/shortcuts",
      typeof data === "string" ? { data: Buffer.from(data), headers: { "content-type": "application/json" } } : { data },
    );
  const problems = async (res: Awaited<ReturnType<typeof put>>) =>
    (await res.json()).error.details.problems as { field: string; message: string }[];

  const badJson = await put('{"enabled": tru');
  expect(badJson.status()).toBe(400);
  expect((await badJson.json()).error.message).toContain("not valid JSON");

  const unknown = await put({ enabled: true, keys: { "<script>": "x", sufficient: "y" } });
  expect(unknown.status()).toBe(422);
  expect(await problems(unknown)).toEqual([{ field: "keys.<script>", message: expect.stringContaining("is not a shortcut action") }]);

  const duplicate = await put({ enabled: true, keys: { sufficient: "2" } });
  expect(duplicate.status()).toBe(422);
  expect(await problems(duplicate)).toEqual([{ field: "keys.sufficient", message: '"2" is already the key of insufficient' }]);

  const notOneKey = await put({ enabled: true, keys: { sentence: "'); DROP TABLE users; --", unreadable: "/" }, extra: 1 });
  expect(notOneKey.status()).toBe(422);
  const fields = (await problems(notOneKey)).map((p) => p.field).sort();
  expect(fields).toEqual(["(body)", "keys.sentence", "keys.unreadable"]);

  const huge = await put({ enabled: true, keys: { sufficient: "x".repeat(1_100_000) } });
  expect(huge.status()).toBe(413);

  // None of it was stored: still the defaults.
  const now = await (await api.get("/api/me/shortcuts")).json();
  expect(now.shortcuts).toEqual({ enabled: true, keys: {} });
  expect(now.keys.sufficient).toBe("1");
  await api.dispose();
  await admin.dispose();
});

test("hostile session goals, warning thresholds and annotator-page parameters are refused with errors naming the field", async ({
  page,
}) => {
  const created = await page.request.post("/api/campaigns", { data: { name: unique("hostile goal") } });
  const campaignId: number = (await created.json()).campaign.id;
  const fieldsOf = async (res: Awaited<ReturnType<typeof page.request.get>>): Promise<string[]> => {
    expect(res.status(), await res.text()).toBe(422);
    const body = (await res.json()) as { error: { details: { problems: { field: string }[] } } };
    return body.error.details.problems.map((p) => p.field);
  };
  for (const [field, value] of [
    ["sessionGoal", 0],
    ["sessionGoal", 100_001],
    ["sessionGoal", 2.5],
    ["sessionGoal", `200; ${SQL[0]}`],
    ["warnFastShare", 1.5],
    ["warnFastShare", -0.1],
    ["warnMinAgreement", XSS[0]],
    ["warnMinJudgments", 0],
    ["warnMinJudgments", "20"],
  ] as const) {
    expect(
      await fieldsOf(await page.request.patch(`/api/campaigns/${campaignId}`, { data: { [field]: value } })),
      `${field}: ${value}`,
    ).toEqual([field]);
  }
  // A space-only name is refused after trimming, naming the field.
  expect(await fieldsOf(await page.request.post("/api/campaigns", { data: { name: "   " } }))).toEqual(["name"]);
  // Null: no goal (the one non-number it takes).
  expect((await page.request.patch(`/api/campaigns/${campaignId}`, { data: { sessionGoal: null } })).status()).toBe(200);

  const user = await page.request.post("/api/users", {
    data: { username: unique("hostile-target"), role: "annotator", password: PASSWORD },
  });
  const userId: number = (await user.json()).user.id;
  const judgments = (qs: string) => page.request.get(`/api/campaigns/${campaignId}/annotators/${userId}/judgments?${qs}`);
  expect(await fieldsOf(await judgments("gold=yes"))).toEqual(["gold"]);
  expect(await fieldsOf(await judgments(`after=${encodeURIComponent(SQL[1]!)}`))).toEqual(["after"]);
  expect(await fieldsOf(await judgments("limit=100000"))).toEqual(["limit"]);
  expect(await fieldsOf(await page.request.get(`/api/campaigns/${campaignId}/annotators/${encodeURIComponent("1 OR 1=1")}`))).toEqual([
    "userId",
  ]);
  expect(await fieldsOf(await page.request.get(`/api/campaigns/${encodeURIComponent(XSS[1]!)}/my-progress`))).toEqual(["id"]);
  // The annotator page of a bad user id: not found, nothing rendered from the path.
  const dialogs = watchDialogs(page);
  expect((await page.goto(`/campaigns/${campaignId}/annotators/${encodeURIComponent(XSS[0]!)}`))!.status()).toBe(404);
  await expectInert(page, dialogs);
});

// Issue 14: comments, flags and revisions — every bad field named, markup in a comment shown as text.
test("hostile comments, flags and revisions: 400 or 422 naming the field; a comment with markup is inert on the question view and the dashboard", async ({
  page,
  baseURL,
}) => {
  const admin = await adminApi(baseURL!);
  const dialogs = watchDialogs(page);
  const { campaignId } = await launchedTwoQuestionBatch(admin, "hostile-notes", { goldAccuracyThreshold: 0 });
  const api = await signedInApi(baseURL!, await createAccount(admin, "annotator", "hostile-notes"));
  const task = await (await api.post(`/api/campaigns/${campaignId}/next`)).json();
  const url = `/api/claims/${task.claim.handle}/judgment`;
  const ok = { verdict: "insufficient", span: null, durationMs: 500, idempotencyKey: unique("key") };
  const field = async (res: APIResponse): Promise<string[]> => {
    expect(res.status(), await res.text()).toBe(422);
    const body = (await res.json()) as { error: { details: { problems: { field: string }[] } } };
    return body.error.details.problems.map((p) => p.field);
  };
  expect((await api.post(url, { data: Buffer.from('{"verdict": '), headers: { "content-type": "application/json" } })).status()).toBe(400);
  expect(await field(await api.post(url, { data: { ...ok, comment: "x".repeat(2001) } }))).toEqual(["comment"]);
  expect(await field(await api.post(url, { data: { ...ok, comment: "😀".repeat(2001) } }))).toEqual(["comment"]); // code points, not UTF-16 units
  expect(await field(await api.post(url, { data: { ...ok, comment: "" } }))).toEqual(["comment"]);
  expect(await field(await api.post(url, { data: { ...ok, comment: 42 } }))).toEqual(["comment"]);
  expect(await field(await api.post(url, { data: { ...ok, flags: ["spam"] } }))).toEqual(["flags.0"]);
  expect(await field(await api.post(url, { data: { ...ok, flags: "offensive" } }))).toEqual(["flags"]);
  expect(await field(await api.post(url, { data: { ...ok, flags: ["offensive", "offensive"] } }))).toEqual(["flags"]);
  const comment = hostile("Comment");
  expect((await api.post(url, { data: { ...ok, comment, flags: ["offensive"] } })).status()).toBe(201);
  expect(await field(await api.put(url, { data: { ...ok, idempotencyKey: unique("k"), revision: "0" } }))).toEqual(["revision"]);
  expect(await field(await api.put(url, { data: { ...ok, idempotencyKey: unique("k"), revision: 0, flags: [1] } }))).toEqual(["flags.0"]);
  expect(await field(await api.put(url, { data: { ...ok, idempotencyKey: unique("k") } }))).toEqual(["revision"]);
  expect((await api.put(url, { data: Buffer.from("[1,"), headers: { "content-type": "application/json" } })).status()).toBe(400);
  expect(await field(await api.get(`/api/campaigns/${campaignId}/my-judgments?limit=abc`))).toEqual(["limit"]);
  expect(await field(await api.get(`/api/campaigns/${campaignId}/my-judgments?after=${encodeURIComponent("<script>")}`))).toEqual([
    "after",
  ]);
  expect((await (await api.get(`/api/campaigns/${campaignId}/my-judgments`)).json()).judgments[0].comment).toBe(comment);

  const questions = await (await admin.get(`/api/campaigns/${campaignId}/questions`)).json();
  const queryId = (questions.questions as { id: number; input: string }[]).find((q) => q.input === task.query.input)!.id;
  await page.goto(`/campaigns/${campaignId}/questions/${queryId}`);
  await expect(page.getByTestId("judgment-notes")).toContainText(comment);
  await expectInert(page, dialogs);
  await page.goto(`/campaigns/${campaignId}`);
  await expect(page.getByTestId("noted-count")).toHaveText("1");
  await expectInert(page, dialogs);
  await api.dispose();
  await admin.dispose();
});

// Issue 16: the batch upload's candidate options — each hostile value a 422 naming the field, nothing stored.
test("hostile batch-import options are refused naming the field, and no batch is stored", async ({ page }) => {
  const created = await page.request.post("/api/campaigns", { data: { name: unique("hostile options") } });
  const campaignId: number = (await created.json()).campaign.id;
  const queries = {
    name: "q.jsonl",
    mimeType: "application/x-ndjson",
    buffer: Buffer.from(JSON.stringify({ id: "h1", input: "q", output: [{ answer: "a" }] }) + "\n"),
  };
  for (const [field, value] of [
    ["perRetriever", "0"],
    ["perRetriever", `2; ${SQL[0]}`],
    ["topK", "0x10"],
    ["minAnswerOverlap", "1.5"],
    ["minAnswerOverlap", XSS[0]],
    ["retrieve", "bm25"],
    ["retrieve", XSS[1]],
    ["retrieveTopK", "4"], // without retrieve "text"
  ] as const) {
    const res = await page.request.post(`/api/campaigns/${campaignId}/batches`, { multipart: { queries, [field]: value! } });
    expect(res.status(), `${field}=${value}`).toBe(422);
    const body = (await res.json()) as { error: { details: { problems: { field: string }[] } } };
    expect(
      body.error.details.problems.map((p) => p.field),
      `${field}=${value}`,
    ).toEqual([field]);
  }
  expect((await (await page.request.get(`/api/campaigns/${campaignId}/batches`)).json()).batches).toEqual([]);
});

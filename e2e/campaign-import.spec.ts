import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { CAMPAIGN_DEFAULTS } from "@/lib/campaign/settings.contract";
import { candidates3Files } from "./candidates-3";
import { accounts, demoFile, signedInApi, storageStatePath, unique } from "./fixtures";
import { screenshotPath } from "./screenshots";
import { expectAccessible } from "./axe";
import type { BatchView } from "@/lib/campaign/batches.contract";

/** A batch as GET /api/campaigns/:id/batches sends it: BatchView with its times as JSON strings. */
type BatchJson = Omit<BatchView, "createdAt" | "launchedAt" | "closedAt"> & {
  createdAt: string;
  launchedAt: string | null;
  closedAt: string | null;
};

async function batchesOf(api: APIRequestContext, campaignId: number): Promise<BatchJson[]> {
  const res = await api.get(`/api/campaigns/${campaignId}/batches`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { batches: BatchJson[] }).batches;
}

/** Creates a campaign through the API (for tests about something else). */
async function createCampaign(api: APIRequestContext, name: string): Promise<number> {
  const res = await api.post("/api/campaigns", { data: { name } });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { campaign: { id: number } }).campaign.id;
}

function campaignIdFrom(page: Page): number {
  const match = /\/campaigns\/(\d+)$/.exec(new URL(page.url()).pathname);
  expect(match).not.toBeNull();
  return Number(match![1]);
}

test.use({ storageState: storageStatePath("coordinator"), viewport: { width: 1280, height: 800 } });

test("a coordinator creates a campaign, imports the demo files and launches the batch @smoke", async ({ page }) => {
  const name = unique("e2e-campaign");
  await page.goto("/campaigns");
  await page.getByRole("link", { name: "New campaign" }).click();
  await expect(page.getByRole("heading", { name: "New campaign" })).toBeVisible();

  // Every setting shows its default.
  await expect(page.getByLabel("Judgments per passage")).toHaveValue("3");
  await expect(page.getByLabel("Endorsement threshold")).toHaveValue("2");
  await expect(page.getByLabel("Show answers to annotators")).not.toBeChecked();
  await expect(page.getByLabel("Minimum gold judgments")).toHaveValue("4");
  await expect(page.getByLabel("Gold accuracy threshold")).toHaveValue("0.3");
  await expect(page.getByLabel("Gold span slack")).toHaveValue("0.2");
  await expect(page.getByLabel("Decoys per 100 passages")).toHaveValue("0");
  await expect(page.getByLabel("Lease (minutes)")).toHaveValue("10");
  await expect(page.getByLabel("Stop early once decided")).not.toBeChecked();
  await expect(page.getByLabel("Instructions (Markdown)")).toHaveValue("");
  await expect(page.getByLabel("All annotators")).toBeChecked();

  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.screenshot({ path: screenshotPath("new-campaign.png"), fullPage: true });
  await page.getByLabel("Instructions (Markdown)").fill("Judge the passage, then highlight the **answer** <b>span</b>.");
  await page.getByRole("button", { name: "Create campaign" }).click();
  await expect(page).toHaveURL(/\/campaigns\/\d+$/);
  const campaignId = campaignIdFrom(page);
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();

  // Stored with the defaults and the instructions as written.
  const stored = await page.request.get(`/api/campaigns/${campaignId}`);
  expect(stored.status()).toBe(200);
  expect((await stored.json()).campaign).toMatchObject({
    ...CAMPAIGN_DEFAULTS,
    name,
    instructions: "Judge the passage, then highlight the **answer** <b>span</b>.",
  });
  // Instructions are rendered from Markdown; raw HTML in them is never interpreted.
  await page.getByText("Instructions", { exact: true }).click();
  const instructions = page.locator(".markdown-body");
  await expect(instructions.locator("strong")).toHaveText("answer");
  await expect(instructions.locator("b")).toHaveCount(0);
  await expect(instructions).not.toContainText("**");
  await expect(page.getByText("No batch yet.")).toBeVisible();

  // The import screen.
  await page.getByRole("link", { name: "Import a batch" }).click();
  await expect(page).toHaveURL(new RegExp(`/campaigns/${campaignId}/import$`));
  await expect(page.getByLabel("Top-k candidates per retriever")).toHaveValue("4");
  await expect(page.getByLabel("Minimum answer overlap")).toHaveValue("");
  await expect(page.getByLabel("Keep only pages the questions and candidates cite")).toBeChecked();
  await page.getByLabel("Knowledge source (JSONL or .gz)").setInputFiles(demoFile("knowledge.jsonl"));
  await page.getByLabel("Questions (KILT task JSONL)").setInputFiles(demoFile("queries.jsonl"));
  await page.getByLabel("Candidates (retrieval output JSONL)").setInputFiles(demoFile("candidates.jsonl"));
  await page.getByLabel("Batch name").fill("demo batch");

  const knowledgeAnswer = page.waitForResponse((r) => r.url().endsWith("/api/knowledge") && r.request().method() === "POST");
  const batchAnswer = page.waitForResponse(
    (r) => r.url().endsWith(`/api/campaigns/${campaignId}/batches`) && r.request().method() === "POST",
  );
  await page.getByRole("button", { name: "Import", exact: true }).click();
  const knowledge = await knowledgeAnswer;
  expect(knowledge.status()).toBe(201);
  expect(await knowledge.json()).toMatchObject({ file: "knowledge.jsonl", lines: 5, pages: 5, skipped: 0 });
  const batch = await batchAnswer;
  expect(batch.status()).toBe(201);
  const imported = (await batch.json()) as {
    batch: { id: number; name: string };
    queries: number;
    passages: number;
    goldPassages: number;
    candidatePassages: number;
    pages: number;
  };
  expect(imported).toMatchObject({ batch: { name: "demo batch", status: "draft" }, queries: 5, goldPassages: 5, pages: 5 });

  // The summary.
  const summary = page.getByRole("status");
  await expect(summary.getByRole("heading", { name: `Imported into ${name}` })).toBeVisible();
  await expect(summary).toContainText("Knowledge source: 5 pages imported from knowledge.jsonl");
  await expect(summary).toContainText("Batch “demo batch”");
  const count = (label: string) =>
    summary
      .locator(".summary-counts > div")
      .filter({ has: page.getByText(label, { exact: true }) })
      .locator("dd");
  await expect(count("Questions")).toHaveText("5");
  await expect(count("Passages")).toHaveText(String(imported.passages));
  await expect(count("Gold")).toHaveText("5");
  await expect(count("Candidates")).toHaveText(String(imported.candidatePassages));
  await expect(count("Pages")).toHaveText("5");
  await expect(count("Training items")).toHaveText("0");
  for (const step of ["Knowledge source", "Batch"]) {
    const bar = page.getByRole("progressbar", { name: step, exact: true });
    await expect(bar).toBeVisible();
    expect(await bar.evaluate((el: HTMLProgressElement) => el.value === el.max)).toBe(true);
  }
  await page.screenshot({ path: screenshotPath("import-summary.png"), fullPage: true });

  // The campaign page lists the batch with the counts the database holds.
  await summary.getByRole("link", { name: "Back to the campaign" }).click();
  await expect(page).toHaveURL(new RegExp(`/campaigns/${campaignId}$`));
  const [stored1] = await batchesOf(page.request, campaignId);
  expect(stored1).toMatchObject({
    id: imported.batch.id,
    name: "demo batch",
    status: "draft",
    queries: 5,
    goldPassages: 5,
    pages: 5,
    launchedAt: null,
  });
  expect(stored1!.passages).toBe(imported.passages);

  const row = page.getByRole("table", { name: "Batches" }).getByRole("row").filter({ hasText: "demo batch" });
  await expect(row).toHaveCount(1);
  const cells = row.getByRole("cell");
  await expect(cells.nth(0)).toHaveText("demo batch");
  await expect(cells.nth(1)).toHaveText("draft");
  await expect(cells.nth(2)).toHaveText("5");
  await expect(cells.nth(3)).toHaveText(String(stored1!.passages));
  await expect(cells.nth(4)).toHaveText("5");
  await expect(cells.nth(5)).toHaveText("5");
  await expect(cells.nth(6)).toHaveText("open-domain QA"); // the task kind, detected
  // Only the moves the lifecycle allows.
  await expect(row.getByRole("button", { name: "Launch" })).toBeVisible();
  await expect(row.getByRole("button", { name: "Close" })).toBeVisible();
  await expect(row.getByRole("button", { name: "Pause" })).toHaveCount(0);

  await row.getByRole("button", { name: "Launch" }).click();
  await expect(cells.nth(1)).toHaveText("launched");
  await expect(row.getByRole("button", { name: "Pause" })).toBeVisible();
  await expect(row.getByRole("button", { name: "Launch" })).toHaveCount(0);
  const [stored2] = await batchesOf(page.request, campaignId);
  expect(stored2!.status).toBe("launched");
  expect(stored2!.launchedAt).not.toBeNull();
  await page.screenshot({ path: screenshotPath("campaign-page.png"), fullPage: true });

  // The campaigns list links to it and counts the launched batch.
  // The list is paged (newest first): find the campaign by its name.
  const list = (await (await page.request.get(`/api/campaigns?q=${encodeURIComponent(name)}`)).json()) as {
    campaigns: { id: number; launchedBatches: number; queries: number }[];
  };
  expect(list.campaigns.find((c) => c.id === campaignId)).toMatchObject({ launchedBatches: 1, queries: 5 });
  await page.goto("/campaigns");
  await page.getByRole("link", { name, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/campaigns/${campaignId}$`));
});

test("a queries file with bad lines is rejected with its problems by line and field, and nothing is stored", async ({ page }) => {
  const campaignName = unique("e2e-bad-import");
  const campaignId = await createCampaign(page.request, campaignName);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kps-e2e-import-"));
  const bad = path.join(dir, "bad-queries.jsonl");
  fs.writeFileSync(
    bad,
    [
      JSON.stringify({ id: "bad-1", input: "a fine question", output: [{ answer: "fine" }] }),
      '{"id": "bad-2", "input": "a broken line", ',
      JSON.stringify({ id: "bad-3", output: [{ answer: "no question" }] }),
    ].join("\n") + "\n",
  );

  await page.goto(`/campaigns/${campaignId}/import`);
  await page.getByLabel("Questions (KILT task JSONL)").setInputFiles(bad);
  const answer = page.waitForResponse((r) => r.url().endsWith(`/api/campaigns/${campaignId}/batches`) && r.request().method() === "POST");
  await page.getByRole("button", { name: "Import", exact: true }).click();
  const res = await answer;
  expect(res.status()).toBe(422);
  const problems = ((await res.json()) as { error: { details: { problems: { file: string; line: number; field: string }[] } } }).error
    .details.problems;
  expect(problems.map((p) => [p.file, p.line, p.field])).toEqual([
    ["bad-queries.jsonl", 2, "(line)"],
    ["bad-queries.jsonl", 3, "input"],
  ]);

  // (Next.js's route announcer is an alert too: pick ours by its text.)
  const alert = page.getByRole("alert").filter({ hasText: "Nothing was imported." });
  await expect(alert).toBeVisible();
  const items = alert.getByRole("listitem");
  await expect(items).toHaveCount(2);
  await expect(items.nth(0)).toContainText("bad-queries.jsonl line 2: is not valid JSON");
  await expect(items.nth(1)).toContainText("bad-queries.jsonl line 3, input:");
  await expect(page.getByRole("button", { name: "Import", exact: true })).toBeEnabled();
  await expect(page.getByText("Not imported")).toBeVisible();
  await page.screenshot({ path: screenshotPath("import-problems.png"), fullPage: true });

  // The database holds no batch and no question for this campaign.
  expect(await batchesOf(page.request, campaignId)).toEqual([]);
  // The list is paged (newest first): find the campaign by its name.
  const list = (await (await page.request.get(`/api/campaigns?q=${encodeURIComponent(campaignName)}`)).json()) as {
    campaigns: { id: number; batches: number; queries: number; passages: number }[];
  };
  expect(list.campaigns.find((c) => c.id === campaignId)).toMatchObject({ batches: 0, queries: 0, passages: 0 });
  fs.rmSync(dir, { recursive: true, force: true });
});

test("the knowledge source keeps only the pages the questions and candidates cite", async ({ page }) => {
  const campaignId = await createCampaign(page.request, unique("e2e-keep-cited"));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kps-e2e-import-"));
  const knowledgeFile = path.join(dir, "knowledge-plus-one.jsonl");
  const extra = {
    wikipedia_id:
      unique("9")
        .replace(/[^0-9]/g, "")
        .slice(0, 12) || "9",
    wikipedia_title: "Uncited Page",
    text: ["Uncited Page\n", "Nobody cites this page.\n"],
  };
  fs.writeFileSync(knowledgeFile, fs.readFileSync(demoFile("knowledge.jsonl"), "utf8").trimEnd() + "\n" + JSON.stringify(extra) + "\n");

  await page.goto(`/campaigns/${campaignId}/import`);
  await page.getByLabel("Knowledge source (JSONL or .gz)").setInputFiles(knowledgeFile);
  await page.getByLabel("Questions (KILT task JSONL)").setInputFiles(demoFile("queries.jsonl"));
  const answer = page.waitForResponse((r) => r.url().endsWith("/api/knowledge") && r.request().method() === "POST");
  await page.getByRole("button", { name: "Import", exact: true }).click();
  // The questions cite four of the demo pages (the fifth only appears among the candidates).
  expect(await (await answer).json()).toMatchObject({ lines: 6, pages: 4, skipped: 2 });
  const summary = page.getByRole("status");
  await expect(summary).toContainText("4 pages imported from knowledge-plus-one.jsonl");
  await expect(summary).toContainText("2 lines skipped as not cited");
  // Without candidates, only the gold passages are judged.
  const [batch] = await batchesOf(page.request, campaignId);
  expect(batch).toMatchObject({ name: "queries.jsonl", queries: 5, passages: 5, goldPassages: 5 });
  fs.rmSync(dir, { recursive: true, force: true });
});

test("two retrieval files with the answer overlap: the form takes both, the outcome counts each retriever's candidates", async ({
  page,
}) => {
  const tag = unique("e2e-c3");
  const { dir, file } = candidates3Files(tag);
  const campaignId = await createCampaign(page.request, unique("e2e-candidates"));
  await page.goto(`/campaigns/${campaignId}/import`);
  await page.getByLabel("Knowledge source (JSONL or .gz)").setInputFiles(file("knowledge.jsonl"));
  await page.getByLabel("Questions (KILT task JSONL)").setInputFiles(file("tasks.jsonl"));
  await page.getByLabel("Candidates (retrieval output JSONL)").setInputFiles([file("dpr.jsonl"), file("tfidf.jsonl")]);
  await page.getByLabel("Top-k candidates per retriever").fill("2");
  await page.getByLabel("Minimum answer overlap").fill("0.1");
  // The task kind is detected unless chosen; QA here, chosen from the keyboard.
  const task = page.getByLabel("Task", { exact: true });
  await expect(task).toHaveValue("");
  await expect(task.locator("option")).toHaveText([
    "Detect from the file",
    "QA",
    "Fact checking",
    "Slot filling",
    "Entity linking",
    "Dialogue",
  ]);
  await task.focus();
  await page.keyboard.press("ArrowDown");
  await expect(task).toHaveValue("qa");
  // Text retrieval shows its count only when asked for; it is left off here.
  await expect(page.getByLabel("Text-retrieval candidates")).toHaveCount(0);
  await page.getByLabel("Also propose paragraphs of the text index").check();
  await expect(page.getByLabel("Text-retrieval candidates")).toHaveValue("4");
  await expectAccessible(page, "the import form");
  await page.getByLabel("Also propose paragraphs of the text index").uncheck();

  const answer = page.waitForResponse((r) => r.url().endsWith(`/api/campaigns/${campaignId}/batches`) && r.request().method() === "POST");
  await page.getByRole("button", { name: "Import", exact: true }).click();
  const res = await answer;
  expect(res.status(), await res.text()).toBe(201);
  // test/fixtures/candidates-3/README.md without bm25: q5's one candidate falls below the threshold.
  expect(await res.json()).toMatchObject({ queries: 5, passages: 8, goldPassages: 4, candidatePassages: 4, pages: 4 });

  const table = page.getByRole("status").getByRole("table", { name: "Candidates per retriever" });
  await expect(table.getByRole("row")).toHaveText([
    /Retriever\s*Read \(top K\)\s*Below the top K\s*Dropped by answer overlap\s*Kept\s*Merged with another origin/,
    /^dpr\s*9\s*1\s*3\s*6\s*4$/,
    /^tfidf\s*5\s*1\s*3\s*2\s*2$/,
  ]);
  await expect(page.getByTestId("task-taken")).toContainText("Task: open-domain QA.");
  await expect(page.getByTestId("task-taken")).toContainText("Confirmed by the import's task option."); // the form sent task=qa
  await expect(page.getByTestId("answer-overlap")).toHaveText(
    "The answer-overlap filter kept a candidate when it holds at least 0.1 of the words of one answer.",
  );
  await page.screenshot({ path: screenshotPath("import-retrievers.png"), fullPage: true });
  await expectAccessible(page, "the import outcome");
  fs.rmSync(dir, { recursive: true, force: true });
});

test("settings reuse the form, show the server's field problems, and save", async ({ page }) => {
  const name = unique("e2e-settings");
  const campaignId = await createCampaign(page.request, name);
  await page.goto(`/campaigns/${campaignId}`);
  await page.getByRole("link", { name: "Settings" }).click();
  await expect(page).toHaveURL(new RegExp(`/campaigns/${campaignId}/settings$`));
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue(name);
  await expect(page.getByLabel("Judgments per passage")).toHaveValue("3");

  // T above R passes the browser's checks but not the server's: the problem shows by the field.
  await page.getByLabel("Endorsement threshold").fill("4");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "not saved" })).toContainText(
    "Endorsement threshold: must not exceed judgmentsPerPassage",
  );
  await expect(page.getByLabel("Endorsement threshold")).toHaveAttribute("aria-invalid", "true");
  expect((await (await page.request.get(`/api/campaigns/${campaignId}`)).json()).campaign.endorsementThreshold).toBe(2);

  await page.getByLabel("Endorsement threshold").fill("3");
  await page.getByLabel("Show answers to annotators").check();
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page).toHaveURL(new RegExp(`/campaigns/${campaignId}$`));
  const settings = page.locator(".settings-summary");
  await expect(settings.locator("div").filter({ hasText: "Endorsement threshold (T)" }).locator("dd")).toHaveText("3");
  await expect(settings.locator("div").filter({ hasText: "Show answers to annotators" }).locator("dd")).toHaveText("on");
  expect((await (await page.request.get(`/api/campaigns/${campaignId}`)).json()).campaign).toMatchObject({
    endorsementThreshold: 3,
    showAnswers: true,
    judgmentsPerPassage: 3,
  });

  // An unknown campaign is a not-found page.
  await page.goto("/campaigns/999999999");
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
});

test.describe("as an annotator", () => {
  test.use({ storageState: storageStatePath("annotator") });

  test("the campaign, import, settings, questions and question pages are refused", async ({ page, baseURL }) => {
    const coordinator = await signedInApi(baseURL!, accounts().coordinator);
    const campaignId = await createCampaign(coordinator, unique("e2e-not-for-annotators"));
    await coordinator.dispose();
    for (const url of [
      `/campaigns/${campaignId}`,
      `/campaigns/${campaignId}/import`,
      `/campaigns/${campaignId}/settings`,
      `/campaigns/${campaignId}/questions/1`,
      `/campaigns/${campaignId}/questions?show=disputed`,
      "/campaigns/new",
    ]) {
      await page.goto(url);
      await expect(page.getByRole("heading", { name: "Not allowed" })).toBeVisible();
      await expect(page.getByRole("button", { name: "Import", exact: true })).toHaveCount(0);
      await expect(page.getByLabel("Name", { exact: true })).toHaveCount(0);
    }
  });
});

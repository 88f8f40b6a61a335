import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { sql } from "drizzle-orm";
import { openDatabase } from "@/db/client";
import { ADMIN, adminApi, launchedTwoQuestionBatch, startApp, tempDataDir, unique, waitHealthy, type AppProcess } from "./fixtures";

// Smoke test of the crowd worker's page (/crowd/{entryKey}, generic platform): consent → one
// training item with feedback → a quota of two passages on the judging screen → the completion code;
// a reload and a second arrival with the same worker id show the same code. The campaign is made
// through the API on an app of this spec's own; its crowd entry and training flag go straight into
// the data directory (the crowd settings route is another part of issue 15).

const PORT = Number(process.env.KPS_E2E_PORT || 3100) + 61;
const ENTRY_KEY = "crowdPageSmokeKey00001";
const CODES = { completed: "DONE-7", queue_empty: "EMPTY-7", paused: "PAUSE-7", timed_out: "TIME-7", training_failed: "FAIL-7" };

let app: AppProcess;
let dataDir: string;

test.describe.configure({ mode: "serial" });

const appEnv = { KPS_DEMO: "0", KPS_ADMIN_USERNAME: ADMIN.username, KPS_ADMIN_PASSWORD: ADMIN.password };

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dataDir = tempDataDir();
  app = startApp(PORT, dataDir, appEnv);
  await waitHealthy(app.url);
  const admin = await adminApi(app.url);
  const { campaignId } = await launchedTwoQuestionBatch(admin, "crowd", { goldAccuracyThreshold: 0 });
  await admin.dispose();
  await app.stop();
  const handle = await openDatabase({ dataDir });
  try {
    await handle.db.execute(sql`
      update passages set is_training = true, explanation = 'The paragraph says when it was lit.'
      where id = (select id from passages where campaign_id = ${campaignId} and is_gold order by id limit 1)`);
    await handle.db.execute(sql`
      insert into crowd_entries (campaign_id, enabled, platform, entry_key, consent, training_items, training_pass_share, quota, codes)
      values (${campaignId}, true, 'generic', ${ENTRY_KEY}, ${"## Your data\nYour judgments are used for research."}, 1, 0, 2, ${JSON.stringify(CODES)}::jsonb)`);
  } finally {
    await handle.close();
  }
  app = startApp(PORT, dataDir, appEnv);
  await waitHealthy(app.url);
});

test.afterAll(async () => {
  await app?.stop();
  if (dataDir) fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
});

async function seriousViolations(page: Page): Promise<string[]> {
  return (await new AxeBuilder({ page }).analyze()).violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}

const notSufficient = (page: Page) => page.getByRole("button", { name: /^(\S+ )?Not sufficient$/ });

test("a generic crowd worker consents, trains with feedback, judges the quota and gets the completion code, again after a reload", async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ baseURL: app.url, viewport: { width: 360, height: 740 }, storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  const worker = unique("worker");
  await page.goto(`/crowd/${ENTRY_KEY}?worker=${worker}`);

  await expect(page.getByRole("region", { name: "Consent" })).toContainText("Your judgments are used for research.");
  await expect(page.getByRole("heading", { level: 1 })).toBeFocused();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole("button", { name: "I agree and start" }).click();

  // Training: a wrong answer, then the feedback with the expected verdict.
  await expect(page.getByText("Training 1 of 1")).toBeVisible();
  await expect(page.locator("h1.question")).toBeFocused();
  await notSufficient(page).click();
  await page.getByRole("button", { name: /Submit$/ }).click();
  const feedback = page.getByRole("status").filter({ hasText: "Expected" });
  await expect(feedback).toContainText("Not quite");
  await expect(feedback).toContainText("Sufficient");
  await expect(feedback).toContainText("The paragraph says when it was lit.");
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole("button", { name: "Next", exact: true }).click();

  // Work: the quota of two passages on the judging screen, without the annotator's links.
  for (let i = 0; i < 2; i++) {
    await expect(page.getByTestId("crowd-progress")).toContainText(`${i}/2`);
    await expect(page.getByRole("link", { name: /queue/i })).toHaveCount(0);
    await notSufficient(page).click();
    await page.getByRole("button", { name: /Submit$/ }).click();
    if (i === 0) await expect(page.getByTestId("crowd-progress")).toContainText("1/2");
  }

  await expect(page.getByRole("heading", { level: 1, name: "Thank you: your session is complete" })).toBeVisible();
  await expect(page.getByTestId("completion-code")).toHaveText(CODES.completed);
  await expect(page.getByRole("button", { name: "Copy code" })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  // The tab's token resumes the session; a fresh arrival with the same id enters the same ended session.
  await page.reload();
  await expect(page.getByTestId("completion-code")).toHaveText(CODES.completed);
  expect(await page.evaluate((k) => sessionStorage.getItem(`kps.crowd.${k}`), ENTRY_KEY)).toMatch(/^kpsw_/);
  const again = await browser.newContext({ baseURL: app.url, storageState: { cookies: [], origins: [] } });
  const second = await again.newPage();
  await second.goto(`/crowd/${ENTRY_KEY}?worker=${worker}`);
  await expect(second.getByTestId("completion-code")).toHaveText(CODES.completed);
  await again.close();
  await context.close();
});

test("an unknown entry says the study is not open; a link without the worker id names what is missing", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: app.url, storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await page.goto("/crowd/noSuchEntryKey000000000");
  await expect(page.getByRole("heading", { name: "This study is not open" })).toBeVisible();
  await page.goto(`/crowd/${ENTRY_KEY}`);
  await expect(page.getByRole("heading", { name: "This link is incomplete" })).toBeVisible();
  await expect(page.getByRole("main").getByRole("alert")).toContainText("worker: is required");
  await context.close();
});

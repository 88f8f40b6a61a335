import path from "node:path";
import { devices, expect, test, type Browser, type Page } from "@playwright/test";
import { adminApi, createAccount, judgeAll, launchDemoCampaign, PASSWORD, signedInApi, storageStatePath } from "./fixtures";

// A screenshot tour of the pages people use, saved to test-results/screenshots/tour-*.png: the
// judging page (desktop and phone), the queue, the annotator's history, the dashboard, an
// annotator's page and a question view. The README shows two of them (docs/judging.png,
// docs/dashboard.png, copied from a run). Each page is checked to show what it is for, so the tour
// fails when a page breaks rather than saving a picture of an error.

const shot = (name: string) => path.join(import.meta.dirname, "..", "test-results", "screenshots", `tour-${name}.png`);

test.use({ storageState: storageStatePath("coordinator"), viewport: { width: 1440, height: 900 } });

/** A browser context signed in as `username`, of the given device (desktop by default). */
async function signedInPage(
  browser: Browser,
  username: string,
  device: Record<string, unknown> = { viewport: { width: 1440, height: 900 } },
): Promise<Page> {
  const context = await browser.newContext({ ...device, storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  const res = await page.request.post("/api/auth/sign-in", { data: { username, password: PASSWORD } });
  expect(res.status(), await res.text()).toBe(200);
  return page;
}

test("screenshot tour: judging (desktop, phone), queue, history, dashboard, annotator page, question view", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const { campaignId, name } = await launchDemoCampaign(page.request, {
    sessionGoal: 20,
    instructions: "Judge whether the passage **alone** lets you answer the question.\n\n- Highlight the *shortest* span that does.",
  });
  // Two annotators judge everything through the API (one says sufficient everywhere, one only on
  // odd paragraphs), so the dashboard has figures and the question view split verdicts.
  const admin = await adminApi(baseURL!);
  const names: string[] = [];
  for (const sufficient of [() => true, (p: number) => p % 2 === 1]) {
    const username = await createAccount(admin, "annotator", "tour");
    names.push(username);
    const api = await signedInApi(baseURL!, username);
    await judgeAll(api, campaignId, sufficient, 4_000);
    await api.dispose();
  }
  const third = await createAccount(admin, "annotator", "tour");
  const users = await (await admin.get(`/api/users?q=${names[1]}`)).json();
  const secondId: number = users.users[0].id;
  await admin.dispose();

  // The third annotator: queue, then the judging page with a sentence highlighted.
  const a = await signedInPage(browser, third);
  await a.goto("/annotate");
  await expect(a.getByRole("link", { name: `Start ${name}` })).toBeVisible();
  await a.screenshot({ path: shot("queue") });
  await a.getByRole("link", { name: `Start ${name}` }).click();
  await expect(a.locator("article.passage")).toBeVisible();
  await a.keyboard.press("?"); // the instructions close
  await a.keyboard.press("s");
  await a.keyboard.press("1");
  await expect(a.locator(".passage-body mark").first()).toBeVisible();
  await a.screenshot({ path: shot("judging-desktop") });
  // Submit two, so the history has something to show.
  for (let i = 0; i < 2; i++) {
    const saved = a.waitForResponse((r) => /\/judgment/.test(r.url()) && r.request().method() === "POST");
    if (i > 0) {
      await a.keyboard.press("s");
      await a.keyboard.press("1");
    }
    await a.getByRole("button", { name: /Submit$/ }).click();
    expect((await saved).status()).toBe(201);
    await expect(a.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();
  }
  await a.goto(`/annotate/${campaignId}/history`);
  await expect(a.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(a.locator("mark").first()).toBeVisible();
  await a.screenshot({ path: shot("history"), fullPage: true });
  await a.context().close();

  // The same annotator on a phone.
  const phone = await signedInPage(browser, third, devices["Pixel 7"]);
  await phone.goto(`/annotate/${campaignId}`);
  await expect(phone.locator("article.passage")).toBeVisible();
  // The instructions open as a sheet on a first visit: shown, then closed; a tap on the passage's first word starts a highlight.
  const sheet = phone.locator("dialog.instructions-sheet");
  await expect(sheet).toBeVisible();
  await phone.screenshot({ path: shot("judging-phone-instructions") });
  await sheet.getByRole("button", { name: /^Hide/ }).tap();
  await expect(sheet).toBeHidden();
  const first = (await phone.locator(".passage-body [data-cp]").first().boundingBox())!;
  await phone.touchscreen.tap(first.x + 4, first.y + 12);
  await expect(phone.locator(".passage-body mark").first()).toBeVisible();
  await phone.screenshot({ path: shot("judging-phone") });
  await phone.context().close();

  // The coordinator's pages.
  await page.goto(`/campaigns/${campaignId}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
  await expect(page.getByTestId("annotators").getByRole("link", { name: names[0]! })).toBeVisible();
  await page.screenshot({ path: shot("dashboard"), fullPage: true });

  await page.goto(`/campaigns/${campaignId}/annotators/${secondId}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Annotator ${names[1]}`);
  await page.screenshot({ path: shot("annotator"), fullPage: true });

  const questions = await (await page.request.get(`/api/campaigns/${campaignId}/questions?show=disputed`)).json();
  expect(questions.questions.length).toBeGreaterThan(0);
  await page.goto(`/campaigns/${campaignId}/questions/${questions.questions[0].id}`);
  await expect(page.locator("mark").first()).toBeVisible();
  await page.screenshot({ path: shot("question-view"), fullPage: true });
});

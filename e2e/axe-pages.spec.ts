import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { axeBuilder, sidewaysScroll } from "./axe";
import { adminApi, createAccount, judgeAll, launchedTwoQuestionBatch, PASSWORD, signedInApi, storageStatePath } from "./fixtures";

// Every page: no serious or critical axe violation, at desktop and at phone size (390 × 844); on the
// phone no coordinator page scrolls sideways (a wide table scrolls in its own box).
// The pages with their own flows check more (annotate, judging-devices, progress-quality, undo-history);
// this one makes sure none is left out.

const SIZES = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
];

async function serious(page: Page): Promise<string[]> {
  return (await axeBuilder(page).analyze()).violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${page.url()} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}

/** Visits each path at one size; each must answer 200 and show its heading. */
async function checkPages(page: Page, size: (typeof SIZES)[number], paths: string[]): Promise<void> {
  const found: string[] = [];
  await page.setViewportSize(size);
  for (const path of paths) {
    const res = await page.goto(path);
    expect(res!.status(), path).toBe(200);
    await expect(page.locator("h1, h2").first(), path).toBeVisible();
    found.push(...(await serious(page)).map((v) => `${size.width}px ${v}`));
    if (size.width < 600) found.push(...(await sidewaysScroll(page)));
  }
  expect(found).toEqual([]);
}

/** A launched two-question campaign with one annotator's judgments, and that annotator's id and name. */
async function campaignWithWork(admin: APIRequestContext, baseURL: string) {
  const { campaignId } = await launchedTwoQuestionBatch(admin, "axe-pages", { sessionGoal: 10 });
  const username = await createAccount(admin, "annotator", "axe-pages");
  const api = await signedInApi(baseURL, username);
  await judgeAll(api, campaignId, (p) => p % 2 === 1);
  await api.dispose();
  const userId: number = (await (await admin.get(`/api/users?q=${username}`)).json()).users[0].id;
  const questions = await (await admin.get(`/api/campaigns/${campaignId}/questions`)).json();
  return { campaignId, username, userId, queryId: questions.questions[0].id as number, kiltId: questions.questions[0].kiltId as string };
}

/** A run of answers only for the campaign's questions, uploaded through the API; its id. */
async function uploadRun(api: APIRequestContext, campaignId: number): Promise<number> {
  const questions = await (await api.get(`/api/campaigns/${campaignId}/questions`)).json();
  const lines = questions.questions.map((q: { kiltId: string }) => JSON.stringify({ id: q.kiltId, output: [{ answer: "1871" }] }));
  const res = await api.post(`/api/campaigns/${campaignId}/runs`, {
    multipart: {
      name: "answers",
      guess: { name: "guess.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(lines.join("\n") + "\n") },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).run.id;
}

const TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/;

test.describe("coordinator pages", () => {
  test.use({ storageState: storageStatePath("coordinator") });

  test("every coordinator page at 1440 × 900 and 390 × 844: no serious or critical axe violation, no sideways page scroll on the phone", async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(300_000); // axe on every page at two sizes: past 150 s at a load average of 15
    const admin = await adminApi(baseURL!);
    const { campaignId, userId, queryId, kiltId } = await campaignWithWork(admin, baseURL!);
    await admin.dispose();
    const runId = await uploadRun(page.request, campaignId);
    const pages: [path: string, check?: () => Promise<void>][] = [
      ["/campaigns"],
      ["/campaigns/new"],
      // Times are written one way: the dashboard's refresh to the second, the others to the minute.
      [
        `/campaigns/${campaignId}`,
        () => expect(page.getByText(/^Live: refreshed/)).toHaveText(/refreshed \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC,/),
      ],
      [`/campaigns/${campaignId}/settings`],
      [`/campaigns/${campaignId}/import`],
      [`/campaigns/${campaignId}/questions`],
      [`/campaigns/${campaignId}/workers`],
      [`/campaigns/${campaignId}/questions/${queryId}`],
      [`/campaigns/${campaignId}/annotators/${userId}`, () => expect(page.locator("main time, .page time").first()).toHaveText(TIME)],
      [`/campaigns/${campaignId}/runs`, () => expect(page.getByTestId("leaderboard")).toBeVisible()],
      [`/campaigns/${campaignId}/runs/${runId}`],
      [`/campaigns/${campaignId}/runs/${runId}/questions/${encodeURIComponent(kiltId)}`],
      ["/people"],
      ["/people/audit", () => expect(page.locator("time").first()).toHaveText(TIME)],
      ["/account"],
    ];
    const found: string[] = [];
    for (const [path, check] of pages) {
      await page.setViewportSize({ width: 1440, height: 900 });
      const res = await page.goto(path);
      expect(res!.status(), path).toBe(200);
      await expect(page.locator("h1, h2").first(), path).toBeVisible();
      await check?.();
      found.push(...(await serious(page)).map((v) => `1440px ${v}`));
      await page.setViewportSize({ width: 390, height: 844 });
      await expect(page.locator("h1").first(), path).toBeInViewport();
      found.push(...(await sidewaysScroll(page)));
      found.push(...(await serious(page)).map((v) => `390px ${v}`));
    }
    expect(found).toEqual([]);
  });

  test("the header on a phone: the menu opens and closes from the keyboard", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/campaigns");
    const menu = page.getByRole("button", { name: "Menu" });
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "People" })).toBeHidden();
    await menu.focus();
    await page.keyboard.press("Enter");
    await expect(menu).toHaveAttribute("aria-expanded", "true");
    const people = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "People" });
    await expect(people).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(menu).toBeFocused();
    await menu.press("Enter");
    await page.keyboard.press("Tab");
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Campaigns" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/campaigns$/);
    await page.setViewportSize({ width: 1440, height: 900 });
    await expect(menu).toBeHidden();
    await expect(people).toBeVisible();
  });
});

test.describe("annotator and public pages", () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test("every annotator page and the sign-in page, at 1280 px and 390 px: no serious or critical axe violation", async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(240_000); // axe on every page: past 150 s at a load average of 15
    const admin = await adminApi(baseURL!);
    const { campaignId, username } = await campaignWithWork(admin, baseURL!);
    await admin.dispose();
    for (const size of SIZES) await checkPages(page, size, ["/"]);
    const res = await page.request.post("/api/auth/sign-in", { data: { username, password: PASSWORD } });
    expect(res.status()).toBe(200);
    for (const size of SIZES)
      await checkPages(page, size, ["/annotate", `/annotate/${campaignId}`, `/annotate/${campaignId}/history`, "/account"]);
  });
});

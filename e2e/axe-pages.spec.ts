import AxeBuilder from "@axe-core/playwright";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { adminApi, createAccount, judgeAll, launchedTwoQuestionBatch, PASSWORD, signedInApi, storageStatePath } from "./fixtures";

// Every page: no serious or critical axe violation. Coordinators' pages at desktop size (they are
// desktop work); annotators' pages and the sign-in page at desktop and at phone size (390 × 844).
// The pages with their own flows check more (annotate, judging-devices, progress-quality, undo-history);
// this one makes sure none is left out.

const SIZES = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

async function serious(page: Page): Promise<string[]> {
  return (await new AxeBuilder({ page }).analyze()).violations
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
  return { campaignId, username, userId, queryId: questions.questions[0].id as number };
}

test.describe("coordinator pages", () => {
  test.use({ storageState: storageStatePath("coordinator") });

  for (const size of SIZES.slice(0, 1)) {
    test(`every coordinator page at ${size.width} px: no serious or critical axe violation`, async ({ page, baseURL }) => {
      test.setTimeout(240_000); // axe on every page: past 150 s at a load average of 15
      const admin = await adminApi(baseURL!);
      const { campaignId, userId, queryId } = await campaignWithWork(admin, baseURL!);
      await admin.dispose();
      await checkPages(page, size, [
        "/campaigns",
        "/campaigns/new",
        `/campaigns/${campaignId}`,
        `/campaigns/${campaignId}/settings`,
        `/campaigns/${campaignId}/import`,
        `/campaigns/${campaignId}/questions`,
        `/campaigns/${campaignId}/workers`,
        `/campaigns/${campaignId}/questions/${queryId}`,
        `/campaigns/${campaignId}/annotators/${userId}`,
        "/people",
        "/people/audit",
        "/account",
      ]);
    });
  }
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

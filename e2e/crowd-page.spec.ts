import path from "node:path";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { adminApi, importAndLaunch, unique } from "./fixtures";
import { seriousViolations } from "./axe";

// Smoke test of the crowd worker's page (/crowd/{entryKey}, generic platform): consent → one
// training item with feedback → a quota of two passages on the judging screen → the completion code;
// a reload and a second arrival with the same worker id show the same code. The campaign, its
// training item and its crowd entry are made through the API.

const CODES = {
  completed: "DONE-7",
  queue_empty: "EMPTY-7",
  paused: "PAUSE-7",
  timed_out: "TIME-7",
  training_failed: "FAIL-7",
  stopped: "STOP-7",
};

/** A launched batch of two questions on a fresh page: gold + one candidate each; the first gold is a training item. Answers the entry key. */
async function crowdCampaign(admin: APIRequestContext): Promise<string> {
  const wikipediaId = unique("crowd-page");
  const text = [
    "Crowd page\n",
    "The tower was lit in 1871.\n",
    "It was relit in 2005.\n",
    "A museum opened in 2010.\n",
    "Ferries stop there.\n",
  ];
  const knowledge = await admin.post("/api/knowledge?name=p.jsonl", {
    data: Buffer.from(JSON.stringify({ wikipedia_id: wikipediaId, wikipedia_title: "Crowd page", text }) + "\n"),
    headers: { "content-type": "application/x-ndjson" },
  });
  expect(knowledge.status(), await knowledge.text()).toBe(201);
  const created = await admin.post("/api/campaigns", { data: { name: unique("e2e-crowd"), goldAccuracyThreshold: 0 } });
  const campaignId: number = (await created.json()).campaign.id;
  const ids = [unique("q"), unique("q")];
  const provenance = (p: number) => ({ wikipedia_id: wikipediaId, start_paragraph_id: p, end_paragraph_id: p });
  const training = { training: true, explanation: "The paragraph says when it was lit." };
  const queries = ids.map((id, i) =>
    JSON.stringify({
      id,
      input: `question ${i}`,
      output: [{ answer: "1871", provenance: [{ ...provenance(1 + 2 * i), ...(i === 0 ? training : {}) }] }],
    }),
  );
  const candidates = ids.map((id, i) => JSON.stringify({ id, output: [{ provenance: [provenance(2 + 2 * i)] }] }));
  await importAndLaunch(admin, campaignId, queries, candidates);
  const crowd = await admin.put(`/api/campaigns/${campaignId}/crowd`, {
    data: {
      enabled: true,
      platform: "generic",
      consent: "## Your data\nYour judgments are used for research.",
      trainingItems: 1,
      trainingPassShare: 0,
      quota: 2,
      codes: CODES,
      example: "*Question*: when was the tower first lit?\n\nThe tower was lit in 1871.",
    },
  });
  expect(crowd.status(), await crowd.text()).toBe(200);
  return (await crowd.json()).crowd.entryKey;
}

// One crowd entry for the file (beforeAll): its tests run in order, in one worker.
test.describe.configure({ mode: "serial" });

let ENTRY_KEY = "";

test.beforeAll(async ({ baseURL }) => {
  const admin = await adminApi(baseURL!);
  ENTRY_KEY = await crowdCampaign(admin);
  await admin.dispose();
});

const shot = (name: string) => path.join(import.meta.dirname, "..", "test-results", "screenshots", `crowd-${name}.png`);

const notSufficient = (page: Page) => page.getByRole("button", { name: /^(\S+ )?Not sufficient$/ });

test("a generic crowd worker consents, trains with feedback, judges the quota and gets the completion code, again after a reload", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, storageState: { cookies: [], origins: [] } });
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
  await page.screenshot({ path: shot("training-feedback"), fullPage: true }); // README
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
  await page.screenshot({ path: shot("completion") }); // README
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  // The tab's token resumes the session; a fresh arrival with the same id enters the same ended session.
  await page.reload();
  await expect(page.getByTestId("completion-code")).toHaveText(CODES.completed);
  expect(await page.evaluate((k) => sessionStorage.getItem(`kps.crowd.${k}`), ENTRY_KEY)).toMatch(/^kpsw_/);
  const again = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const second = await again.newPage();
  await second.goto(`/crowd/${ENTRY_KEY}?worker=${worker}`);
  await expect(second.getByTestId("completion-code")).toHaveText(CODES.completed);
  await again.close();
  await context.close();
});

test("an unknown entry says the study is not open; a link without the worker id names what is missing", async ({ browser }) => {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await page.goto("/crowd/noSuchEntryKey000000000");
  await expect(page.getByRole("heading", { name: "This study is not open" })).toBeVisible();
  await page.goto(`/crowd/${ENTRY_KEY}`);
  await expect(page.getByRole("heading", { name: "This link is incomplete" })).toBeVisible();
  await expect(page.getByRole("main").getByRole("alert")).toContainText("This link has no worker.");
  await context.close();
});

// Every screen of the crowd page, axe-checked at desktop and phone widths (the 360 px walk above
// checks the same stages on its way): the MTurk preview, consent, a training item and its feedback,
// the judging screen in crowd mode.
for (const viewport of [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`the crowd page's screens are axe-clean at ${viewport.width} px`, async ({ browser }) => {
    const context = await browser.newContext({ viewport, storageState: { cookies: [], origins: [] } });
    const page = await context.newPage();
    await page.goto(`/crowd/${ENTRY_KEY}?assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE&hitId=h&workerId=w&turkSubmitTo=https://www.mturk.com`);
    await expect(page.getByText("The tower was lit in 1871.")).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    await page.goto(`/crowd/${ENTRY_KEY}?worker=${unique("axe")}`);
    await expect(page.getByRole("region", { name: "Consent" })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "I agree and start" }).click();
    await expect(page.getByText("Training 1 of 1")).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await notSufficient(page).click();
    await page.getByRole("button", { name: /Submit$/ }).click();
    await expect(page.getByRole("status").filter({ hasText: "Expected" })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Next", exact: true }).click();
    await expect(page.getByTestId("crowd-progress")).toContainText("0/2");
    expect(await seriousViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    await context.close();
  });
}

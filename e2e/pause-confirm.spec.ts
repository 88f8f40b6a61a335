import { devices, expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { adminApi, createAccount, importKnowledgePage, judgeAll, signedInApi, storageStatePath, unique } from "./fixtures";
import { seriousViolations } from "./axe";

// Pausing an annotator asks for confirmation (issue 26): a modal dialog with the focus on its Pause
// button, Escape or Cancel leaves the annotator as they were, Enter or a tap on Pause pauses them.

test.use({ storageState: storageStatePath("coordinator") });

/** A launched one-question campaign that `names.length` annotators have judged, so they are in its annotators table. */
async function campaignWithAnnotators(page: Page, baseURL: string, count: number): Promise<{ campaignId: number; names: string[] }> {
  const admin = await adminApi(baseURL);
  const wikipediaId = unique("pause-page");
  const text = ["Pause Page\n", "The tower was first lit in 1871.\n", "It was relit in 2005.\n"];
  await importKnowledgePage(page.request, wikipediaId, "Pause Page", text);
  const campaign = (
    await (await page.request.post("/api/campaigns", { data: { name: unique("e2e-pause"), goldAccuracyThreshold: 0 } })).json()
  ).campaign;
  const line = JSON.stringify({
    id: unique("q"),
    input: "when was the tower first lit",
    output: [{ answer: "1871", provenance: [{ wikipedia_id: wikipediaId, start_paragraph_id: 1, end_paragraph_id: 1 }] }],
  });
  const imported = await page.request.post(`/api/campaigns/${campaign.id}/batches`, {
    multipart: { queries: { name: "q.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(line + "\n") } },
  });
  expect(imported.status(), await imported.text()).toBe(201);
  expect((await page.request.post(`/api/batches/${(await imported.json()).batch.id}/launch`)).status()).toBe(200);
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    const name = await createAccount(admin, "annotator");
    const api = await signedInApi(baseURL, name);
    await judgeAll(api, campaign.id, () => true);
    await api.dispose();
    names.push(name);
  }
  await admin.dispose();
  return { campaignId: campaign.id, names };
}

/** The annotator's standing as the API reports it. */
async function standingOf(api: APIRequestContext, campaignId: number, username: string): Promise<string> {
  const res = await api.get(`/api/campaigns/${campaignId}/annotators?q=${encodeURIComponent(username)}`);
  expect(res.status()).toBe(200);
  const rows: { username: string; status: string }[] = (await res.json()).annotators;
  return rows.find((r) => r.username === username)!.status;
}

async function expectNoSeriousViolations(page: Page, include: string) {
  expect(await seriousViolations(page, include)).toEqual([]);
}

test("keyboard: Enter opens the dialog with the focus inside, Escape cancels, Enter confirms; axe at 1280 px", async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const { campaignId, names } = await campaignWithAnnotators(page, baseURL!, 2);
  const [who, other] = names as [string, string];
  await page.goto(`/campaigns/${campaignId}`);
  const row = page.getByTestId("annotators").getByRole("row", { name: new RegExp(who) });
  const pause = row.getByRole("button", { name: `Pause ${who}` });
  await expect(row).toContainText("active");
  await expect(pause).toHaveAttribute("aria-haspopup", "dialog");

  // Enter on the row's button opens the dialog; the focus moves into it, on its Pause button.
  await pause.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: `Pause ${who}?` });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("stop counting");
  await expect(dialog.getByRole("button", { name: "Pause" })).toBeFocused();
  await expectNoSeriousViolations(page, ".pause-dialog");

  // Escape cancels: nothing changes, and the focus is back on the row's button.
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(pause).toBeFocused();
  await expect(row).toContainText("active");
  expect(await standingOf(page.request, campaignId, who)).toBe("active");

  // Tab reaches Cancel, and Enter on it cancels too.
  await page.keyboard.press("Enter");
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Tab");
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  expect(await standingOf(page.request, campaignId, who)).toBe("active");

  // Enter in the dialog confirms: this annotator, and only them, is paused.
  await pause.focus();
  await page.keyboard.press("Enter");
  await expect(dialog.getByRole("button", { name: "Pause" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  await expect(row).toContainText("paused");
  await expect.poll(() => standingOf(page.request, campaignId, who)).toBe("paused");
  expect(await standingOf(page.request, campaignId, other)).toBe("active");
  // Resuming does not ask.
  await row.getByRole("button", { name: `Resume ${who}` }).click();
  await expect(row).toContainText("active");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect.poll(() => standingOf(page.request, campaignId, who)).toBe("active");
});

test("touch at 390 px: a tap opens the dialog, Cancel leaves the annotator active, Pause pauses them; axe", async ({
  browser,
  baseURL,
}) => {
  const { viewport, userAgent, deviceScaleFactor } = devices["Pixel 7"];
  const context = await browser.newContext({
    storageState: storageStatePath("coordinator"),
    viewport: { width: 390, height: viewport.height },
    userAgent,
    deviceScaleFactor,
    // Touch without Chromium's mobile layout viewport: the dashboard is wider than a phone (its tables
    // scroll sideways), and with isMobile the page zooms out so that taps land off their targets.
    hasTouch: true,
  });
  const page = await context.newPage();
  const { campaignId, names } = await campaignWithAnnotators(page, baseURL!, 1);
  const who = names[0]!;
  await page.goto(`/campaigns/${campaignId}`);
  const row = page.getByTestId("annotators").getByRole("row", { name: new RegExp(who) });
  const pause = row.getByRole("button", { name: `Pause ${who}` });
  await pause.scrollIntoViewIfNeeded();
  await pause.tap();
  const dialog = page.getByRole("dialog", { name: `Pause ${who}?` });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Pause" })).toBeFocused();
  // The dialog fits the phone's width, and its buttons are big enough to tap.
  const box = (await dialog.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  for (const name of ["Pause", "Cancel"])
    expect((await dialog.getByRole("button", { name }).boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await expectNoSeriousViolations(page, ".pause-dialog");

  await dialog.getByRole("button", { name: "Cancel" }).tap();
  await expect(dialog).toBeHidden();
  expect(await standingOf(page.request, campaignId, who)).toBe("active");

  await pause.tap();
  await dialog.getByRole("button", { name: "Pause" }).tap();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText("paused");
  await expect.poll(() => standingOf(page.request, campaignId, who)).toBe("paused");
  await context.close();
});

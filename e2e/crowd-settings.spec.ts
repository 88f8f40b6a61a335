import { expect, test, type Page } from "@playwright/test";
import { adminApi, storageStatePath, unique } from "./fixtures";
import { screenshotPath } from "./screenshots";
import { seriousViolations } from "./axe";

// Issue 15, deliverable 1: the campaign settings page's "Crowd entry" section: every field labelled
// (axe), problems beside their fields, the entry URL for the saved platform with a Copy button.

/** A new campaign's settings page, open on its "Crowd entry" form. */
async function openCrowdForm(page: Page, baseURL: string, name: string) {
  const admin = await adminApi(baseURL);
  const id = (await (await admin.post("/api/campaigns", { data: { name: unique(name) } })).json()).campaign.id as number;
  await admin.dispose();
  await page.goto(`/campaigns/${id}/settings`);
  return { id, form: page.getByRole("form", { name: "Crowd entry" }) };
}

test.describe("crowd settings", () => {
  test.use({ storageState: storageStatePath("coordinator"), viewport: { width: 1280, height: 900 } });

  test("the settings page's crowd entry: defaults and the Prolific link, a duplicate code named beside its field, then saved as MTurk", async ({
    page,
    baseURL,
  }) => {
    const { id, form } = await openCrowdForm(page, baseURL!, "crowd form");
    await expect(form.getByLabel(/^Crowd entry/)).toHaveValue("closed");
    await expect(form.getByLabel(/^Platform/)).toHaveValue("prolific");
    await expect(form.getByLabel(/^Training items/)).toHaveValue("5");
    await expect(form.getByRole("textbox", { name: "Entry URL" })).toHaveValue(
      new RegExp(
        `^${baseURL}/crowd/[A-Za-z0-9_-]{22}\\?PROLIFIC_PID=\\{\\{%PROLIFIC_PID%\\}\\}&STUDY_ID=\\{\\{%STUDY_ID%\\}\\}&SESSION_ID=\\{\\{%SESSION_ID%\\}\\}$`,
      ),
    );
    await expect(form.getByLabel("Completion URL")).toHaveValue("https://app.prolific.com/submissions/complete");
    expect(await seriousViolations(page)).toEqual([]);
    await form.screenshot({ path: screenshotPath("crowd-settings-prolific.png") }); // README: setting up a Prolific study

    const completed = await form.getByLabel("Code: Quota completed").inputValue();
    await form.getByLabel("Code: Paused by quality control").fill(completed.toLowerCase());
    await form.getByLabel(/^Quota per session/).fill("6");
    await form.getByRole("button", { name: "Save crowd settings" }).click();
    await expect(form.getByLabel("Code: Paused by quality control")).toBeFocused();
    await expect(page.locator("#crowd-codes-paused-error")).toHaveText(
      "is the same as the code for 'completed'; each outcome needs its own code",
    );
    await expect(form.getByLabel("Code: Paused by quality control")).toHaveAttribute("aria-invalid", "true");
    expect(await seriousViolations(page)).toEqual([]);

    await form.getByLabel("Code: Paused by quality control").fill("PAUSED-1");
    await form.getByLabel(/^Crowd entry/).selectOption("open");
    await form.getByLabel(/^Platform/).selectOption("mturk");
    await expect(form.getByLabel("Completion URL")).toHaveCount(0);
    await form.getByLabel(/^Consent text/).fill("# Consent\n\nI agree. <script>alert(1)</script>");
    await form.getByLabel(/^Judgments per worker/).fill("");
    await form.getByRole("button", { name: "Save crowd settings" }).click();
    await expect(form.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
    await expect(form.getByRole("textbox", { name: "Entry URL" })).toHaveValue(new RegExp(`^${baseURL}/crowd/[A-Za-z0-9_-]{22}$`));
    await form.screenshot({ path: screenshotPath("crowd-settings-mturk.png") }); // README: setting up an MTurk HIT
    await form.getByText("Preview as workers see it").click();
    await expect(form.locator(".markdown-body h1")).toHaveText("Consent");
    await expect(form.locator(".markdown-body script")).toHaveCount(0);

    const saved = (await (await page.request.get(`/api/campaigns/${id}/crowd`)).json()).crowd;
    expect(saved).toMatchObject({
      enabled: true,
      platform: "mturk",
      quota: 6,
      maxJudgmentsPerWorker: null,
      consent: "# Consent\n\nI agree. <script>alert(1)</script>",
    });
    expect(saved.codes.paused).toBe("PAUSED-1");
    await page.reload();
    await expect(page.getByRole("form", { name: "Crowd entry" }).getByLabel(/^Quota per session/)).toHaveValue("6");
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: screenshotPath("crowd-settings-390.png"), fullPage: true });
  });

  test("more training items than the campaign has marked: the server's count beside the field; 0 saves", async ({ page, baseURL }) => {
    const { id, form } = await openCrowdForm(page, baseURL!, "crowd training");
    await form.getByLabel(/^Training items/).fill("3");
    await form.getByRole("button", { name: "Save crowd settings" }).click();
    await expect(page.locator("#crowd-trainingItems-error")).toHaveText(
      /^3 asked, but only 0 passages of this campaign are marked for training; /,
    );
    await expect(form.getByLabel(/^Training items/)).toHaveAttribute("aria-invalid", "true");
    await expect(form.getByLabel(/^Training items/)).toBeFocused();
    expect(await seriousViolations(page)).toEqual([]);
    expect((await (await page.request.get(`/api/campaigns/${id}/crowd`)).json()).crowd.trainingItems).toBe(5);

    await form.getByLabel(/^Training items/).fill("0");
    await form.getByRole("button", { name: "Save crowd settings" }).click();
    await expect(form.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
    await expect(page.locator("#crowd-trainingItems-error")).toHaveCount(0);
    expect((await (await page.request.get(`/api/campaigns/${id}/crowd`)).json()).crowd.trainingItems).toBe(0);
  });
});

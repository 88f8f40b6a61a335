import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { PASSWORD, startApp, tempDataDir, waitHealthy } from "./fixtures";

// A fresh installation with no demo and no admin from the environment: /setup makes the first coordinator.
test("the setup page creates the first coordinator and then disappears @smoke", async ({ page }) => {
  test.setTimeout(90_000);
  const dataDir = tempDataDir();
  const app = startApp(3193, dataDir, { KPS_DEMO: "0" });
  try {
    await waitHealthy(app.url);
    expect(app.output()).toContain("No user yet: open /setup");

    await page.goto(`${app.url}/`);
    await expect(page).toHaveURL(/\/setup$/);
    await page.getByLabel("Username").fill("first-coordinator");
    await page.getByLabel("Password", { exact: false }).first().fill(PASSWORD);
    await page.getByLabel("Repeat the password").fill(PASSWORD);
    await page.getByRole("button", { name: "Create coordinator" }).click();
    await expect(page.getByRole("status")).toContainText("Your account is ready");

    const again = await page.goto(`${app.url}/setup`);
    expect(again?.status()).toBe(404);
    const api = await fetch(`${app.url}/api/setup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "second", password: PASSWORD }),
    });
    expect(api.status).toBe(409);

    await page.goto(`${app.url}/`);
    await page.getByLabel("Username").fill("first-coordinator");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/campaigns$/);
  } finally {
    await app.stop();
    fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
  }
});

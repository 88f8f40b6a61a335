import { expect, test } from "@playwright/test";
import { acceptInvite, adminApi, PASSWORD, unique } from "./fixtures";

test("an invited annotator sets a password through the link, once", async ({ page, baseURL }) => {
  const admin = await adminApi(baseURL!);
  const username = unique("e2e-invited");
  const res = await admin.post("/api/users", { data: { username, role: "annotator" } });
  expect(res.status()).toBe(201);
  const { invite } = await res.json();
  await admin.dispose();

  await acceptInvite(page, invite.url, { role: "annotator", username });

  await page.goto("/");
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/annotate$/);

  // The link works once.
  await page.context().clearCookies();
  await page.goto(new URL(invite.url).pathname);
  await expect(page.locator(".error")).toContainText("unknown, already used, or expired");
});

import { expect, test } from "@playwright/test";
import { accounts, PASSWORD, storageStatePath } from "./fixtures";

test.describe("signing in", () => {
  test("a coordinator signs in with the form and reaches the campaigns page", async ({ page }) => {
    await page.goto("/");
    await page.getByLabel("Username").fill(accounts().coordinator);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/campaigns$/);
    await expect(page.getByRole("heading", { name: "Campaigns" })).toBeVisible();
    await expect(page.getByText(`${accounts().coordinator} · coordinator`)).toBeVisible();
  });

  test("an annotator signs in with the keyboard and reaches their queue", async ({ page }) => {
    await page.goto("/");
    await page.getByLabel("Username").fill(accounts().annotator);
    await page.keyboard.press("Tab");
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/annotate$/);
    await expect(page.getByRole("heading", { name: "Your queue" })).toBeVisible();
  });

  test("a wrong password is refused with a message", async ({ page }) => {
    await page.goto("/");
    await page.getByLabel("Username").fill(accounts().annotator);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.locator(".error")).toHaveText("Wrong username or password.");
    await expect(page).toHaveURL(/\/$/);
  });

  test("anonymous visitors are sent to the sign-in page", async ({ page }) => {
    await page.goto("/campaigns");
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  });

  test("the session cookie is httpOnly and SameSite=Lax", async ({ page, context }) => {
    await page.goto("/");
    await page.getByLabel("Username").fill(accounts().annotator);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/annotate$/);
    const cookie = (await context.cookies()).find((c) => c.name === "kps_session");
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe("Lax");
    expect(cookie?.secure).toBe(true); // production build
  });
});

test.describe("as an annotator", () => {
  test.use({ storageState: storageStatePath("annotator") });

  test("cannot open coordinator pages", async ({ page }) => {
    await page.goto("/campaigns");
    await expect(page.getByRole("heading", { name: "Not allowed" })).toBeVisible();
    await expect(page.getByText("This page is for coordinators only.")).toBeVisible();
    await expect(page.getByRole("table")).toHaveCount(0);
  });

  test("is sent from the sign-in page to their queue", async ({ page }) => {
    await page.goto("/");
    await expect(page).toHaveURL(/\/annotate$/);
  });
});

test.describe("as a coordinator", () => {
  test.use({ storageState: storageStatePath("coordinator") });

  test("cannot open annotator pages", async ({ page }) => {
    await page.goto("/annotate");
    await expect(page.getByText("This page is for annotators only.")).toBeVisible();
  });
});

test("signing out ends the session at once", async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto("/");
  await page.getByLabel("Username").fill(accounts().coordinator);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/campaigns$/);
  const cookie = (await context.cookies()).find((c) => c.name === "kps_session")!;

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();

  // The old cookie value no longer works, even if a client kept it.
  const res = await page.request.get("/api/me", { headers: { cookie: `kps_session=${cookie.value}` } });
  expect(res.status()).toBe(401);
  await context.close();
});

import { expect, test } from "@playwright/test";
import { acceptInvite, adminApi, PASSWORD, unique } from "./fixtures";

test("an invited annotator sets a password through the link, once, and is signed in on their start page", async ({ page, baseURL }) => {
  const admin = await adminApi(baseURL!);
  const invite = async (username: string) => {
    const res = await admin.post("/api/users", { data: { username, role: "annotator" } });
    expect(res.status()).toBe(201);
    return (await res.json()).invite as { url: string };
  };
  const username = unique("e2e-invited");
  const { url } = await invite(username);

  // Accepting is a sign-in: JSON only, and only from this site when the browser names an Origin.
  const token = url.split("/invite/")[1];
  const body = { token, password: PASSWORD };
  const foreign = await page.request.post("/api/invites/accept", { headers: { origin: "https://evil.example" }, data: body });
  expect(foreign.status()).toBe(403);
  const form = await page.request.post("/api/invites/accept", { headers: { "content-type": "text/plain" }, data: JSON.stringify(body) });
  expect(form.status()).toBe(415);

  // acceptInvite waits for the start page: the new session cookie took the browser there.
  await acceptInvite(page, url, { role: "annotator", username });
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  const me = await page.request.get("/api/me");
  expect(me.status()).toBe(200);
  expect((await me.json()).user).toMatchObject({ username, role: "annotator" });
  await admin.dispose();

  // The link works once.
  await page.context().clearCookies();
  await page.goto(new URL(url).pathname);
  await expect(page.locator(".error")).toContainText("unknown, already used, or expired");
  await page.goto("/");
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/annotate$/);
});

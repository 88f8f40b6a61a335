import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { expect, request, test, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { accounts, adminApi, createAccount, PASSWORD, signedInApi, storageStatePath, unique } from "./fixtures";

// Account lifecycle and the audit log, in Chromium and over HTTP (issue 12).

const noOne = { cookies: [], origins: [] };
const run = promisify(execFile);

test.use({ storageState: storageStatePath("coordinator"), viewport: { width: 1280, height: 900 } });

interface AuditJson {
  id: number;
  actorUsername: string;
  action: string;
  targetType: string;
  targetId: string | null;
  details: Record<string, unknown>;
  address: string | null;
}

async function userId(api: APIRequestContext, username: string): Promise<number> {
  const { users } = (await (await api.get(`/api/users?q=${encodeURIComponent(username)}`)).json()) as {
    users: { id: number; username: string }[];
  };
  const user = users.find((u) => u.username === username);
  expect(user, username).toBeDefined();
  return user!.id;
}

/** Every audit entry since `since`, oldest first, paging through GET /api/audit. */
async function auditSince(api: APIRequestContext, since: Date): Promise<AuditJson[]> {
  const all: AuditJson[] = [];
  let cursor: number | null = null;
  do {
    const res = await api.get(`/api/audit?order=asc&limit=500&since=${since.toISOString()}${cursor ? `&cursor=${cursor}` : ""}`);
    expect(res.status(), await res.text()).toBe(200);
    const page = (await res.json()) as { entries: AuditJson[]; nextCursor: number | null };
    all.push(...page.entries);
    cursor = page.nextCursor;
  } while (cursor);
  return all;
}

async function signedInPage(browser: Browser, username: string, password = PASSWORD): Promise<Page> {
  const context = await browser.newContext({ storageState: noOne });
  const res = await context.request.post("/api/auth/sign-in", { data: { username, password } });
  expect(res.status(), await res.text()).toBe(200);
  return context.newPage();
}

test("disabling a user refuses their cookie and their token at once; enabling lets them sign in again", async ({ page, baseURL }) => {
  const since = new Date(Date.now() - 1000);
  const admin = await adminApi(baseURL!);
  const username = await createAccount(admin, "coordinator", "to-disable");
  const theirs = await signedInApi(baseURL!, username);
  const token = (await (await theirs.post("/api/tokens", { data: { name: "theirs" } })).json()).token.token as string;
  const bearer = await request.newContext({ baseURL, storageState: noOne, extraHTTPHeaders: { authorization: `Bearer ${token}` } });
  expect((await theirs.get("/api/me")).status()).toBe(200);
  expect((await bearer.get("/api/me")).status()).toBe(200);

  // Disabled from the People page (it asks first).
  await page.goto("/people");
  const row = page
    .getByRole("table", { name: "Users" })
    .getByRole("row")
    .filter({ has: page.getByRole("cell", { name: username, exact: true }) });
  await row.getByRole("button", { name: `Disable ${username}` }).click();
  await row.getByRole("button", { name: `Yes, disable ${username}` }).click();
  await expect(row).toContainText("disabled");

  const cookie = await theirs.get("/api/me");
  expect(cookie.status()).toBe(401);
  const viaToken = await bearer.get("/api/me");
  expect(viaToken.status()).toBe(401);
  expect((await viaToken.json()).error.message).toContain("disabled");
  const again = await request.newContext({ baseURL, storageState: noOne });
  expect((await again.post("/api/auth/sign-in", { data: { username, password: PASSWORD } })).status()).toBe(401);

  // A coordinator cannot disable themselves: no button on their own row (found by a search: the
  // list is paged, newest first), and the API refuses.
  const search = page.getByRole("search", { name: "Users" });
  await search.getByLabel("Search users").fill(accounts().coordinator);
  await search.getByRole("button", { name: "Search" }).click();
  const self = page
    .getByRole("table", { name: "Users" })
    .getByRole("row")
    .filter({ has: page.getByRole("cell", { name: accounts().coordinator, exact: true }) });
  await expect(self).toContainText("you");
  await expect(self.getByRole("button", { name: /^Disable/ })).toHaveCount(0);
  await search.getByRole("button", { name: "Clear" }).click();
  const selfRes = await page.request.post(`/api/users/${await userId(page.request, accounts().coordinator)}/disable`);
  expect(selfRes.status()).toBe(409);

  await row.getByRole("button", { name: `Enable ${username}` }).click();
  await expect(row).toContainText("active");
  expect((await again.post("/api/auth/sign-in", { data: { username, password: PASSWORD } })).status()).toBe(200);
  expect((await bearer.get("/api/me")).status()).toBe(401); // its tokens were revoked for good

  const id = String(await userId(admin, username));
  const entries = (await auditSince(page.request, since)).filter((e) => e.targetType === "user" && e.targetId === id);
  expect(entries.map((e) => e.action)).toEqual(["user.create", "user.disable", "user.enable"]);
  expect(entries[1]).toMatchObject({ actorUsername: accounts().coordinator, details: { tokensRevoked: 1, sessionsEnded: 1 } });
  expect(entries[1]!.address).toBeTruthy();
  for (const c of [admin, theirs, bearer, again]) await c.dispose();
});

test("a user changes their own password on the account page; a wrong current password is named", async ({ browser, baseURL }) => {
  const admin = await adminApi(baseURL!);
  const username = await createAccount(admin, "annotator", "own-password");
  const page = await signedInPage(browser, username);
  const other = await signedInApi(baseURL!, username);
  await page.goto("/annotate");
  await page.getByRole("link", { name: "Account" }).click();
  await expect(page.getByRole("heading", { name: "Your account", level: 1 })).toBeVisible();

  await page.getByLabel("Current password").fill("not-my-password");
  await page.getByLabel("New password").fill("brand-new-password-1");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("is not your current password")).toBeVisible();
  await expect(page.getByLabel("Current password")).toHaveAttribute("aria-invalid", "true");
  const wrong = await page.request.put("/api/me/password", { data: { currentPassword: "nope", newPassword: "brand-new-password-1" } });
  expect(wrong.status()).toBe(422);
  expect((await wrong.json()).error.details.problems).toEqual([{ field: "currentPassword", message: "is not your current password" }]);

  await page.getByLabel("Current password").fill(PASSWORD);
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Password changed." })).toBeVisible();
  expect((await page.request.get("/api/me")).status()).toBe(200); // this session stays
  expect((await other.get("/api/me")).status()).toBe(401); // the other one ended
  await signedInApi(baseURL!, username, "brand-new-password-1").then((a) => a.dispose());
  await other.dispose();
  await admin.dispose();
  await page.context().close();
});

test("a coordinator's reset link sets the password once; sign out everywhere ends another context's session", async ({
  page,
  browser,
  baseURL,
}) => {
  const admin = await adminApi(baseURL!);
  const username = await createAccount(admin, "annotator", "reset");
  const before = await signedInApi(baseURL!, username);
  await page.goto("/people");
  const row = page
    .getByRole("table", { name: "Users" })
    .getByRole("row")
    .filter({ has: page.getByRole("cell", { name: username, exact: true }) });
  await row.getByRole("button", { name: `Password reset link for ${username}` }).click();
  const link = await page.getByRole("textbox", { name: `Reset link for ${username}` }).inputValue();
  expect(link).toMatch(/\/invite\/[A-Za-z0-9_-]{20,}$/);

  const guest = await (await browser.newContext({ storageState: noOne })).newPage();
  await guest.goto(link);
  await guest.getByLabel("Password", { exact: false }).first().fill("reset-password-123");
  await guest.getByLabel("Repeat the password").fill("reset-password-123");
  await guest.getByRole("button", { name: "Create my account" }).click();
  await guest.waitForURL(/\/annotate$/);
  expect((await before.get("/api/me")).status()).toBe(401); // the reset ended the old session
  await guest.goto(link);
  await expect(guest.getByText("unknown, already used, or expired")).toBeVisible();
  await guest.context().close();

  // Two browser contexts signed in as the user: "Sign out everywhere" in one ends the other.
  const first = await signedInPage(browser, username, "reset-password-123");
  const second = await signedInPage(browser, username, "reset-password-123");
  expect((await second.request.get("/api/me")).status()).toBe(200);
  await first.goto("/account");
  // An annotator cannot open the People page: the account page sends them to their coordinator instead.
  await expect(first.getByTestId("tokens-hint")).toContainText("ask your campaign's coordinator");
  await expect(first.getByRole("link", { name: "People page" })).toHaveCount(0);
  await first.getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(first.getByRole("button", { name: "Sign in" })).toBeVisible();
  expect((await second.request.get("/api/me")).status()).toBe(401);
  expect((await first.request.get("/api/me")).status()).toBe(401);
  await first.context().close();
  await second.context().close();
  for (const c of [before, admin]) await c.dispose();
});

test("a token made with an expiry lists it and its last use; the audit page shows the entries", async ({ page, baseURL }) => {
  const name = unique("e2e-expiring");
  await page.goto("/people");
  await page.getByLabel("Token name").fill(name);
  await page.getByLabel("Token expires after").selectOption({ label: "30 days" });
  await page.getByRole("button", { name: "Create token" }).click();
  const secret = await page.getByLabel("New API token", { exact: true }).inputValue();
  const bearer = await request.newContext({ baseURL, storageState: noOne, extraHTTPHeaders: { authorization: `Bearer ${secret}` } });
  expect((await bearer.get("/api/me")).status()).toBe(200);
  await bearer.dispose();

  const listed = (
    (await (await page.request.get("/api/tokens")).json()) as { tokens: { name: string; expiresAt: string; lastUsedAt: string | null }[] }
  ).tokens.find((t) => t.name === name)!;
  const days = (Date.parse(listed.expiresAt) - Date.now()) / 86_400_000;
  expect(days).toBeGreaterThan(29.9);
  expect(days).toBeLessThan(30.1);
  expect(listed.lastUsedAt).not.toBeNull();
  await page.reload();
  const row = page
    .getByRole("table", { name: "API tokens" })
    .getByRole("row")
    .filter({ has: page.getByRole("cell", { name, exact: true }) });
  await expect(row.getByRole("cell").nth(5)).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
  await expect(row.getByRole("cell").nth(4)).not.toHaveText("never");

  await page.getByRole("link", { name: "Audit log" }).first().click();
  await expect(page).toHaveURL(/\/people\/audit$/);
  const entry = page.getByTestId("audit").getByRole("row").filter({ hasText: name });
  await expect(entry.first()).toContainText("Created an API token");
  await expect(entry.first()).toContainText("token.create");
  await expect(entry.first()).toContainText(accounts().coordinator);
});

test("the audit and account pages on a phone: the audit filters never make the page scroll sideways", async ({ page }) => {
  // axe runs on these pages, and on the People page, at both sizes in axe-pages.spec.ts.
  await page.setViewportSize({ width: 390, height: 844 });
  // At 390 px the audit page with its filters never scrolls sideways; its table scrolls in its box.
  await page.goto("/people/audit?target=campaign");
  await expect(page.getByRole("search", { name: "Filter the audit log" })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: path.join(import.meta.dirname, "..", "test-results", "screenshots", "audit-phone.png"), fullPage: true });
  // A coordinator's account page keeps the way to the People page's tokens.
  await page.goto("/account");
  await expect(page.getByTestId("tokens-hint").getByRole("link", { name: "People page" })).toHaveAttribute(
    "href",
    "/people#tokens-heading",
  );
});

test("an annotator may not read the audit log", async ({ browser, baseURL }) => {
  const page = await signedInPage(browser, accounts().annotator);
  expect((await page.request.get("/api/audit")).status()).toBe(403);
  await page.goto("/people/audit");
  await expect(page.getByText(/coordinator/i).first()).toBeVisible();
  await expect(page.getByTestId("audit")).toHaveCount(0);
  await page.context().close();
  void baseURL;
});

test("kps audit prints the audit log as JSON lines", async ({ baseURL }) => {
  const since = new Date(Date.now() - 1000).toISOString();
  const admin = await adminApi(baseURL!);
  const made = await createAccount(admin, "annotator", "cli-audit");
  const kps = path.join(process.cwd(), "bin", "kps.mjs");
  const env = { ...process.env, KPS_URL: baseURL!, KPS_TOKEN: "" };
  const login = await run(process.execPath, [kps, "login", "--username", accounts().coordinator, "--password", PASSWORD], { env });
  const token = /KPS_TOKEN=(\S+)/.exec(login.stdout)![1]!;
  const { stdout } = await run(process.execPath, [kps, "audit", "--since", since], {
    env: { ...env, KPS_TOKEN: token },
    maxBuffer: 64 * 1024 * 1024,
  });
  const lines = stdout.trimEnd().split("\n");
  const entries = lines.map((l) => JSON.parse(l) as AuditJson);
  expect(entries.find((e) => e.action === "user.create" && e.details.username === made)).toMatchObject({
    actorUsername: "e2e-admin",
    targetType: "user",
  });
  const ids = entries.map((e) => e.id);
  expect(ids).toEqual([...ids].sort((a, b) => a - b)); // oldest first
  const bad = await run(process.execPath, [kps, "audit", "--since", "yesterday"], { env: { ...env, KPS_TOKEN: token } }).catch(
    (e: { code: number; stderr: string }) => e,
  );
  expect(bad).toMatchObject({ code: 2, stderr: expect.stringContaining("--since: must be a date") });
  await admin.dispose();
});

test("markup in audited values is shown as text on the audit page", async ({ page }) => {
  const marker = unique("e2e-audit-xss");
  const name = `<img src=x onerror="window.__auditXss=1"> ${marker}`;
  expect((await page.request.post("/api/campaigns", { data: { name } })).status()).toBe(201);
  await page.goto("/people/audit");
  const row = page.getByTestId("audit").getByRole("row").filter({ hasText: marker });
  await expect(row.first()).toContainText("campaign.create");
  await expect(row.first()).toContainText('<img src=x onerror="window.__auditXss=1">'); // as text, the campaign's name
  await expect(page.getByTestId("audit").locator("img")).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __auditXss?: number }).__auditXss)).toBeUndefined();
  const bad = await page.request.get("/api/audit?cursor=1%20or%201=1&since=%27);DROP%20TABLE%20audit_log;--");
  expect(bad.status()).toBe(422);
  expect((await bad.json()).error.details.problems.map((p: { field: string }) => p.field).sort()).toEqual(["cursor", "since"]);
});

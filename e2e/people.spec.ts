import { expect, request, test, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { acceptInvite, accounts, createAccount, PASSWORD, storageStatePath, unique } from "./fixtures";
import { screenshotPath } from "./screenshots";
import { seriousViolations } from "./axe";

/** No cookies: a browser or API client that nobody signed in (the spec's default is the coordinator). */
const noOne = { cookies: [], origins: [] };

interface UserJson {
  id: number;
  username: string;
  role: string;
  hasPassword: boolean;
}

async function userNamed(api: APIRequestContext, username: string): Promise<UserJson> {
  const res = await api.get(`/api/users?q=${encodeURIComponent(username)}`);
  expect(res.status()).toBe(200);
  const user = ((await res.json()) as { users: UserJson[] }).users.find((u) => u.username === username);
  expect(user, `user ${username}`).toBeDefined();
  return user!;
}

/** Signs in through the sign-in form of a fresh browser context; returns its page on the home it lands on. */
async function signInFresh(browser: Browser, username: string, password = PASSWORD): Promise<Page> {
  const context = await browser.newContext({ storageState: noOne });
  const page = await context.newPage();
  await page.goto("/");
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  return page;
}

/** Calls GET /api/me with nothing but a bearer token. */
async function meWithToken(baseURL: string, token: string): Promise<{ status: number; body: unknown }> {
  const api = await request.newContext({ baseURL, storageState: noOne, extraHTTPHeaders: { authorization: `Bearer ${token}` } });
  const res = await api.get("/api/me");
  const result = { status: res.status(), body: await res.json() };
  await api.dispose();
  return result;
}

const usersForm = (page: Page) => page.getByRole("form", { name: "Create a user" });
const inviteForm = (page: Page) => page.getByRole("form", { name: "Create an invite link" });

test.use({ storageState: storageStatePath("coordinator"), viewport: { width: 1280, height: 900 } });

test("the top bar leads a coordinator to People", async ({ page }) => {
  await page.goto("/campaigns");
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Campaigns" })).toHaveAttribute("href", "/campaigns");
  await nav.getByRole("link", { name: "People" }).click();
  await expect(page).toHaveURL(/\/people$/);
  await expect(page.getByRole("heading", { name: "People", level: 1 })).toBeVisible();
  for (const section of ["Users", "Invite links", "Campaign membership", "API tokens"]) {
    await expect(page.getByRole("heading", { name: section, level: 2 })).toBeVisible();
  }
  // The list is paged, newest first: a search finds an older account.
  const search = page.getByRole("search", { name: "Users" });
  await search.getByLabel("Search users").fill(accounts().coordinator);
  await search.getByRole("button", { name: "Search" }).click();
  await expect(page.getByRole("table", { name: "Users" }).getByRole("cell", { name: accounts().coordinator, exact: true })).toBeVisible();
});

test("a coordinator creates an annotator with a password, who then signs in", async ({ page, browser }) => {
  const username = unique("e2e-people-ann");
  await page.goto("/people");
  const form = usersForm(page);

  // The server's field problems show beside the fields they name.
  await form.getByLabel("Username").fill("x");
  await form.getByLabel("Password").fill("short");
  await form.getByRole("button", { name: "Create user" }).click();
  await expect(page.locator("#new-user-username-error")).toHaveText("must be at least 2 characters");
  await expect(form.getByLabel("Username")).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator("#new-user-password-error")).toHaveText("must be at least 8 characters");
  await expect(form.getByLabel("Password")).toHaveAttribute("aria-invalid", "true");

  await form.getByLabel("Username").fill(username);
  await form.getByLabel("Role").selectOption("annotator");
  await form.getByLabel("Password").fill(PASSWORD);
  await form.getByRole("button", { name: "Create user" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Created annotator ${username}.` })).toBeVisible();
  await expect(page.getByLabel(/^Invite link for/)).toHaveCount(0);
  await expect(form.getByLabel("Username")).toHaveValue("");
  await expect(form.getByLabel("Username")).not.toHaveAttribute("aria-invalid", "true");

  const row = page
    .getByRole("table", { name: "Users" })
    .getByRole("row")
    .filter({ has: page.getByRole("cell", { name: username, exact: true }) });
  await expect(row.getByRole("cell")).toHaveText([username, "annotator", "set", /^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/, "active", /Disable/]);
  expect(await userNamed(page.request, username)).toMatchObject({ role: "annotator", hasPassword: true });

  // A taken name (in any letter case) is named on the username field.
  await form.getByLabel("Username").fill(username.toUpperCase());
  await form.getByRole("button", { name: "Create user" }).click();
  await expect(page.locator("#new-user-username-error")).toContainText("is taken");

  const annotator = await signInFresh(browser, username);
  await expect(annotator).toHaveURL(/\/annotate$/);
  // Annotators get no coordinator navigation, and no People page.
  await expect(annotator.getByRole("navigation", { name: "Main" })).toHaveCount(0);
  await annotator.goto("/people");
  await expect(annotator.getByRole("heading", { name: "Not allowed" })).toBeVisible();
  await expect(annotator.getByRole("form", { name: "Create a user" })).toHaveCount(0);
  await annotator.context().close();
});

test("a user created without a password gets an invite link that sets it", async ({ page, browser }) => {
  const username = unique("e2e-people-coord");
  await page.goto("/people");
  const form = usersForm(page);
  await form.getByLabel("Username").fill(username);
  await form.getByLabel("Role").selectOption("coordinator");
  await form.getByRole("button", { name: "Create user" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Created coordinator ${username} without a password.` })).toBeVisible();
  const link = page.getByLabel(`Invite link for ${username}`, { exact: true });
  await expect(link).toHaveValue(/\/invite\/\S+$/);
  await expect(page.getByRole("button", { name: `Copy invite link for ${username}` })).toBeVisible();
  const url = await link.inputValue();
  await expect(page.getByRole("table", { name: "Users" }).getByRole("row").filter({ hasText: username })).toContainText("not set yet");
  expect(await userNamed(page.request, username)).toMatchObject({ role: "coordinator", hasPassword: false });

  // Accepted in a browser nobody is signed in to.
  const context = await browser.newContext({ storageState: noOne });
  const guest = await context.newPage();
  await acceptInvite(guest, url, { role: "coordinator", username });
  await context.close();

  const invited = await signInFresh(browser, username);
  await expect(invited).toHaveURL(/\/campaigns$/);
  await invited.context().close();
  expect(await userNamed(page.request, username)).toMatchObject({ hasPassword: true });
});

test("an invite link is created with its expiry, shown once, and works (typed and submitted from the keyboard)", async ({
  page,
  browser,
}) => {
  await page.goto("/people");
  const form = inviteForm(page);

  // A bad expiry is named beside its field.
  await form.getByLabel("Expires after (hours)").fill("0");
  await form.getByLabel("Expires after (hours)").press("Enter");
  await expect(page.locator("#invite-expiresInHours-error")).toBeVisible();
  await expect(form.getByLabel("Expires after (hours)")).toHaveAttribute("aria-invalid", "true");

  // Keyboard: choose the role, type the hours, submit with Enter.
  await form.getByLabel("Role").focus();
  await form.getByLabel("Role").selectOption("annotator");
  await page.keyboard.press("Tab");
  await expect(form.getByLabel("Expires after (hours)")).toBeFocused();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type("2");
  const before = Date.now();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status").filter({ hasText: "Invite link for a new annotator created." })).toBeVisible();
  await expect(form.getByLabel("Expires after (hours)")).not.toHaveAttribute("aria-invalid", "true");
  const link = page.getByLabel("Invite link", { exact: true });
  await expect(link).toHaveValue(/\/invite\/\S+$/);
  const url = await link.inputValue();
  const expires = Date.parse((await page.locator("#invite-link-hint time").getAttribute("datetime"))!);
  expect(expires).toBeGreaterThan(before + 2 * 3600_000 - 60_000);
  expect(expires).toBeLessThan(Date.now() + 2 * 3600_000 + 60_000);
  await expect(page.locator("#invite-link-hint")).toContainText("not shown again");
  await page.screenshot({ path: screenshotPath("people-invite.png"), fullPage: true });

  // Shown once: a reload has no link.
  await page.reload();
  await expect(page.getByLabel("Invite link", { exact: true })).toHaveCount(0);
  expect(await page.content()).not.toContain(new URL(url).pathname);

  // The newcomer chooses a username through the link.
  const newcomer = unique("e2e-people-link");
  const context = await browser.newContext({ storageState: noOne });
  const guest = await context.newPage();
  await guest.goto(new URL(url).pathname);
  await expect(guest.getByText("You are invited as annotator")).toBeVisible();
  await guest.getByLabel("Username").fill(newcomer);
  await guest.getByLabel("Password", { exact: false }).first().fill(PASSWORD);
  await guest.getByLabel("Repeat the password").fill(PASSWORD);
  await guest.getByRole("button", { name: "Create my account" }).click();
  await guest.waitForURL(/\/annotate$/);
  await context.close();
  expect(await userNamed(page.request, newcomer)).toMatchObject({ role: "annotator", hasPassword: true });
});

test("campaign membership: only one annotator, saved and reported by the API", async ({ page }) => {
  const name = unique("e2e-people-campaign");
  const created = await page.request.post("/api/campaigns", { data: { name } });
  expect(created.status()).toBe(201);
  const campaignId = ((await created.json()) as { campaign: { id: number } }).campaign.id;
  const chosen = await createAccount(page.request, "annotator", "people-member");
  const other = await createAccount(page.request, "annotator", "people-other");
  const chosenId = (await userNamed(page.request, chosen)).id;

  await page.goto("/people");
  await page.getByLabel("Campaign", { exact: true }).selectOption({ label: name });
  const form = page.getByRole("form", { name: `Members of ${name}` });
  const all = form.getByLabel("All annotators (present and future)");
  await expect(all).toBeChecked();
  // While every annotator works on it, there is nobody to choose.
  const finder = form.getByRole("search", { name: "Annotators to add" });
  await expect(finder).toHaveCount(0);

  // Annotators are found by name and added one by one (no checkbox per account).
  await all.uncheck();
  await finder.getByLabel("Find annotators to add").fill(chosen);
  await finder.getByLabel("Find annotators to add").press("Enter");
  await form.getByRole("button", { name: `Add ${chosen}` }).click();
  await expect(form.getByRole("button", { name: `${chosen} is chosen` })).toBeDisabled();
  await expect(form.getByRole("checkbox", { name: chosen, exact: true })).toBeChecked();
  await expect(form.getByRole("checkbox", { name: other, exact: true })).toHaveCount(0);
  await expect(form.getByRole("group", { name: "Chosen annotators (1)" })).toBeVisible();
  await form.getByRole("button", { name: "Save members" }).click();
  await expect(form.getByRole("status")).toHaveText(`Saved: 1 annotator works on ${name}.`);

  const stored = await page.request.get(`/api/campaigns/${campaignId}`);
  expect(stored.status()).toBe(200);
  expect((await stored.json()).campaign).toMatchObject({ id: campaignId, allAnnotators: false, memberIds: [chosenId] });

  // A reload shows what is stored.
  await page.reload();
  await page.getByLabel("Campaign", { exact: true }).selectOption({ label: name });
  await expect(form.getByLabel("All annotators (present and future)")).not.toBeChecked();
  await expect(form.getByRole("checkbox", { name: chosen, exact: true })).toBeChecked();
  await expect(form.getByRole("checkbox", { name: other, exact: true })).toHaveCount(0);

  // Unticking leaves them out at the next save.
  await form.getByRole("checkbox", { name: chosen, exact: true }).uncheck();
  await expect(form.getByRole("group", { name: "Chosen annotators (0)" })).toBeVisible();
  await page.screenshot({ path: screenshotPath("people-membership.png"), fullPage: true });
  await form.getByRole("button", { name: "Save members" }).click();
  await expect(form.getByRole("status")).toHaveText(`Saved: no annotator works on ${name}.`);
});

test("an API token is shown once, works as a bearer token, and stops working once revoked", async ({ page, baseURL }) => {
  const name = unique("e2e-people-token");
  await page.goto("/people");

  // A blank name is named beside the field.
  await page.getByLabel("Token name").fill("   ");
  await page.getByRole("button", { name: "Create token" }).click();
  await expect(page.locator("#token-name-error")).toHaveText("is required");

  await page.getByLabel("Token name").fill(name);
  await page.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Token “${name}” created.` })).toBeVisible();
  await expect(page.getByText("Copy it now: it is not shown again.")).toBeVisible();
  const secretField = page.getByLabel("New API token", { exact: true });
  await expect(secretField).toHaveValue(/^kps_\S+$/);
  await expect(page.getByRole("button", { name: "Copy new API token" })).toBeVisible();
  const secret = await secretField.inputValue();

  const table = page.getByRole("table", { name: "API tokens" });
  const row = table.getByRole("row").filter({ has: page.getByRole("cell", { name, exact: true }) });
  await expect(row).toContainText("active");
  await expect(row).toContainText("never");
  await expect(row).not.toContainText(secret);
  await page.screenshot({ path: screenshotPath("people-token.png"), fullPage: true });

  const me = await meWithToken(baseURL!, secret);
  expect(me).toMatchObject({ status: 200, body: { user: { username: accounts().coordinator, role: "coordinator" }, via: "token" } });

  // Shown once: after a reload the page has no secret, and the token shows its last use.
  await page.reload();
  await expect(page.getByLabel("New API token", { exact: true })).toHaveCount(0);
  expect(await page.content()).not.toContain(secret);
  await expect(row).not.toContainText("never");

  // Revoking asks first; Cancel keeps the token.
  await row.getByRole("button", { name: `Revoke ${name}` }).click();
  await expect(row.getByRole("button", { name: `Keep ${name}` })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(row.getByRole("button", { name: `Revoke ${name}` })).toBeVisible();
  expect((await meWithToken(baseURL!, secret)).status).toBe(200);

  await row.getByRole("button", { name: `Revoke ${name}` }).click();
  await row.getByRole("button", { name: `Yes, revoke ${name}` }).click();
  await expect(row).toContainText("revoked");
  await expect(row.getByRole("button")).toHaveCount(0);

  const after = await meWithToken(baseURL!, secret);
  expect(after).toMatchObject({ status: 401, body: { error: { code: "unauthorized" } } });
  const listed = (
    (await (await page.request.get("/api/tokens")).json()) as { tokens: { name: string; revokedAt: string | null }[] }
  ).tokens.find((t) => t.name === name);
  expect(listed?.revokedAt).not.toBeNull();
});

test("accessibility: no serious or critical axe violation on the People page", async ({ page }) => {
  const name = unique("e2e-people-axe");
  const created = await page.request.post("/api/campaigns", { data: { name } });
  expect(created.status()).toBe(201);
  await page.goto("/people");
  // With every part open: a created invite link, a token secret, a campaign's members.
  await inviteForm(page).getByRole("button", { name: "Create invite link" }).click();
  await expect(page.getByLabel("Invite link", { exact: true })).toBeVisible();
  await page.getByLabel("Token name").fill(name);
  await page.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByLabel("New API token", { exact: true })).toBeVisible();
  await page.getByLabel("Campaign", { exact: true }).selectOption({ label: name });
  await expect(page.getByLabel("All annotators (present and future)")).toBeVisible();
  const violations = await seriousViolations(page);
  expect(violations).toEqual([]);
  await page.screenshot({ path: screenshotPath("people.png"), fullPage: true });
});

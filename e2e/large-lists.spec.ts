import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test, type Browser, type BrowserContext, type Locator, type Page } from "@playwright/test";
import { sql } from "drizzle-orm";
import { openDatabase } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { seedLargeCampaign } from "@/test/large-campaign";
import { ADMIN, PASSWORD, startApp, tempDataDir, waitHealthy, type AppProcess } from "./fixtures";
import { seriousViolations } from "./axe";

// 10,000 accounts and 2,000 campaigns change nothing a person notices: the People page, the
// campaign list and an annotator's queue show a page, search finds the oldest entry (on the last
// page), and the CLI still lists everything. The same for a campaign whose 10,000 annotators all
// have a standing (the annotators table on its page), with 120 batches, and 120 API tokens. The data goes straight into the data directory of an
// app of this spec's own (embedded database) before it starts: generate_series, a second or two.

const USERS = 10_000;
const CAMPAIGNS = 2_000;
const BATCHES = 120;
const TOKENS = 120;
const PORT = Number(process.env.KPS_E2E_PORT || 3100) + 73;
const ANNOTATOR = "queue-annotator";
const run = promisify(execFile);

let app: AppProcess;
let dataDir: string;
let membersCampaignId = 0;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dataDir = tempDataDir();
  const handle = await openDatabase({ dataDir });
  try {
    await migrateDatabase(handle);
    await handle.db.execute(sql`
      insert into users (username, role, pseudonym)
      select 'big-user-' || lpad(i::text, 5, '0'), 'annotator', 'big-pseudonym-' || i from generate_series(1, ${USERS}) i`);
    // The oldest campaign: every big-user a member with a standing, a third with tallies; its batches; tokens.
    membersCampaignId = await seedLargeCampaign(handle.db, "big", { batches: BATCHES, tokens: TOKENS });
    await handle.db.execute(sql`
      insert into campaigns (name) select 'big-campaign-' || lpad(i::text, 4, '0') from generate_series(1, ${CAMPAIGNS}) i`);
  } finally {
    await handle.close();
  }
  app = startApp(PORT, dataDir, { KPS_DEMO: "0", KPS_ADMIN_USERNAME: ADMIN.username, KPS_ADMIN_PASSWORD: ADMIN.password });
  await waitHealthy(app.url);
});

test.afterAll(async () => {
  await app?.stop();
  if (dataDir) fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
});

/** A browser context on this spec's app, signed in as `username`. */
async function signedIn(
  browser: Browser,
  username: string,
  password: string,
  viewport = { width: 1280, height: 900 },
): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: app.url, storageState: { cookies: [], origins: [] }, viewport });
  const res = await context.request.post("/api/auth/sign-in", { data: { username, password } });
  expect(res.status(), await res.text()).toBe(200);
  return context;
}

/** Opens `url` and waits for `ready` (load times are for bench/, not for a test). */
async function openList(page: Page, url: string, ready: () => Promise<void>): Promise<void> {
  await page.goto(url);
  await ready();
}

async function expectNoSeriousAxeViolation(page: Page): Promise<void> {
  expect(await seriousViolations(page)).toEqual([]);
}

/** The page without serious axe violations at both widths (desktop, then phone); then its context closed. */
async function checkBothWidthsAndClose(page: Page, context: BrowserContext): Promise<void> {
  await expectNoSeriousAxeViolation(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSeriousAxeViolation(page);
  await context.close();
}

/** Submits a list's search field with Enter. */
async function submitSearch(field: Locator, text: string): Promise<void> {
  await field.fill(text);
  await field.press("Enter");
}

/**
 * Searches with the field `field` of the search landmark `search` for `text`, then expects `rows`
 * to count `count` and `table` to hold a cell that reads `text` exactly.
 */
async function expectSearchFinds(
  page: Page,
  search: { landmark: string; field: string },
  text: string,
  table: Locator,
  rows: Locator,
  count: number,
): Promise<void> {
  const landmark = page.getByRole("search", { name: search.landmark });
  await submitSearch(landmark.getByLabel(search.field), text);
  await expect(rows).toHaveCount(count);
  await expect(table.getByRole("cell", { name: text, exact: true })).toBeVisible();
}

test("the People page shows a page of accounts, finds the oldest, and chooses members by search", async ({ browser }) => {
  test.setTimeout(120_000); // four lists over 10,000 accounts and 2,000 campaigns, then axe on the whole page: near 60 s on 2 cores
  const context = await signedIn(browser, ADMIN.username, ADMIN.password);
  const page = await context.newPage();
  const users = page.getByRole("table", { name: "Users" });
  await openList(page, "/people", () => expect(users).toBeVisible());
  // 50 rows and the header, whatever the number of accounts.
  await expect(users.getByRole("row")).toHaveCount(51);
  await expect(users.getByRole("cell", { name: `big-user-${String(USERS).padStart(5, "0")}`, exact: true })).toBeVisible();

  // Pages by keyboard: the next page, then back.
  const pager = page.getByRole("navigation", { name: "Pages of users" });
  await pager.getByRole("button", { name: "Next page →" }).focus();
  await page.keyboard.press("Enter");
  await expect(pager).toContainText("Page 2");
  await expect(users.getByRole("cell", { name: `big-user-${String(USERS - 50).padStart(5, "0")}`, exact: true })).toBeVisible();
  await pager.getByRole("button", { name: "← Previous page" }).click();
  await expect(pager).toContainText("Page 1");

  // The oldest account, on the last page, is one search away.
  await expectSearchFinds(page, { landmark: "Users", field: "Search users" }, "big-user-00001", users, users.getByRole("row"), 2);

  // Membership of the newest campaign: search and add, never 10,000 checkboxes.
  const newest = `big-campaign-${String(CAMPAIGNS).padStart(4, "0")}`;
  await page.getByLabel("Campaign", { exact: true }).selectOption({ label: newest });
  const form = page.getByRole("form", { name: `Members of ${newest}` });
  await form.getByLabel("All annotators (present and future)").uncheck();
  const finder = form.getByRole("search", { name: "Annotators to add" });
  await finder.getByLabel("Find annotators to add").fill("big-user-0000");
  await finder.getByRole("button", { name: "Search" }).click();
  await expect(form.getByRole("list", { name: "Annotators found" }).getByRole("listitem")).toHaveCount(9);
  await form.getByRole("button", { name: "Add big-user-00001" }).click();
  await form.getByRole("button", { name: "Save members" }).click();
  await expect(form.getByRole("status")).toHaveText(`Saved: 1 annotator works on ${newest}.`);
  expect(await form.getByRole("checkbox").count()).toBeLessThanOrEqual(60);
  await expect(form.getByRole("checkbox", { name: "big-user-00001", exact: true })).toBeChecked();

  // An older campaign, found by name.
  const campaignSearch = page.getByRole("search", { name: "Campaigns" });
  await submitSearch(campaignSearch.getByLabel("Find a campaign"), "big-campaign-0001");
  await page.getByLabel("Campaign", { exact: true }).selectOption({ label: "big-campaign-0001" });
  await expect(page.getByRole("form", { name: "Members of big-campaign-0001" })).toBeVisible();

  await checkBothWidthsAndClose(page, context);
});

test("the campaign list shows a page of campaigns, pages by keyboard and finds the oldest", async ({ browser }) => {
  const context = await signedIn(browser, ADMIN.username, ADMIN.password);
  const page = await context.newPage();
  const table = page.getByTestId("campaigns");
  await openList(page, "/campaigns", () => expect(table).toBeVisible());
  await expect(table.getByRole("row")).toHaveCount(51);

  const next = page.getByRole("navigation", { name: "Pages of campaigns" }).getByRole("link", { name: "Next page →" });
  await next.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/after=\d+/);
  await expect(table.getByRole("link", { name: `big-campaign-${String(CAMPAIGNS - 50).padStart(4, "0")}`, exact: true })).toBeVisible();

  await submitSearch(page.getByLabel("Search campaigns"), "big-campaign-0001");
  await expect(table.getByRole("row")).toHaveCount(2);
  await expect(table.getByRole("link", { name: "big-campaign-0001", exact: true })).toBeVisible();
  await checkBothWidthsAndClose(page, context);
});

test("an annotator's queue shows a page of their 2,000 campaigns and finds the oldest", async ({ browser }) => {
  const admin = await signedIn(browser, ADMIN.username, ADMIN.password);
  expect((await admin.request.post("/api/users", { data: { username: ANNOTATOR, role: "annotator", password: PASSWORD } })).status()).toBe(
    201,
  );
  await admin.close();
  const context = await signedIn(browser, ANNOTATOR, PASSWORD, { width: 390, height: 844 });
  const page = await context.newPage();
  const list = page.getByRole("list", { name: "Your campaigns" });
  await openList(page, "/annotate", () => expect(list).toBeVisible());
  await expect(list.getByRole("listitem")).toHaveCount(50);
  await submitSearch(page.getByLabel("Search your campaigns"), "big-campaign-0001");
  await expect(list.getByRole("listitem")).toHaveCount(1);
  await expect(list).toContainText("big-campaign-0001");
  await expectNoSeriousAxeViolation(page);
  await context.close();
});

test("the CLI still lists every account and every campaign", async ({ browser }) => {
  const admin = await signedIn(browser, ADMIN.username, ADMIN.password);
  const token = (
    (await (await admin.request.post("/api/tokens", { data: { name: "large-lists" } })).json()) as { token: { token: string } }
  ).token.token;
  await admin.close();
  const kps = async (...args: string[]) => {
    const { stdout } = await run(process.execPath, [path.join(process.cwd(), "bin", "kps.mjs"), "--url", app.url, ...args], {
      env: { ...process.env, KPS_TOKEN: token },
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout.trim().split("\n");
  };
  const users = await kps("user", "list");
  expect(users.filter((l) => /\tbig-user-\d{5}\t/.test(l))).toHaveLength(USERS);
  expect(new Set(users.map((l) => l.split("\t")[0])).size).toBe(users.length);
  expect(users.some((l) => l.includes(`\t${ADMIN.username}\tcoordinator`))).toBe(true);
  const campaigns = await kps("campaign", "list");
  expect(campaigns).toHaveLength(CAMPAIGNS + 1); // and big-members
  expect(new Set(campaigns.map((l) => l.split("\t")[1])).size).toBe(CAMPAIGNS + 1);
  expect(await kps("campaign", "list", "--search", "big-campaign-0001")).toEqual([
    expect.stringMatching(/^\d+\tbig-campaign-0001\t0 batches/),
  ]);

  // Tokens (a header line, then one each), batches and the 10,000 annotators of the status, all of them.
  const tokens = await kps("token", "list", "--search", "big-token-");
  expect(tokens.slice(1).filter((l) => /\tbig-token-\d{3}\t/.test(l))).toHaveLength(TOKENS);
  const batches = await kps("batch", "list", "--campaign", String(membersCampaignId));
  expect(batches).toHaveLength(BATCHES);
  expect(batches.at(-1)).toMatch(/\tbig-batch-001\t/);
  const status = await kps("campaign", "status", "--campaign", String(membersCampaignId));
  const annotators = status.filter((l) => l.startsWith("annotator\t"));
  expect(annotators).toHaveLength(USERS);
  expect(new Set(annotators.map((l) => l.split("\t")[1])).size).toBe(USERS);
});

test("a campaign with 10,000 annotators shows 50 of them, sorts and searches them on the server, and keeps its page through the refresh", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const context = await signedIn(browser, ADMIN.username, ADMIN.password);
  const page = await context.newPage();
  const table = page.getByTestId("annotators");
  const rows = table.locator("tbody tr");
  await openList(page, `/campaigns/${membersCampaignId}`, () => expect(table).toBeVisible());
  await expect(rows).toHaveCount(50);
  await expect(rows.first()).toHaveAttribute("data-username", "big-user-00001");

  // Sorted on the server: the most judgments first (ties by user id), then the fewest.
  const judgments = table.getByRole("button", { name: "Judgments" });
  await judgments.click();
  await expect(table.getByRole("columnheader", { name: "Judgments" })).toHaveAttribute("aria-sort", "descending");
  await expect(rows.first()).toHaveAttribute("data-username", "big-user-00003");
  await judgments.click();
  await expect(rows.first()).toHaveAttribute("data-username", "big-user-00001");
  await expect(rows).toHaveCount(50);

  // The next page stays on screen through the 5 s refresh.
  const pager = page.getByRole("navigation", { name: "Pages of annotators" });
  const firstOfPageOne = await rows.first().getAttribute("data-username");
  await pager.getByRole("button", { name: "Next page →" }).click();
  await expect(pager).toContainText("Page 2");
  await expect(rows.first()).not.toHaveAttribute("data-username", firstOfPageOne!);
  const firstOfPageTwo = await rows.first().getAttribute("data-username");
  const refreshed = (r: { url(): string }) =>
    r.url().includes(`/api/campaigns/${membersCampaignId}/annotators?`) && r.url().includes("after=");
  await page.waitForResponse(refreshed); // the refresh of page 2 …
  await page.waitForResponse(refreshed, { timeout: 15_000 }); // … and the next one
  await expect(pager).toContainText("Page 2");
  await expect(rows.first()).toHaveAttribute("data-username", firstOfPageTwo!);
  await expect(rows).toHaveCount(50);

  // Search by username, on the server.
  const search = page.getByRole("search", { name: "Annotators" });
  await submitSearch(search.getByLabel("Search annotators"), "big-user-09999");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute("data-username", "big-user-09999");

  // The batches: a page of 50, newest first; the oldest one search away.
  const batches = page.getByRole("table", { name: "Batches" });
  await expect(batches.locator("tbody tr")).toHaveCount(50);
  await expect(batches.getByRole("cell", { name: `big-batch-${BATCHES}`, exact: true })).toBeVisible();
  await expectSearchFinds(page, { landmark: "Batches", field: "Search batches" }, "big-batch-001", batches, batches.locator("tbody tr"), 1);

  await checkBothWidthsAndClose(page, context);
});

test("the People page shows a page of API tokens and finds the oldest", async ({ browser }) => {
  const context = await signedIn(browser, ADMIN.username, ADMIN.password);
  const page = await context.newPage();
  const tokens = page.getByRole("table", { name: "API tokens" });
  await page.goto("/people");
  await expect(tokens.locator("tbody tr")).toHaveCount(50);
  const pager = page.getByRole("navigation", { name: "Pages of API tokens" });
  await pager.getByRole("button", { name: "Next page →" }).click();
  await expect(pager).toContainText("Page 2");
  await expectSearchFinds(page, { landmark: "API tokens", field: "Search tokens" }, "big-token-001", tokens, tokens.locator("tbody tr"), 1);
  await context.close();
});

test("list options from outside are checked: 422 naming the field; search text is only text", async ({ browser }) => {
  const admin = await signedIn(browser, ADMIN.username, ADMIN.password);
  const long = `q=${"x".repeat(201)}`;
  // Each list route with the bad parameters it refuses; the problem names the parameter given.
  const refused: [string, string[]][] = [
    ["/api/users", ["limit=0", "limit=100000", "after=1%20or%201=1", "role=admin", "memberOf=-3"]],
    ["/api/campaigns", [long, "after=abc"]],
    ["/api/tokens", ["limit=-5", "after=1%20or%201=1", long]],
    [`/api/campaigns/${membersCampaignId}/batches`, ["limit=100000", "after=-1", long]],
    [`/api/campaigns/${membersCampaignId}/annotators`, ["limit=-1", "limit=100000", "after=abc", long, "sort=password_hash", "dir=up"]],
  ];
  for (const [route, query, field] of refused.flatMap(([route, queries]) => queries.map((q) => [route, q, q.slice(0, q.indexOf("="))]))) {
    const res = await admin.request.get(`${route}?${query}`);
    expect(res.status(), `${route}?${query}`).toBe(422);
    const body = (await res.json()) as { error: { code: string; details: { problems: { field: string }[] } } };
    expect(body.error.code).toBe("invalid");
    expect(body.error.details.problems.map((p) => p.field)).toEqual([field]);
  }
  for (const q of ["%", "_", "'); drop table users; --", "<script>alert(1)</script>"]) {
    const res = await admin.request.get(`/api/users?q=${encodeURIComponent(q)}`);
    expect(res.status(), q).toBe(200);
    expect(((await res.json()) as { users: unknown[] }).users).toEqual([]);
  }
  const annotator = await signedIn(browser, ANNOTATOR, PASSWORD);
  expect((await annotator.request.get("/api/users?q=big")).status()).toBe(403);
  expect((await annotator.request.get("/api/campaigns?q=big")).status()).toBe(403);
  expect((await annotator.request.get("/api/tokens?q=big")).status()).toBe(403);
  expect((await annotator.request.get(`/api/campaigns/${membersCampaignId}/annotators?q=big`)).status()).toBe(403);
  expect((await annotator.request.get(`/api/campaigns/${membersCampaignId}/batches?q=big`)).status()).toBe(403);
  await annotator.close();
  await admin.close();
});

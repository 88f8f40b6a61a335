import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { axeBuilder } from "./axe";
import { expect, test, type Page } from "@playwright/test";
import { accounts, adminApi, PASSWORD, signedInApi, storageStatePath, unique } from "./fixtures";

// Issue 16, deliverable 2: the text index built through the import page's button, and the search
// and page routes as an annotator, hostile parameters included.

/** Serious or critical axe violations of the page at each width (desktop, then phone). */
async function axeAtWidths(page: Page, widths: number[]): Promise<string[]> {
  const found: string[] = [];
  for (const width of widths) {
    await page.setViewportSize({ width, height: width < 500 ? 844 : 800 });
    const { violations } = await axeBuilder(page).analyze();
    for (const v of violations)
      if (v.impact === "serious" || v.impact === "critical")
        found.push(`${width}px ${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  }
  return found;
}

test.use({ storageState: storageStatePath("coordinator") });

test("a coordinator builds the text index on the import page; an annotator then searches by title and text and reads the page", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const admin = await adminApi(baseURL!);
  const word = unique("glimmerwort").replace("-", "");
  const id = unique("search-page");
  const line = {
    wikipedia_id: id,
    wikipedia_title: `Ölberg ${word}`,
    text: [`Ölberg ${word}\n`, "Section::::History.\n", `The ${word} bell of Ölberg was cast in 1613 by travelling founders.\n`],
  };
  const imported = await admin.post("/api/knowledge?name=search.jsonl", {
    data: Buffer.from(JSON.stringify(line) + "\n"),
    headers: { "content-type": "application/x-ndjson" },
  });
  expect(imported.status(), await imported.text()).toBe(201);
  const campaign = await admin.post("/api/campaigns", { data: { name: unique("search campaign") } });
  const campaignId: number = (await campaign.json()).campaign.id;

  await page.goto(`/campaigns/${campaignId}/import`);
  const panel = page.getByRole("region", { name: "Text index" });
  await expect(panel).toBeVisible();
  expect(await axeAtWidths(page, [1280, 390])).toEqual([]);
  await panel.getByRole("button", { name: /(Build|Update) text index/ }).click();
  await expect(panel.getByTestId("text-index-status")).toContainText("Up to date.", { timeout: 60_000 });
  await expect(panel.getByRole("button", { name: "Build text index" })).toBeEnabled();

  const annotator = await signedInApi(baseURL!, accounts().annotator);
  const byTitle = await annotator.get(`/api/knowledge/search?q=${encodeURIComponent(`olberg ${word}`)}&mode=title`);
  expect(byTitle.status(), await byTitle.text()).toBe(200);
  expect((await byTitle.json()).results[0]).toMatchObject({
    wikipediaId: id,
    paragraphId: null,
    titleSegments: [{ text: `Ölberg ${word}`, match: true }],
  });
  const byText = await annotator.get(`/api/knowledge/search?q=${encodeURIComponent(`When was the ${word} bell cast?`)}&mode=text&limit=5`);
  expect(byText.status(), await byText.text()).toBe(200);
  const top = (await byText.json()).results[0];
  expect(top).toMatchObject({ wikipediaId: id, paragraphId: 2, section: "Section::::History." });
  expect(top.snippet.filter((s: { match: boolean }) => s.match).map((s: { text: string }) => s.text)).toEqual([word, "bell", "cast"]);
  const read = await annotator.get(`/api/knowledge/pages/${encodeURIComponent(id)}`);
  expect(read.status()).toBe(200);
  expect((await read.json()).paragraphs).toHaveLength(3);
  await Promise.all([annotator.dispose(), admin.dispose()]);
});

test("hostile search and page parameters: 422 naming the parameter or 404, never a 500", async ({ baseURL }) => {
  const api = await signedInApi(baseURL!, accounts().annotator);
  const bad: [string, string][] = [
    [`/api/knowledge/search?q=${"x".repeat(201)}`, "q"],
    ["/api/knowledge/search?q=", "q"],
    ["/api/knowledge/search?q=a&mode=fuzzy", "mode"],
    ["/api/knowledge/search?q=a&limit=0", "limit"],
    ["/api/knowledge/search?q=a&limit=51", "limit"],
    ["/api/knowledge/search?q=a&limit=1.5", "limit"],
    ["/api/knowledge/search?q=a&limit=ten", "limit"],
    ["/api/knowledge/search?q=%C3%A9%00", "q"],
    ["/api/knowledge/pages/a%00b", "wikipediaId"],
    [`/api/knowledge/pages/${"9".repeat(201)}`, "wikipediaId"],
  ];
  for (const [path, field] of bad) {
    const res = await api.get(path);
    const body = await res.text();
    expect(res.status(), `${path}: ${body}`).toBe(422);
    expect(JSON.parse(body).error.details.problems[0].field, path).toBe(field);
  }
  for (const q of [
    "'&|!():*<->",
    "a & | b",
    "!!!",
    "(((",
    "foo:*",
    "'; DROP TABLE pages; --",
    "<->",
    "\\",
    "%_%",
    "\u202e😀",
    "a\u0001b\u0002",
  ]) {
    for (const mode of ["title", "text"]) {
      const res = await api.get(`/api/knowledge/search?q=${encodeURIComponent(q)}&mode=${mode}`);
      expect([200, 409], `${mode} ${JSON.stringify(q)}: ${res.status()}`).toContain(res.status());
    }
  }
  for (const id of ["..%2F..%2Fetc%2Fpasswd", "%E2%80%AE%F0%9F%98%80", "%C3%A9l%C3%A8ve", "%20"]) {
    const res = await api.get(`/api/knowledge/pages/${id}`);
    expect([404, 422], `${id}: ${res.status()}`).toContain(res.status());
  }
  // The build's one option, as the coordinator who may build: refused before any build starts.
  const admin = await adminApi(baseURL!);
  for (const [query, field] of [
    ["rebuild=yes", "rebuild"],
    ["rebuild=", "rebuild"],
  ]) {
    const res = await admin.post(`/api/knowledge/index?${query}`);
    const body = await res.text();
    expect(res.status(), `${query}: ${body}`).toBe(422);
    expect(JSON.parse(body).error.details.problems[0].field, query).toBe(field);
  }
  await Promise.all([api.dispose(), admin.dispose()]);
});

/** Runs bin/kps.mjs; its exit code and output. */
async function kps(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [path.join(process.cwd(), "bin", "kps.mjs"), ...args], {
      env: { ...process.env, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

test("kps knowledge index builds the index and exits 0 when it is ready; a bad token is refused with a clear message", async ({
  baseURL,
}) => {
  test.setTimeout(120_000);
  const tokenOf = async (username: string) => {
    const login = await kps(["--url", baseURL!, "login", "--username", username, "--password", PASSWORD], { KPS_TOKEN: "" });
    expect(login.code, login.stderr).toBe(0);
    return /^export KPS_TOKEN=(kps_\S+)$/m.exec(login.stdout)![1]!;
  };
  const built = await kps(["knowledge", "index", "--poll", "200"], { KPS_URL: baseURL!, KPS_TOKEN: await tokenOf(accounts().coordinator) });
  expect(built.code, built.stderr).toBe(0);
  expect(built.stdout.trim()).toMatch(/^\d+$/);
  expect(built.stderr).toContain("The text index is ready");
  const refused = await kps(["knowledge", "index"], { KPS_URL: baseURL!, KPS_TOKEN: "kps_made-up-token" });
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toMatch(/^kps: .*token/im);
});

import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { fleissKappa, krippendorffAlphaNominal, verdictProfiles } from "@/lib/metrics/agreement";
import { accounts, ADMIN, adminApi, createAccount, demoFile, judgeAll, signedInApi, storageStatePath, unique } from "./fixtures";
import { screenshotPath } from "./screenshots";
import { seriousViolations } from "./axe";

test.use({ storageState: storageStatePath("coordinator"), viewport: { width: 1280, height: 900 } });

const figure = (page: Page, testId: string) => page.getByTestId("dashboard").getByTestId(testId);

test("coordinator journey: create, import, launch, three annotators judge, live dashboard, question view, pause, export", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(240_000); // the annotators wait for real, so the server-measured medians differ (careful 1 s, slow 2.1 s)
  const admin = await adminApi(baseURL!);
  const name = unique("e2e-journey");
  const since = new Date(Date.now() - 1000);

  // Create the campaign in the UI (gold rule out of the way: these annotators judge by a fixed rule).
  await page.goto("/campaigns");
  await page.getByRole("link", { name: "New campaign" }).click();
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Minimum gold judgments").fill("1000");
  await page.getByLabel("Instructions (Markdown)").fill("# Rules\n\nHighlight the **answer**. <img src=x onerror=alert(1)>");
  await page.getByText("Preview as annotators see it").click();
  await expect(page.locator("form .markdown-body h1")).toHaveText("Rules");
  await expect(page.locator("form .markdown-body img")).toHaveCount(0);
  await page.getByRole("button", { name: "Create campaign" }).click();
  await expect(page).toHaveURL(/\/campaigns\/\d+$/);
  // The instructions are rendered from Markdown; the raw HTML in them is not.
  const dialogs: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await expect(page.locator(".markdown-body h1")).toHaveText("Rules");
  await expect(page.locator(".markdown-body strong")).toHaveText("answer");
  await expect(page.locator(".markdown-body img")).toHaveCount(0);
  const campaignId = Number(/\/campaigns\/(\d+)$/.exec(new URL(page.url()).pathname)![1]);

  // Import the demo files through the import screen, then launch the batch from the campaign page.
  await page.getByRole("link", { name: "Import a batch" }).click();
  await page.getByLabel("Knowledge source (JSONL or .gz)").setInputFiles(demoFile("knowledge.jsonl"));
  await page.getByLabel("Questions (KILT task JSONL)").setInputFiles(demoFile("queries.jsonl"));
  await page.getByLabel("Candidates (retrieval output JSONL)").setInputFiles(demoFile("candidates.jsonl"));
  await page.getByLabel("Batch name").fill("journey batch");
  await page.getByRole("button", { name: "Import", exact: true }).click();
  await page.getByRole("status").getByRole("link", { name: "Back to the campaign" }).click();
  const batchRow = page.getByRole("table", { name: "Batches" }).getByRole("row").filter({ hasText: "journey batch" });
  await batchRow.getByRole("button", { name: "Launch" }).click();
  await expect(batchRow.getByRole("cell").nth(1)).toHaveText("launched");

  // The campaign list shows it running, at 0 %.
  const listed = (await (await page.request.get(`/api/campaigns?q=${encodeURIComponent(name)}`)).json()).campaigns.find(
    (c: { id: number }) => c.id === campaignId,
  );
  expect(listed).toMatchObject({ status: "running", filled: 0 });
  const passages: number = listed.passages;
  expect(passages).toBeGreaterThan(5);
  await expect(figure(page, "slots-filled")).toHaveText(`0 / ${3 * passages}`);
  await expect(figure(page, "slots-open")).toHaveText(String(3 * passages));
  // No judgment yet: the projection is a note at the size of text, not a headline figure over four lines.
  await expect(figure(page, "eta")).toHaveText("not enough recent judgments to project");
  expect(await figure(page, "eta").evaluate((el) => parseFloat(getComputedStyle(el).fontSize))).toBeLessThanOrEqual(16);

  // Three annotators judge every passage (the page stays open: the dashboard must refresh by itself).
  // fast: all sufficient at once; careful: sufficient on passages starting at an even paragraph, in 1 s; slow: nothing sufficient, 2.1 s.
  // Time is the server's (issue 26): the waits are real; what each client claims (1, 3 and 9 s) is a hint no figure reads.
  const [fast, careful, slow] = [
    await createAccount(admin, "annotator", "fast"),
    await createAccount(admin, "annotator", "careful"),
    await createAccount(admin, "annotator", "slow"),
  ];
  const even = (id: number) => id % 2 === 0;
  // The three judge at once (each judges every passage: R = 3), so the test waits for the slow one only.
  const judged = await Promise.all(
    (
      [
        [fast, () => true, 1_000, 0],
        [careful, even, 3_000, 1_000],
        [slow, () => false, 9_000, 2_100],
      ] as const
    ).map(async ([who, rule, ms, takeMs]) => {
      const api = await signedInApi(baseURL!, who);
      try {
        return await judgeAll(api, campaignId, rule, ms, takeMs);
      } finally {
        await api.dispose();
      }
    }),
  );
  for (const each of judged) expect(each).toHaveLength(passages);
  const ids = judged[2]!;

  // Expected figures from the rule: even passages 2 of 3 sufficient (endorsed), odd ones 1 of 3.
  const evens = ids.filter(even).length;
  const odds = passages - evens;
  const cells = [
    { judgments: 3, sufficient: 2, passages: evens },
    { judgments: 3, sufficient: 1, passages: odds },
  ];
  const alpha = krippendorffAlphaNominal(verdictProfiles(cells))!;
  const kappa = fleissKappa(verdictProfiles(cells))!;
  // Which questions end up unanswerable (their gold passage, expected sufficient, not endorsed): from the judgments export.
  const judgmentLines = (await (await page.request.get(`/api/campaigns/${campaignId}/judgments`)).text())
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  expect(judgmentLines).toHaveLength(3 * passages);
  const goldOf = new Map<string, number>(judgmentLines.filter((j) => j.is_gold).map((j) => [j.query_id, j.start_paragraph_id]));
  const unanswerable = [...goldOf.values()].filter((id) => !even(id)).length;
  const questionsWithEven = new Set(judgmentLines.filter((j) => even(j.start_paragraph_id)).map((j) => j.query_id));
  const answered = questionsWithEven.size;

  await expect(figure(page, "slots-filled")).toHaveText(`${3 * passages} / ${3 * passages}`, { timeout: 15_000 });
  await expect(figure(page, "slots-open")).toHaveText("0");
  await expect(figure(page, "slots-claimed")).toHaveText("0");
  await expect(figure(page, "endorsed")).toHaveText(String(evens));
  await expect(figure(page, "answered")).toHaveText(String(answered));
  await expect(figure(page, "unanswerable")).toHaveText(String(unanswerable));
  await expect(figure(page, "alpha")).toHaveText(alpha.toFixed(3));
  await expect(figure(page, "kappa")).toHaveText(kappa.toFixed(3));
  await expect(figure(page, "eta")).toHaveText("done");
  await expect(page.getByTestId("batch-progress").getByRole("row").filter({ hasText: "journey batch" })).toContainText(alpha.toFixed(3));
  await expect(page.locator(".chart")).toBeVisible();

  // The annotators table: agreement with the majority, median seconds, share under 2 s; sortable.
  const annotators = page.getByTestId("annotators");
  const rowOf = (who: string) => annotators.locator(`tr[data-username="${who}"]`);
  const pct = (n: number) => `${Math.round((100 * n) / passages)} %`;
  await expect(rowOf(fast).getByRole("cell").nth(4)).toHaveText(pct(evens)); // agrees on the endorsed (even) passages
  await expect(rowOf(careful).getByRole("cell").nth(4)).toHaveText("100 %");
  await expect(rowOf(slow).getByRole("cell").nth(4)).toHaveText(pct(odds));
  // Medians come from half-second buckets of the server's times: fast's read within [0, 0.5] s, slow's 2.1 s and a little within [2.0, 2.5] s.
  const median = async (who: string) => Number(await rowOf(who).getByRole("cell").nth(5).textContent());
  expect(await median(fast)).toBeGreaterThanOrEqual(0);
  expect(await median(fast)).toBeLessThanOrEqual(0.5);
  expect(await median(slow)).toBeGreaterThanOrEqual(2.0);
  expect(await median(slow)).toBeLessThanOrEqual(2.5);
  await expect(rowOf(fast).getByRole("cell").nth(6)).toHaveText("100 %");
  await expect(rowOf(slow).getByRole("cell").nth(6)).toHaveText("0 %");
  await annotators.getByRole("button", { name: "Median s / judgment" }).click(); // numbers sort largest first
  await expect(annotators.locator("tbody tr").first()).toHaveAttribute("data-username", slow);
  await annotators.getByRole("button", { name: "Median s / judgment" }).click();
  await expect(annotators.locator("tbody tr").first()).toHaveAttribute("data-username", fast);
  await page.screenshot({ path: screenshotPath("dashboard.png"), fullPage: true });

  // Every passage is split, so every question is listed as disputed; open one.
  const disputed = page.getByTestId("disputed").getByRole("link");
  await expect(disputed).toHaveCount(goldOf.size);
  await disputed.first().click();
  await expect(page).toHaveURL(new RegExp(`/campaigns/${campaignId}/questions/\\d+$`));
  const cards = page.getByTestId("passage");
  expect(await cards.count()).toBeGreaterThan(0);
  for (const card of await cards.all()) {
    await expect(card.getByRole("article", { name: new RegExp(`^${fast}: sufficient`) })).toHaveCount(1);
    await expect(card.getByRole("article", { name: new RegExp(`^${slow}: insufficient`) })).toHaveCount(1);
    // fast's highlight is drawn over the text; slow highlighted nothing.
    await expect(card.getByRole("article", { name: new RegExp(`^${fast}:`) }).locator("mark.mark-highlight")).not.toHaveCount(0);
    await expect(card.getByRole("article", { name: new RegExp(`^${slow}:`) }).locator("mark")).toHaveCount(0);
  }
  await expect(page.locator(".status-gold")).toHaveCount(1);
  for (const card of await cards.all()) {
    const endorsed = (await card.locator(".status").last().textContent()) === "endorsed";
    await expect(card.locator(".consensus-column mark.mark-consensus")).toHaveCount(endorsed ? 1 : 0);
  }
  await page.screenshot({ path: screenshotPath("question-view.png"), fullPage: true });

  // From the dashboard's "Unanswerable so far" to the list of those questions, searched, and on to one of them.
  await page.goto(`/campaigns/${campaignId}`);
  await page.getByRole("link", { name: "Unanswerable so far" }).click();
  await expect(page).toHaveURL(new RegExp(`/campaigns/${campaignId}/questions\\?show=unanswerable$`));
  const tabs = page.getByRole("navigation", { name: "Show questions" });
  await expect(tabs.locator('[aria-current="page"]')).toHaveText(`Unanswerable ${unanswerable}`);
  await expect(tabs.getByRole("link", { name: /^All / })).toHaveText(`All ${goldOf.size}`);
  const violations = await seriousViolations(page);
  expect(violations).toEqual([]);
  const unanswerableIds = [...goldOf].filter(([, id]) => !even(id)).map(([kiltId]) => kiltId);
  const rows = page.getByTestId("questions").locator("tbody tr");
  if (unanswerableIds.length === 0) await expect(page.getByTestId("no-questions")).toBeVisible();
  else {
    await expect(rows).toHaveCount(unanswerableIds.length);
    for (const kiltId of unanswerableIds) await expect(rows.filter({ hasText: kiltId })).toContainText("unanswerable");
    await page.getByLabel("Search questions").fill(unanswerableIds[0]!);
    await page.keyboard.press("Enter");
    await expect(rows).toHaveCount(1);
    await page.screenshot({ path: screenshotPath("questions.png"), fullPage: true });
    await rows.first().getByRole("link").click();
    await expect(page.getByTestId("question-outcome")).toContainText("unanswerable");
  }

  // Pause the slow annotator: their judgments stop counting and their slots reopen, live.
  await page.goto(`/campaigns/${campaignId}`);
  await rowOf(slow)
    .getByRole("button", { name: `Pause ${slow}` })
    .click();
  await page
    .getByRole("dialog", { name: `Pause ${slow}?` })
    .getByRole("button", { name: "Pause" })
    .click(); // pausing asks first
  await expect(rowOf(slow)).toContainText("paused");
  await expect(figure(page, "slots-filled")).toHaveText(`${2 * passages} / ${3 * passages}`);
  await expect(figure(page, "slots-open")).toHaveText(String(passages));
  await expect(figure(page, "unanswerable")).toHaveText("0"); // no passage is finished any more

  // Export: one line per question with an endorsed (even) passage, one provenance entry per such passage.
  await expect(page.getByRole("link", { name: "KILT provenance (consensus spans)" })).toBeVisible();
  const exported = await page.request.get(`/api/campaigns/${campaignId}/export?location=span`);
  expect(exported.status()).toBe(200);
  expect(dialogs).toEqual([]);
  const lines = (await exported.text())
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l));
  expect(lines.map((l) => l.id).sort()).toEqual([...questionsWithEven].sort());

  // The audit log has an entry for each coordinator action above, by whom it was done.
  const entries = await auditEntriesSince(page.request, since);
  const batchId = String((await (await page.request.get(`/api/campaigns/${campaignId}/batches`)).json()).batches[0].id);
  // Every account the journey names, paging through the list (newest first) with ?after=.
  const users: { id: number; username: string }[] = [];
  for (let after: number | null = null, first = true; first || after !== null; first = false) {
    const page: { users: { id: number; username: string }[]; next: number | null } = await (
      await admin.get(`/api/users?limit=500${after === null ? "" : `&after=${after}`}`)
    ).json();
    users.push(...page.users);
    after = page.next;
  }
  const idOf = (username: string) => String(users.find((u) => u.username === username)!.id);
  const me = accounts().coordinator;
  const has = (actor: string, action: string, targetId: string) =>
    expect(
      entries.filter((e) => e.actorUsername === actor && e.action === action && e.targetId === targetId),
      `${actor} ${action} ${targetId}`,
    ).toHaveLength(1);
  has(me, "campaign.create", String(campaignId));
  has(me, "batch.import", batchId);
  has(me, "batch.launch", batchId);
  has(me, "standing.pause", idOf(slow));
  for (const who of [fast, careful, slow]) has(ADMIN.username, "user.create", idOf(who));
  await page.goto("/people/audit");
  await expect(page.getByTestId("audit")).toContainText("standing.pause");
  await admin.dispose();
});

/** Every audit entry since `since`, oldest first (GET /api/audit, page by page). */
async function auditEntriesSince(api: APIRequestContext, since: Date) {
  const all: { action: string; actorUsername: string; targetId: string | null }[] = [];
  let cursor: number | null = null;
  do {
    const res = await api.get(`/api/audit?order=asc&limit=500&since=${since.toISOString()}${cursor ? `&cursor=${cursor}` : ""}`);
    expect(res.status(), await res.text()).toBe(200);
    const body = (await res.json()) as { entries: typeof all; nextCursor: number | null };
    all.push(...body.entries);
    cursor = body.nextCursor;
  } while (cursor);
  return all;
}

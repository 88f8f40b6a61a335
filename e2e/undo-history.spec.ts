// Issue 14, deliverables 2 and 5: undo after a submit, the "My judgments" history with revise, and
// comments and flags, followed to the question view and the judgments export.
import { expect, test, type APIRequestContext, type Browser, type Locator, type Page } from "@playwright/test";
import { axeBuilder, expectAccessible } from "./axe";
import { adminApi, createAccount, judgeAll, launchedTwoQuestionBatch, signedInApi, storageStatePath } from "./fixtures";

/** A new annotator: their API session, and a browser page signed in with the same cookies. */
async function annotatorWithPage(browser: Browser, admin: APIRequestContext, baseURL: string, viewport = { width: 1280, height: 800 }) {
  const username = await createAccount(admin, "annotator", "undo");
  const api = await signedInApi(baseURL, username);
  const context = await browser.newContext({ viewport, storageState: await api.storageState() });
  return { username, api, context, page: await context.newPage() };
}

interface ExportLine {
  query_id: string;
  start_paragraph_id: number;
  annotator: string;
  verdict: string;
  revision: number;
  revised_at: string | null;
  comment: string | null;
  flags: string[];
  versions: {
    revision: number;
    verdict: string;
    span: { text: string } | null;
    comment: string | null;
    flags: string[];
    submitted_at: string;
    replaced_at: string;
  }[];
}

async function exportLines(admin: APIRequestContext, campaignId: number): Promise<ExportLine[]> {
  const res = await admin.get(`/api/campaigns/${campaignId}/judgments`);
  expect(res.status()).toBe(200);
  return (await res.text())
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as ExportLine);
}

/** A chosen verdict button's background colour (the same on the judging, undo and revise screens). */
const background = (button: Locator) => button.evaluate((el) => getComputedStyle(el).backgroundColor);

/** The Comment or flag summary starts at the revision editor's left edge, as its other fields do. */
async function expectNotesAligned(scope: Page | Locator): Promise<void> {
  const editor = (await scope.locator(".revision-editor").boundingBox())!;
  const summary = (await scope.getByText("Comment or flag").boundingBox())!;
  expect(Math.abs(summary.x - editor.x)).toBeLessThanOrEqual(1);
}

/** The question view's outcome line of the question asked on screen (`question 0` or `question 1`). */
async function questionOutcome(coordinator: Page, admin: APIRequestContext, campaignId: number, input: string): Promise<string> {
  const list = await (await admin.get(`/api/campaigns/${campaignId}/questions`)).json();
  const row = (list.questions as { id: number; input: string }[]).find((q) => q.input === input)!;
  await coordinator.goto(`/campaigns/${campaignId}/questions/${row.id}`);
  return (await coordinator.getByTestId("question-outcome").textContent()) ?? "";
}

/**
 * The start of each test here: two minutes (two browsers and a dozen judgments), the admin's API, and
 * a launched two-question campaign `name` without the gold rule (the annotators judge freely).
 */
async function adminAndCampaign(
  baseURL: string,
  name: string,
  settings: Record<string, unknown> = {},
): Promise<{ admin: APIRequestContext; campaignId: number }> {
  test.setTimeout(120_000);
  const admin = await adminApi(baseURL);
  const { campaignId } = await launchedTwoQuestionBatch(admin, name, { goldAccuracyThreshold: 0, ...settings });
  return { admin, campaignId };
}

test("undo re-opens the judgment just submitted, prefilled; saving revises it, and the outcome and the export follow", async ({
  browser,
  baseURL,
}) => {
  const { admin, campaignId } = await adminAndCampaign(baseURL!, "undo", { instructions: "Judge each passage **alone**." });
  // Another annotator first says sufficient everywhere: one more sufficient endorses a passage (T = 2).
  const other = await signedInApi(baseURL!, await createAccount(admin, "annotator", "undo-other"));
  await judgeAll(other, campaignId, () => true);
  const a = await annotatorWithPage(browser, admin, baseURL!);
  const coordinator = await (await browser.newContext({ storageState: storageStatePath("coordinator") })).newPage();

  await a.page.goto(`/annotate/${campaignId}`);
  const question = a.page.locator("h1.question");
  await expect(question).toBeVisible();
  const input = (await question.textContent())!.trim();
  // Sufficient with the first two words highlighted, submitted with the keyboard.
  await a.page.keyboard.press("Shift+ArrowRight");
  await a.page.keyboard.press("Shift+ArrowRight");
  await a.page.keyboard.press("1");
  const quote = (await a.page.locator(".passage-body mark").allTextContents()).join("");
  expect(quote.split(" ").length).toBe(2);
  const sufficientColour = await background(a.page.locator(".verdict-bar .choice-yes"));
  await a.page.keyboard.press("Enter");
  await expect(a.page.getByTestId("undo-bar")).toBeVisible();
  // The Undo toast stays clear of the instructions (open on the first visit).
  const instructions = a.page.getByRole("complementary", { name: "Instructions" });
  const [toast, panel] = [await a.page.getByTestId("undo-bar").boundingBox(), await instructions.boundingBox()];
  expect(toast!.x + toast!.width, "the toast ends left of the instructions").toBeLessThanOrEqual(panel!.x);
  await instructions.getByRole("button", { name: /^Hide/ }).click();
  expect(await questionOutcome(coordinator, admin, campaignId, input)).toMatch(/^1 of 2 passages endorsed/);

  // Backspace opens it again with its verdict and highlight.
  await a.page.keyboard.press("Backspace");
  await expect(a.page.getByRole("heading", { name: "Revise your last judgment" })).toBeVisible();
  await expect(a.page.getByRole("button", { name: /Sufficient/ }).first()).toHaveAttribute("aria-pressed", "true");
  await expect(a.page.locator(".passage-body mark")).toHaveText([quote]);
  // The highlight's keys, as when judging: Shift+→ grows it by a word, Shift+← shrinks it back.
  await a.page.keyboard.press("Shift+ArrowRight");
  const escaped = quote.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const marks = a.page.locator(".passage-body mark");
  await expect.poll(async () => (await marks.allTextContents()).join(" ")).toMatch(new RegExp(`^${escaped}\\s+\\S+$`));
  await a.page.keyboard.press("Shift+ArrowLeft");
  await expect(a.page.locator(".passage-body mark")).toHaveText([quote]);
  // The campaign's header as when judging, and the verdicts in the judging screen's colours.
  await expect(a.page.locator(".judging-top .campaign-name")).toHaveText(/e2e-undo/);
  expect(await background(a.page.getByRole("button", { name: /Sufficient/ }).first())).toBe(sufficientColour);
  await a.page.keyboard.press("2");
  await expect(a.page.getByRole("button", { name: /Not sufficient/ })).toHaveAttribute("aria-pressed", "true");
  expect(await background(a.page.getByRole("button", { name: /Not sufficient/ }))).toBe("rgb(138, 58, 20)");
  await expectNotesAligned(a.page);
  await expectAccessible(a.page, "the undo screen");
  await a.page.getByText("Comment or flag").click();
  await a.page.getByLabel("Broken text").check();
  await a.page.getByLabel(/Comment for the coordinators/).fill("The second sentence is cut off.");
  await a.page.getByRole("button", { name: /Save revision/ }).click();
  await expect(a.page.locator("h1.question")).toBeVisible();
  await expect(a.page.getByTestId("undo-bar")).toHaveCount(0); // used once
  await expect(a.page.getByRole("link", { name: "My judgments" })).toHaveAttribute("href", `/annotate/${campaignId}/history`);

  // The outcome follows: the passage is no longer endorsed; the question view shows the note.
  expect(await questionOutcome(coordinator, admin, campaignId, input)).toMatch(/^0 of 2 passages endorsed/);
  await expect(coordinator.getByTestId("judgment-notes")).toContainText("Flagged: Broken text");
  await expect(coordinator.getByTestId("judgment-notes")).toContainText("The second sentence is cut off.");

  // The export records the revision and the version it replaced.
  const revised = (await exportLines(admin, campaignId)).filter((l) => l.revision > 0);
  expect(revised).toHaveLength(1);
  expect(revised[0]).toMatchObject({
    verdict: "insufficient",
    revision: 1,
    comment: "The second sentence is cut off.",
    flags: ["broken_text"],
  });
  expect(revised[0]!.versions).toEqual([
    expect.objectContaining({
      revision: 0,
      verdict: "sufficient",
      span: expect.objectContaining({ text: quote }),
      comment: null,
      flags: [],
    }),
  ]);
  expect(Date.parse(revised[0]!.versions[0]!.replaced_at)).toBe(Date.parse(revised[0]!.revised_at!));

  // A comment and a flag go with a plain submission too.
  await a.page.getByText("Comment or flag").click();
  await a.page.getByLabel("Question wrong").check();
  await a.page.locator("h1.question").click(); // out of the form field: the judging keys ignore typing
  await a.page.keyboard.press("2");
  await a.page.keyboard.press("Enter");
  await expect(a.page.getByTestId("undo-bar")).toBeVisible();
  await expect.poll(async () => (await exportLines(admin, campaignId)).filter((l) => l.flags.includes("question_wrong")).length).toBe(1);

  // After the last passage, too: the Undo bar stays on the "nothing left" screen.
  const done = a.page.getByRole("heading", { name: "Nothing left for you in this campaign" });
  while (!(await done.isVisible())) {
    const claim = await a.page.locator(".passage").getAttribute("data-claim");
    await a.page.keyboard.press("2");
    await a.page.keyboard.press("Enter");
    await expect(done.or(a.page.locator(`.passage:not([data-claim="${claim}"])`))).toBeVisible();
  }
  await expect(a.page.getByTestId("undo-bar")).toBeVisible();
  await a.page.keyboard.press("Control+z");
  await expect(a.page.getByRole("heading", { name: "Revise your last judgment" })).toBeVisible();
  await a.page.getByRole("button", { name: "Cancel" }).click();
  await expect(done).toBeVisible();
  await a.context.close();
  await coordinator.context().close();
});

test("My judgments: newest first with the highlight; revise while open; a finished passage refuses with a message; axe-clean at 1280 and 390 px", async ({
  browser,
  baseURL,
}) => {
  const { admin, campaignId } = await adminAndCampaign(baseURL!, "history");
  const a = await annotatorWithPage(browser, admin, baseURL!);
  const sufficient = (p: number) => p % 2 === 1; // paragraphs 1 and 3: their first three words
  const newestFirst = (await judgeAll(a.api, campaignId, sufficient)).reverse();
  const firstWords = new Map([
    [1, "The tower was"],
    [3, "A museum opened"],
  ]);

  await a.page.goto(`/annotate/${campaignId}/history`);
  const cards = a.page.getByTestId("my-judgment");
  await expect(cards).toHaveCount(4);
  for (const [i, p] of newestFirst.entries()) {
    await expect(cards.nth(i).getByTestId("my-verdict")).toHaveText(sufficient(p) ? "Sufficient" : "Not sufficient");
    await expect(cards.nth(i).locator("mark")).toHaveText(sufficient(p) ? [firstWords.get(p)!] : []);
  }
  // When each was judged, written the one way times are.
  await expect(cards.first().locator("header .hint")).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
  const body = await a.page.content();
  expect(body).not.toMatch(/gold|is_gold|judgment_count|sufficient_count/i);
  await expect(a.page.locator(".judging-top .campaign-name")).toHaveText(/e2e-history/);

  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await a.page.setViewportSize(viewport);
    const serious = (await axeBuilder(a.page).analyze()).violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  }
  await a.page.setViewportSize({ width: 1280, height: 800 });

  // Revise the newest one: Unreadable, with a flag.
  await cards
    .first()
    .getByRole("button", { name: /Revise/ })
    .click();
  await cards
    .first()
    .getByRole("button", { name: /Unreadable/ })
    .click();
  expect(await background(cards.first().getByRole("button", { name: /Unreadable/ }))).toBe("rgb(74, 82, 96)");
  await expectNotesAligned(cards.first());
  await cards.first().getByText("Comment or flag").click();
  await cards.first().getByLabel("Offensive").check();
  const axeOpen = (await axeBuilder(a.page).analyze()).violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(axeOpen.map((v) => v.id)).toEqual([]);
  await cards
    .first()
    .getByRole("button", { name: /Save revision/ })
    .click();
  await expect(cards.first().getByTestId("my-verdict")).toHaveText("Unreadable");
  await expect(cards.first()).toContainText("Flagged: Offensive");
  await expect(cards.first()).toContainText("revised");
  const lines = await exportLines(admin, campaignId);
  expect(lines.find((l) => l.revision === 1)).toMatchObject({
    verdict: "insufficient",
    flags: ["offensive"],
    start_paragraph_id: newestFirst[0],
  });

  // Open the editor on the second, then two more annotators finish its passage (R = 3): saving is refused, and says why.
  await cards
    .nth(1)
    .getByRole("button", { name: /Revise/ })
    .click();
  await cards
    .nth(1)
    .getByRole("button", { name: /Not sufficient/ })
    .click();
  for (const prefix of ["finisher-1", "finisher-2"])
    await judgeAll(await signedInApi(baseURL!, await createAccount(admin, "annotator", prefix)), campaignId, () => false);
  await cards
    .nth(1)
    .getByRole("button", { name: /Save revision/ })
    .click();
  await expect(cards.nth(1).getByRole("alert")).toHaveText("Not revised: This passage is finished: its judgments can no longer change.");
  expect((await exportLines(admin, campaignId)).filter((l) => l.revision > 0)).toHaveLength(1);
  await a.page.reload();
  await expect(cards.nth(1)).toContainText("This passage is finished: its judgments can no longer change.");
  await expect(cards.nth(1).getByRole("button", { name: /Revise/ })).toHaveCount(0);

  // Filters in the address: by verdict, by a part of the question, both; a bad address is named and ignored.
  const tabs = a.page.getByRole("navigation", { name: "Show judgments" });
  await tabs.getByRole("link", { name: "Unreadable" }).click();
  await expect(a.page).toHaveURL(/\?verdict=unreadable$/);
  await expect(cards).toHaveCount(1);
  await expect(cards.first().getByTestId("my-verdict")).toHaveText("Unreadable");
  const question = (await cards.first().getByRole("heading").textContent())!;
  await tabs.getByRole("link", { name: "All" }).click();
  await expect(cards).toHaveCount(4);
  await a.page.getByRole("searchbox", { name: "Search questions" }).fill(question);
  await a.page.getByRole("button", { name: "Search" }).click();
  await expect(cards).toHaveCount(2);
  for (const card of await cards.all()) await expect(card.getByRole("heading")).toHaveText(question);
  // The revised one's question holds one other judgment: the other paragraph of that question (1 and 2, or 3 and 4).
  const partner = newestFirst[0]! % 2 === 1 ? newestFirst[0]! + 1 : newestFirst[0]! - 1;
  const partnerVerdict = sufficient(partner) ? "Sufficient" : "Not sufficient";
  await tabs.getByRole("link", { name: partnerVerdict, exact: true }).click();
  await expect(a.page).toHaveURL(/verdict=(in)?sufficient&q=/);
  await expect(cards).toHaveCount(1);
  await expect(cards.first().getByTestId("my-verdict")).toHaveText(partnerVerdict);
  await a.page.goto(`/annotate/${campaignId}/history?verdict=maybe`);
  await expect(a.page.getByRole("alert").filter({ hasText: "Ignored" })).toHaveText(
    /Ignored a bad address: verdict must be one of sufficient, insufficient, partial, unreadable/,
  );
  await expect(cards).toHaveCount(4);
  await a.context.close();
});

// Issue 16's acceptance: an annotator who finds none of a question's passages sufficient is asked,
// before the next question, to propose another passage (search by title and by text, open a page,
// pick a paragraph, highlight the span) or to explain why none does. In a campaign of exactly R
// annotators the proposal finishes (its proposer's highlight is its first judgment) and the KILT
// export holds it; an explanation shows in the question view and in `kps judgments`; nobody is
// asked while a passage of the question is held by others. Own accounts and data
// (e2e/ask-fixtures.ts), never the demo.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { accounts, adminApi, createAccount, PASSWORD, signedInApi, storageStatePath } from "./fixtures";
import { expectInlineWithLabel } from "./inline-label";
import { wordPoint } from "./word-point";
import {
  annotatorWithPage,
  axeAtBothWidths,
  buildTextIndex,
  importAskSource,
  judgeByApi,
  judgeNoneSufficient,
  onlyMembers,
  oneQuestionCampaign,
  type AskSource,
} from "./ask-fixtures";

const run = promisify(execFile);

/** `kps …` as the e2e coordinator (a token from `kps login`), as test/http/cli.http.ts runs it. */
async function kps(baseURL: string, args: string[]): Promise<string> {
  const bin = path.join(process.cwd(), "bin", "kps.mjs");
  const env = { ...process.env, KPS_TOKEN: "" };
  const login = await run(
    process.execPath,
    [bin, "--url", baseURL, "login", "--username", accounts().coordinator, "--password", PASSWORD],
    { env },
  );
  const token = /KPS_TOKEN=(\S+)/.exec(login.stdout)![1]!;
  return (await run(process.execPath, [bin, ...args], { env: { ...env, KPS_URL: baseURL, KPS_TOKEN: token } })).stdout;
}

// One Ask source for the file (beforeAll): its tests run in order, in one worker.
test.describe.configure({ mode: "serial" });

let source: AskSource;
let admin: APIRequestContext;

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(120_000);
  admin = await adminApi(baseURL!);
  source = await importAskSource(admin);
  await buildTextIndex(admin, source);
});

test.afterAll(async () => {
  await admin.dispose();
});

test(
  "asked after none sufficient, an annotator proposes a passage; with exactly R annotators it finishes, and the export holds it",
  { tag: "@desktop" },
  async ({ browser, baseURL }) => {
    test.setTimeout(180_000);
    const { campaignId, queryId } = await oneQuestionCampaign(admin, source, `who kept the ${source.tag} lighthouse`);
    const a = await annotatorWithPage(browser, admin, baseURL!, "proposer");
    // The proposer alone at first (R = 2): the dashboard will say what nobody can finish.
    await onlyMembers(admin, campaignId, [a.username]);
    const { page } = a;
    await page.goto(`/annotate/${campaignId}`);
    expect(await judgeNoneSufficient(page)).toBe(2);
    await expect(page.getByRole("heading", { level: 1, name: `who kept the ${source.tag} lighthouse` })).toBeFocused();
    expect(await axeAtBothWidths(page)).toEqual([]);

    // Title search: lower case, no accent, finds "Élodie …" with the matched words marked.
    await page.getByRole("button", { name: "Propose a passage" }).click();
    const box = page.getByRole("searchbox", { name: "Search the knowledge source" });
    await expect(box).toBeFocused();
    const results = page.getByRole("list", { name: "Search results" });
    // A page holding a passage the annotator judged: that paragraph is marked and cannot be picked.
    await box.fill(`harbour ${source.tag}`);
    // Marked in the results already, before the page is opened.
    await expect(results.getByRole("button").first().getByTestId("ask-result-given")).toHaveText(
      /^\d+ passages? of this page (was|were) already given to you$/,
    );
    await results.getByRole("button").first().click();
    const harbour = page.getByRole("article", { name: `Harbour ${source.tag}` });
    await expect(harbour.getByTestId("ask-given")).toHaveText(/^Already a passage of this question\s*The harbour opened in 1820\.$/);
    await expect(harbour.getByRole("checkbox")).toHaveCount(1); // "Fishing boats moor here." only
    await expect(harbour.locator(".ask-question-bar")).toContainText(`who kept the ${source.tag} lighthouse`);
    await page.getByRole("button", { name: "← Back to the results" }).click();
    await box.fill(`elodie ${source.tag}`);
    await expect(results.getByRole("button")).toHaveCount(1);
    await expect(results.locator("mark").first()).toHaveText(source.evidence.title);
    await expect(results).toContainText("Élodie was born in Quimper.");
    expect(await axeAtBothWidths(page)).toEqual([]);

    // Text search (the index is built, so the mode is offered): the paragraph, its section, the word marked.
    await page.getByRole("radio", { name: "Text" }).check();
    await box.fill(`${source.tag} keeper`);
    const hit = results.getByRole("button").filter({ hasText: "1901" });
    await expect(hit).toHaveCount(1);
    await expect(hit).toContainText("Career");
    await expect(
      hit
        .locator("mark")
        .filter({ hasText: new RegExp(`^${source.tag}$`, "i") })
        .first(),
    ).toBeVisible();
    await hit.click();

    // The page reader: paragraphs under their section headers; the matched one focused.
    const reader = page.getByRole("article", { name: source.evidence.title });
    await expect(reader.getByRole("heading", { name: "Career" })).toBeVisible();
    const box4 = reader.getByRole("checkbox", { name: new RegExp(`^${source.evidence.sentence}`) });
    await expect(box4).toBeFocused();
    expect(await axeAtBothWidths(page)).toEqual([]);
    // The question stays in view at the top of the reader, wherever the page is scrolled.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect(reader.locator(".ask-question-bar")).toBeInViewport();
    await page.keyboard.press("Space");
    await expect(box4).toBeChecked();
    await page.getByRole("button", { name: "Highlight in this paragraph" }).click();

    // The highlight, exactly as when judging: S takes the first sentence (its words: not the final stop).
    const quote = source.evidence.sentence.replace(/\.$/, "");
    await page.keyboard.press("s");
    await expect(page.locator(".ask .passage-body mark")).toHaveText(quote);

    // A reload in the middle keeps the draft: the same page, paragraph and highlight.
    await page.reload();
    await expect(page.locator(".ask .passage-body mark")).toHaveText(quote);
    await expect(page.getByRole("button", { name: "Propose a passage" })).toHaveAttribute("aria-pressed", "true");
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { name: "Nothing left for you in this campaign" })).toBeVisible();
    await expect(a.api.get(`/api/campaigns/${campaignId}/ask`).then((r) => r.json())).resolves.toEqual({ ask: null });

    // The dashboard says plainly that nobody eligible can fill the open slots: the proposer judged every passage.
    const coordinator = await (await browser.newContext({ storageState: storageStatePath("coordinator") })).newPage();
    await coordinator.goto(`/campaigns/${campaignId}`);
    await expect(coordinator.getByTestId("unfillable")).toContainText(
      "3 open slots of 3 passages cannot be filled: every eligible annotator (1) has already judged or proposed these passages",
    );
    expect(await axeAtBothWidths(coordinator)).toEqual([]);

    // A second annotator makes exactly R = 2: they judge the proposal (its proposer's highlight is its first
    // judgment), and with that every passage is finished; the proposer never gets it.
    const span = { startParagraphId: 4, startCharacter: 0, endParagraphId: 4, endCharacter: Array.from(quote).length, text: quote };
    const b = await annotatorWithPage(browser, admin, baseURL!, "endorser-b");
    await onlyMembers(admin, campaignId, [a.username, b.username]);
    const seenB = await judgeByApi(b.api, campaignId, source.evidence.wikipediaId, span, true);
    expect(seenB).toContainEqual({ wikipediaId: source.evidence.wikipediaId, paragraphIds: [4] });
    expect(seenB).toHaveLength(3);
    expect((await a.api.post(`/api/campaigns/${campaignId}/next`)).status()).toBe(204);
    const { dashboard } = await (await admin.get(`/api/campaigns/${campaignId}/dashboard`)).json();
    expect(dashboard.totals).toMatchObject({ passages: 3, finishedPassages: 3, open: 0 });
    expect(dashboard.unfillable.slots).toBe(0);
    await coordinator.reload();
    await expect(coordinator.getByTestId("dashboard")).toBeVisible();
    await expect(coordinator.getByTestId("unfillable")).toHaveCount(0);
    await coordinator.context().close();

    // The proposer's pseudonym: the one who judged the originals not sufficient (B said sufficient).
    const lines = (await (await admin.get(`/api/campaigns/${campaignId}/judgments`)).text())
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const proposer = lines.find((l) => l.verdict === "insufficient")?.annotator as string;
    expect(proposer).toBeTruthy();
    const exported = await admin.get(`/api/campaigns/${campaignId}/export?location=span`);
    expect(exported.status()).toBe(200);
    const rows = (await exported.text())
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(rows.map((r) => r.id)).toEqual([queryId]);
    const entry = (rows[0].output as { provenance?: { wikipedia_id: string; start_paragraph_id: number; meta: object }[] }[])
      .flatMap((o) => o.provenance ?? [])
      .find((p) => p.wikipedia_id === source.evidence.wikipediaId);
    expect(entry).toMatchObject({ start_paragraph_id: 4 });
    expect(JSON.stringify(entry!.meta)).toContain(proposer);
    expect(entry!.meta).toMatchObject({ votes: { sufficient: 2, insufficient: 0 } });
    for (const x of [a, b]) await x.context.close();
  },
);

test(
  "a proposal may hold passages from two pages: the second is found while the first is kept, and others judge them together",
  { tag: "@desktop" },
  async ({ browser, baseURL }) => {
    test.setTimeout(120_000);
    const { campaignId } = await oneQuestionCampaign(admin, source, `where did the ${source.tag} keeper moor`);
    const a = await annotatorWithPage(browser, admin, baseURL!, "two-pages");
    const { page } = a;
    await page.goto(`/annotate/${campaignId}`);
    expect(await judgeNoneSufficient(page)).toBe(2);
    await page.getByRole("button", { name: "Propose a passage" }).click();
    const box = page.getByRole("searchbox", { name: "Search the knowledge source" });
    const results = page.getByRole("list", { name: "Search results" });
    // The first passage: the keeper's sentence, highlighted by S.
    await box.fill(`elodie ${source.tag}`);
    await results.getByRole("button").first().click();
    await page.getByRole("checkbox", { name: new RegExp(`^${source.evidence.sentence}`) }).check();
    await page.getByRole("button", { name: "Highlight in this paragraph" }).click();
    await page.keyboard.press("s");
    await page.getByRole("button", { name: "Add a passage from another page" }).click();
    // Kept while the second is found: the search again, under a note of the first.
    const first = page.getByRole("group", { name: "First passage of two" });
    await expect(first).toContainText(`Passage 1 of 2 ${source.evidence.title}, ¶ 4`);
    expect(await axeAtBothWidths(page)).toEqual([]);
    await box.fill(`harbour ${source.tag}`);
    await results
      .getByRole("button")
      .filter({ hasText: `Harbour ${source.tag}` })
      .click();
    await page.getByRole("checkbox", { name: /^Fishing boats moor here/ }).check();
    await page.getByRole("button", { name: "Highlight in this paragraph" }).click();
    await page.keyboard.press("s");
    await expect(page.locator(".ask .passage-body mark")).toHaveText("Fishing boats moor here");
    await page.getByRole("button", { name: /^Propose both passages/ }).click();
    await expect(page.getByRole("heading", { name: "Nothing left for you in this campaign" })).toBeVisible();

    // Another annotator is given the two as one task, both members with their page titles.
    const b = await signedInApi(baseURL!, await createAccount(admin, "annotator", "two-pages-b"));
    const titles: string[][] = [];
    for (let i = 0; i < 5; i++) {
      const next = await b.post(`/api/campaigns/${campaignId}/next`);
      if (next.status() === 204) break;
      const task = await next.json();
      if (task.members) titles.push(task.members.map((m: { title: string }) => m.title));
      const judged = await b.post(`/api/claims/${task.claim.handle}/judgment`, {
        data: { verdict: "insufficient", span: null, durationMs: 1500, idempotencyKey: `k-${task.claim.handle}` },
      });
      expect(judged.status(), await judged.text()).toBe(201);
    }
    expect(titles).toHaveLength(1);
    expect([...titles[0]!].sort()).toEqual([source.evidence.title, `Harbour ${source.tag}`].sort());
    await Promise.all([b.dispose(), a.api.dispose(), a.context.close()]);
  },
);

test(
  "no Ask while a passage of the question is held by others: it may yet be sufficient",
  { tag: "@desktop" },
  async ({ browser, baseURL }) => {
    const { campaignId } = await oneQuestionCampaign(admin, source, `who painted the ${source.tag} lighthouse`);
    // Two others claim the same passage (the fullest first): both its slots (R = 2) are held, not finished.
    const [x, z] = await Promise.all(
      ["holder-x", "holder-z"].map(async (p) => signedInApi(baseURL!, await createAccount(admin, "annotator", p))),
    );
    const held = await (await x!.post(`/api/campaigns/${campaignId}/next`)).json();
    expect((await (await z!.post(`/api/campaigns/${campaignId}/next`)).json()).passage.wikipediaId).toBe(held.passage.wikipediaId);
    const y = await annotatorWithPage(browser, admin, baseURL!, "not-asked");
    await y.page.goto(`/annotate/${campaignId}`);
    await expect(y.page.locator("article.passage[data-claim]")).toBeVisible();
    await y.page.keyboard.press("2");
    await y.page.keyboard.press("Enter");
    await expect(y.page.getByRole("heading", { name: "Nothing left for you in this campaign" })).toBeVisible();
    await expect(y.page.getByText("None of this question’s passages held enough evidence.")).toHaveCount(0);
    expect(await (await y.api.get(`/api/campaigns/${campaignId}/ask`)).json()).toEqual({ ask: null });
    await Promise.all([x!.dispose(), z!.dispose(), y.api.dispose(), y.context.close()]);
  },
);

test(
  "keyboard only, an annotator explains instead; the explanation shows in the question view and in kps judgments",
  { tag: "@desktop" },
  async ({ browser, baseURL }) => {
    test.setTimeout(120_000);
    const input = `which ${source.tag} lighthouse is meant`;
    const { campaignId, queryId } = await oneQuestionCampaign(admin, source, input);
    const d = await annotatorWithPage(browser, admin, baseURL!, "explainer");
    const { page } = d;
    await page.goto(`/annotate/${campaignId}`);
    expect(await judgeNoneSufficient(page)).toBe(2);
    await expect(page.getByRole("heading", { level: 1, name: input })).toBeFocused();

    // Tab to "Explain why none does", Enter; the first reason is focused; arrows choose; Tab to the text.
    await page.keyboard.press("Tab");
    await expect(page.getByRole("button", { name: "Propose a passage" })).toBeFocused();
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await expect(page.getByRole("radio", { name: "The answer is not in Wikipedia" })).toBeFocused();
    await expectInlineWithLabel(page.getByRole("radio", { name: "The answer is not in Wikipedia" }), "a reason's radio");
    for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowDown");
    await expect(page.getByRole("radio", { name: /^Other/ })).toBeChecked();
    expect(await axeAtBothWidths(page)).toEqual([]);

    // "Other" needs a text: the error shows beside the field.
    await page.keyboard.press("Tab");
    await expect(page.getByRole("textbox", { name: /Explanation/ })).toBeFocused();
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await expect(page.getByRole("textbox", { name: /Explanation/ })).toHaveAccessibleDescription(/required for “Other”/);
    const why = `Two ${source.tag} lighthouses exist; the question does not say which.`;
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.type(why);
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { name: "Nothing left for you in this campaign" })).toBeVisible();

    // The coordinator's question view and `kps judgments` both carry it.
    const questions = (await (await admin.get(`/api/campaigns/${campaignId}/questions`)).json()).questions as {
      id: number;
      kiltId?: string;
      input: string;
    }[];
    const row = questions.find((q) => q.input === input)!;
    const coordinator = await (await browser.newContext({ storageState: storageStatePath("coordinator") })).newPage();
    await coordinator.goto(`/campaigns/${campaignId}/questions/${row.id}`);
    await expect(coordinator.getByText(why)).toBeVisible();
    // By the explainer's username, which only coordinators see.
    await expect(coordinator.getByTestId("explanations")).toContainText(d.username);
    const out = await kps(baseURL!, ["judgments", "--campaign", String(campaignId)]);
    expect(out).toContain(why);
    expect(out).toContain(queryId);
    await coordinator.context().close();
    await d.context.close();
  },
);

// The phone project runs this one test of the file (playwright.config.ts): the Ask screen by touch.
test(
  "on a phone, the Ask screen fits and works by touch: tap a result, a paragraph, two words, Propose",
  { tag: "@touch" },
  async ({ page }) => {
    const { campaignId } = await oneQuestionCampaign(admin, source, `who kept the ${source.tag} light`);
    const username = await createAccount(admin, "annotator", "phone");
    expect((await page.request.post("/api/auth/sign-in", { data: { username, password: PASSWORD } })).status()).toBe(200);
    await page.goto(`/annotate/${campaignId}`);
    for (let i = 0; i < 2; i++) {
      const claim = await page.locator("article.passage[data-claim]").getAttribute("data-claim");
      await page.getByRole("button", { name: /Not sufficient$/ }).tap();
      await page.getByRole("button", { name: /Submit$/ }).tap();
      await expect(page.locator(`article.passage[data-claim="${claim}"]`)).toHaveCount(0);
    }
    await expect(page.getByText("None of this question’s passages held enough evidence.")).toBeVisible();
    const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    expect(await fits()).toBe(true);
    await page.getByRole("button", { name: "Propose a passage" }).tap();
    await page.getByRole("searchbox", { name: "Search the knowledge source" }).fill(`élodie ${source.tag}`);
    await page.getByRole("list", { name: "Search results" }).getByRole("button").first().tap();
    await page.getByRole("checkbox", { name: new RegExp(`^${source.evidence.sentence}`) }).tap();
    expect(await fits()).toBe(true);
    // The question stays in view above the page being read.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect(page.locator(".ask-question-bar")).toBeInViewport();
    await page.getByRole("button", { name: "Highlight in this paragraph" }).tap();
    for (const word of ["She", "1933"]) {
      const at = await wordPoint(page, word);
      await page.touchscreen.tap(at.x, at.y);
    }
    await expect(page.locator(".ask .passage-body mark")).toHaveText(source.evidence.sentence.replace(/\.$/, ""));
    await page.getByRole("button", { name: /^Propose passage/ }).tap();
    await expect(page.getByRole("heading", { name: "Nothing left for you in this campaign" })).toBeVisible();
  },
);

import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import postgres from "postgres";
import { seriousViolations } from "./axe";
import { adminApi, createAccount, importAndLaunch, importKnowledgePage, PASSWORD, signedInApi, tasksOf, unique } from "./fixtures";

// Evidence sets on the judging screen, on the desktop and the phone (playwright.config.ts): a set's
// members stacked (one at a time on the phone), a highlight in each, stored as `spans`; and the
// Partial verdict, whose T votes on two passages of a question build a set that is then endorsed.
// The set and the batch's partial-evidence switch come from the import's options (`sets: "pairs"`,
// `partialEvidence: "on"`); what was stored is read back from the database: the spec needs DATABASE_URL.

function database() {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("e2e/evidence-sets.spec.ts reads the stored judgments and sets: run it with DATABASE_URL set (PostgreSQL)");
  return postgres(url, { max: 1, onnotice: () => {} });
}

interface SetCampaign {
  campaignId: number;
  batchId: number;
  kiltId: string;
  pageA: string;
  pageB: string;
}

/**
 * A campaign (R 3, T 2, no gold rule, no asking) of one question: gold on page A's paragraph 1, its
 * candidates page A's paragraph 2 and page B's paragraph 2 (the two halves of the answer), imported
 * with `options` (`sets: "pairs"` adds the set of the two candidates).
 */
async function launchSetCampaign(admin: APIRequestContext, options: Record<string, string>): Promise<SetCampaign> {
  const pageA = unique("sets-a-page");
  const pageB = unique("sets-b-page");
  await importKnowledgePage(admin, pageA, "Harbour light", [
    "Harbour light\n",
    "The Harbour light stands on the north pier.\n",
    "Its first keeper was Ann Morrow.\n",
  ]);
  await importKnowledgePage(admin, pageB, "Ann Morrow", [
    "Ann Morrow\n",
    "Ann Morrow kept lights for forty years.\n",
    "She was born in Wexford in 1870.\n",
  ]);
  const settings = { judgmentsPerPassage: 3, endorsementThreshold: 2, goldAccuracyThreshold: 0, askWhenNoneSufficient: false };
  const created = await admin.post("/api/campaigns", { data: { name: unique("e2e-sets"), ...settings } });
  expect(created.status(), await created.text()).toBe(201);
  const campaignId: number = (await created.json()).campaign.id;
  const kiltId = unique("q");
  const at = (w: string, p: number) => ({ wikipedia_id: w, start_paragraph_id: p, end_paragraph_id: p });
  const query = {
    id: kiltId,
    input: "Where was the first keeper of the Harbour light born?",
    output: [{ answer: "Wexford", provenance: [at(pageA, 1)] }],
  };
  const candidates = { id: kiltId, output: [{ provenance: [at(pageA, 2), at(pageB, 2)] }] };
  const batchId = await importAndLaunch(admin, campaignId, [JSON.stringify(query)], [JSON.stringify(candidates)], options);
  return { campaignId, batchId, kiltId, pageA, pageB };
}

/** Signs a new annotator in on this test's page (its context has the project's device). */
async function signInAnnotator(page: Page, admin: APIRequestContext): Promise<void> {
  const username = await createAccount(admin, "annotator", "sets");
  const res = await page.request.post("/api/auth/sign-in", { data: { username, password: PASSWORD } });
  expect(res.status(), await res.text()).toBe(200);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a task or passage as the API's JSON
type Json = any;
/** The first two words of a passage's first paragraph, as a span. */
function spanIn(p: Json) {
  const para = p.paragraphs[0];
  const text = para.text.split(" ").slice(0, 2).join(" ");
  return { startParagraphId: para.id, startCharacter: 0, endParagraphId: para.id, endCharacter: Array.from(text).length, text };
}

async function judge(api: APIRequestContext, task: Json, body: Record<string, unknown>): Promise<void> {
  const res = await api.post(`/api/claims/${task.claim.handle}/judgment`, {
    data: { span: null, durationMs: 1500, idempotencyKey: unique("key"), ...body },
  });
  expect(res.status(), await res.text()).toBe(201);
}

/** An annotator's tasks through the API until the set comes (the single passages judged not sufficient): the set stays their live claim. */
async function judgeSinglesUntilSet(api: APIRequestContext, campaignId: number): Promise<void> {
  for await (const task of tasksOf(api, campaignId)) {
    if (task.members) return;
    await judge(api, task, { verdict: "insufficient" });
  }
  throw new Error("the set was never given");
}

const member = (page: Page, i: number) => page.locator(`article.set-member[data-member="${i}"]`);
const marksOf = (page: Page, i: number) => member(page, i).locator(".passage-body mark");

/** Clicks (or taps, on a touch screen) the first word (or `word`) of the passage body `within` selects. */
async function pressFirstWord(page: Page, within: string, touch: boolean, word = "\\p{L}+"): Promise<void> {
  const point = await page.evaluate(
    ({ within, word }) => {
      const body = document.querySelector(`${within} .passage-body`)!;
      const walker = document.createTreeWalker(body, NodeFilter.SHOW_TEXT);
      let text = walker.nextNode() as Text;
      let m = new RegExp(word, "u").exec(text.data);
      while (!m) {
        text = walker.nextNode() as Text;
        m = new RegExp(word, "u").exec(text.data);
      }
      const range = document.createRange();
      range.setStart(text, m.index);
      range.setEnd(text, m.index + m[0].length);
      (text.parentElement as HTMLElement).scrollIntoView({ block: "center" });
      const r = range.getClientRects()[0]!;
      return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
    },
    { within, word },
  );
  if (touch) await page.touchscreen.tap(point.x, point.y);
  else await page.mouse.click(point.x, point.y);
}

/** Submits (Enter on the desktop, the Submit button on the phone) and waits for the stored judgment. */
async function submit(page: Page, touch: boolean): Promise<Json> {
  const stored = page.waitForResponse((r) => /\/api\/claims\/[^/]+\/judgment/.test(r.url()) && r.request().method() === "POST");
  if (touch) await page.getByRole("button", { name: /Submit$/ }).click();
  else await page.keyboard.press("Enter");
  const res = await stored;
  expect(res.status(), await res.text()).toBe(201);
  return res.json();
}

test("an evidence set judged together: members stacked (one at a time on a phone), a highlight in each, kept over a reload, stored as two spans, revised per member", async ({
  page,
  baseURL,
  isMobile,
}) => {
  const admin = await adminApi(baseURL!);
  const c = await launchSetCampaign(admin, { sets: "pairs" });
  await signInAnnotator(page, admin);
  await judgeSinglesUntilSet(page.request, c.campaignId);
  await page.goto(`/annotate/${c.campaignId}`);

  await expect(page.locator("article.set-member")).toHaveCount(2);
  await expect(member(page, 0).getByText("Passage 1 of 2")).toBeVisible();
  await expect(member(page, 0).getByRole("heading", { name: "Harbour light" })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  if (isMobile) {
    // One member at a time: "1 of 2", and the second behind Next.
    await expect(page.getByTestId("set-count")).toHaveText("1 of 2");
    await expect(member(page, 1)).toBeHidden();
  } else {
    await expect(member(page, 1).getByRole("heading", { name: "Ann Morrow" })).toBeVisible();
  }

  // A highlight in the first member only: "Together sufficient" names the member without one.
  await pressFirstWord(page, 'article[data-member="0"]', isMobile);
  await expect(marksOf(page, 0)).toHaveText("Its");
  await page.getByRole("button", { name: /Together sufficient$/ }).click();
  await expect(page.getByRole("status").filter({ hasText: "Highlight the evidence in passage 2 of 2 (“Ann Morrow”) too" })).toBeVisible();

  // To the second member: N and the sentence key on the desktop, Next and a tap on the phone.
  if (isMobile) {
    await page.getByRole("button", { name: "Next passage →" }).click();
    await expect(page.getByTestId("set-count")).toHaveText("2 of 2");
    await expect(member(page, 0)).toBeHidden();
    await pressFirstWord(page, 'article[data-member="1"]', true);
    await expect(marksOf(page, 1)).toHaveText("She");
  } else {
    await page.keyboard.press("n");
    await expect(member(page, 1)).toHaveClass(/set-member-active/);
    await page.keyboard.press("s");
    await expect(marksOf(page, 1)).toHaveText("She was born in Wexford in 1870");
  }
  expect(await seriousViolations(page)).toEqual([]);

  // A reload loses nothing: both highlights and the member in focus come back from the draft.
  await page.reload();
  await expect(marksOf(page, 0)).toHaveCount(1);
  await expect(marksOf(page, 1)).toHaveCount(1);
  await expect(page.getByTestId("set-highlights")).toContainText("Passage 2 of 2 · 2 of 2 highlighted");

  const saved = await submit(page, isMobile);
  const second = isMobile ? "She" : "She was born in Wexford in 1870";
  expect(saved.judgment).toMatchObject({ verdict: "sufficient", span: null, spans: [{ text: "Its" }, { text: second }] });
  const db = database();
  try {
    const rows = await db`select j.member_spans from judgments j join passages p on p.id = j.passage_id
      where p.campaign_id = ${c.campaignId} and p.set_members is not null`;
    expect(rows.map((r) => (r.member_spans as { text: string }[]).map((s) => s.text))).toEqual([["Its", second]]);
  } finally {
    await db.end();
  }

  // The history shows the set: both members, each with its highlight.
  await page.goto(`/annotate/${c.campaignId}/history`);
  const card = page.getByTestId("my-judgment").filter({ hasText: "Together sufficient" });
  await expect(card.getByText("Passage 1 of 2 · Harbour light")).toBeVisible();
  await expect(card.getByText("Passage 2 of 2 · Ann Morrow")).toBeVisible();
  await expect(card.locator("mark")).toHaveText(["Its", second]);

  // Revising it edits each member's highlight: a new one in the second member, saved with both.
  await card.getByRole("button", { name: /^Revise/ }).click();
  const editor = page.locator(".revision-editor");
  await expect(editor.locator("article.set-member")).toHaveCount(2);
  if (!isMobile) {
    // The judging screen's keys: N brings the second passage into focus, Shift+← shrinks its highlight,
    // B goes back to the first, Shift+→ grows its highlight by a word.
    await expect(editor.locator('article[data-member="0"]')).toHaveClass(/set-member-active/);
    await page.keyboard.press("n");
    await expect(editor.locator('article[data-member="1"]')).toHaveClass(/set-member-active/);
    await expect(editor.getByRole("status")).toHaveText("Passage 2 of 2.");
    await page.keyboard.press("Shift+ArrowLeft");
    await expect(editor.locator('article[data-member="1"] mark')).toHaveText("She was born in Wexford in");
    await page.keyboard.press("b");
    await page.keyboard.press("Shift+ArrowRight");
    await expect(editor.locator('article[data-member="0"] mark')).toHaveText("Its first");
    await expect(editor.locator('article[data-member="1"] mark')).toHaveText("She was born in Wexford in");
    await page.keyboard.press("Alt+ArrowRight"); // the start one word right
    await expect(editor.locator('article[data-member="0"] mark')).toHaveText("first");
    await page.keyboard.press("Alt+ArrowLeft");
    await expect(editor.locator('article[data-member="0"] mark')).toHaveText("Its first");
    await page.keyboard.press("Shift+ArrowLeft");
  }
  await pressFirstWord(page, '.revision-editor article[data-member="1"]', isMobile, "Wexford");
  await expect(editor.locator('article[data-member="1"] mark')).toHaveText("Wexford");
  const revised = page.waitForResponse((r) => /\/api\/claims\/[^/]+\/judgment/.test(r.url()) && r.request().method() === "PUT");
  await editor.getByRole("button", { name: /Save revision/ }).click();
  const res = await revised;
  expect(res.status(), await res.text()).toBe(200);
  expect((await res.json()).judgment).toMatchObject({ verdict: "sufficient", spans: [{ text: "Its" }, { text: "Wexford" }] });
  await expect(card.locator("mark")).toHaveText(["Its", "Wexford"]);
  await admin.dispose();
});

test("part of the evidence: T annotators mark two passages partial, the set built of them is judged together sufficient and endorsed", async ({
  page,
  baseURL,
  isMobile,
}) => {
  const admin = await adminApi(baseURL!);
  const c = await launchSetCampaign(admin, { partialEvidence: "on" });
  // One annotator through the API: every passage partial, with its highlight.
  const x = await signedInApi(baseURL!, await createAccount(admin, "annotator", "sets-x"));
  for await (const task of tasksOf(x, c.campaignId)) await judge(x, task, { verdict: "partial", span: spanIn(task.passage) });

  // The second in the browser: Part of the evidence on each single passage, which makes T on both candidates
  // and builds their set; then the set, together sufficient.
  await signInAnnotator(page, admin);
  await page.goto(`/annotate/${c.campaignId}`);
  const nothingLeft = page.getByRole("heading", { name: "Nothing left for you in this campaign" });
  let judgedSet = false;
  for (let i = 0; i < 5; i++) {
    await expect(page.locator("article.passage").or(nothingLeft).first()).toBeVisible();
    if (await nothingLeft.isVisible()) break;
    const handle = await page.locator("article.passage").first().getAttribute("data-claim");
    if ((await page.locator("article.set-member").count()) > 0) {
      await pressFirstWord(page, 'article[data-member="0"]', isMobile);
      if (isMobile) await page.getByRole("button", { name: "Next passage →" }).click();
      else await page.keyboard.press("n");
      await pressFirstWord(page, 'article[data-member="1"]', isMobile);
      await page.getByRole("button", { name: /Together sufficient$/ }).click();
      expect((await submit(page, isMobile)).judgment.spans).toHaveLength(2);
      judgedSet = true;
    } else {
      const partial = page.getByRole("button", { name: /Part of the evidence$/ });
      await expect(partial).toBeVisible();
      // Part of the evidence needs a highlight: chosen first, it asks for one.
      if (isMobile) await partial.click();
      else await page.keyboard.press("p");
      await expect(partial).toHaveAttribute("aria-pressed", "true");
      await expect(page.getByRole("status").filter({ hasText: "Part of the evidence" })).toBeVisible();
      await pressFirstWord(page, "article.passage", isMobile);
      await expect(page.locator("article.passage .passage-body mark")).toHaveCount(1);
      const saved = await submit(page, isMobile);
      expect(saved.judgment).toMatchObject({ verdict: "partial", span: { startCharacter: 0 } });
      if (i === 0) {
        // Undo opens it again as Part of the evidence, with its highlight.
        await page.getByTestId("undo-bar").getByRole("button", { name: /Undo/ }).click();
        const editor = page.locator(".revision-editor");
        await expect(editor.getByRole("button", { name: /Part of the evidence$/ })).toHaveAttribute("aria-pressed", "true");
        await expect(editor.locator("article.passage mark")).toHaveCount(1);
        // Closing it asks again what is owed (GET …/ask) before the next passage shows: the passage
        // waits for the answer from the first frame, never shown and taken away again (a key
        // pressed in that frame would be lost).
        await page.evaluate(() => {
          const seen: string[] = [];
          (window as unknown as { passagesSeen: string[] }).passagesSeen = seen;
          const note = (kind: string, nodes: NodeList) => {
            for (const n of nodes)
              if (n instanceof HTMLElement)
                for (const a of [n, ...n.querySelectorAll("article.passage")])
                  if (a.matches("article.passage") && !a.closest(".revision-editor")) seen.push(`${kind} ${a.getAttribute("data-claim")}`);
          };
          new MutationObserver((records) => {
            for (const r of records) {
              note("added", r.addedNodes);
              note("removed", r.removedNodes);
            }
          }).observe(document.body, { childList: true, subtree: true });
        });
        const asked = page.waitForResponse((r) => /\/api\/campaigns\/\d+\/ask$/.test(r.url()));
        await editor.getByRole("button", { name: "Cancel" }).click();
        await asked;
        const next = page.locator("article.passage").first();
        await expect(next).toBeVisible();
        const seen = await page.evaluate(() => (window as unknown as { passagesSeen: string[] }).passagesSeen);
        expect(seen, "the next passage is put on screen once").toEqual([`added ${await next.getAttribute("data-claim")}`]);
      }
    }
    await expect(page.locator(`article.passage[data-claim="${handle}"]`)).toHaveCount(0);
  }
  expect(judgedSet).toBe(true);

  // A third annotator judges the set together sufficient through the API: T = 2, the set is endorsed.
  const y = await signedInApi(baseURL!, await createAccount(admin, "annotator", "sets-y"));
  for await (const task of tasksOf(y, c.campaignId)) {
    if (task.members) await judge(y, task, { verdict: "sufficient", spans: task.members.map(spanIn) });
    else await judge(y, task, { verdict: "insufficient" });
  }
  const listed = await (await admin.get(`/api/campaigns/${c.campaignId}/questions?q=${encodeURIComponent(c.kiltId)}`)).json();
  expect(listed.questions).toMatchObject([{ kiltId: c.kiltId, endorsed: 1 }]);
  const check = database();
  try {
    const sets = await check`select origins, sufficient_count from passages where batch_id = ${c.batchId} and set_members is not null`;
    expect(sets).toMatchObject([{ origins: [{ kind: "partial" }], sufficient_count: 2 }]);
  } finally {
    await check.end();
  }
  await Promise.all([x.dispose(), y.dispose(), admin.dispose()]);
});

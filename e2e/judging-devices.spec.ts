import { expect, test, type APIRequestContext, type Page, type Response } from "@playwright/test";
import { adminApi, createAccount, launchDemoCampaign, launchedTwoQuestionBatch, PASSWORD, unique } from "./fixtures";
import { wordPoint } from "./word-point";
import { screenshotPath } from "./screenshots";
import { seriousViolations } from "./axe";
import { expectInlineWithLabel } from "./inline-label";

// The judging screen on every device project: desktop (chromium), phone and tablet (playwright.config.ts).
// Touch tests (@touch) tap and run on the phone and tablet; keyboard and mouse tests (@desktop) on the desktop project.

/** The demo question whose gold passage ends "… first lit in 1871." */
const LIGHTHOUSE_QUERY = "-3290814144789249484";

/** Signs a new annotator in on this test's page (its context has the project's device). */
async function signInAnnotator(page: Page, admin: APIRequestContext): Promise<string> {
  const username = await createAccount(admin, "annotator", "devices");
  const res = await page.request.post("/api/auth/sign-in", { data: { username, password: PASSWORD } });
  expect(res.status(), await res.text()).toBe(200);
  return username;
}

/** A campaign with the demo pages and one demo question (its gold passage alone), launched. */
async function launchDemoQuestion(admin: APIRequestContext, settings: Record<string, unknown> = {}): Promise<number> {
  return (await launchDemoCampaign(admin, settings, { queryId: LIGHTHOUSE_QUERY })).campaignId;
}

const passage = (page: Page) => page.locator("article.passage");

/** A new demo question's campaign, a new annotator signed in on `page`, open on its passage; the campaign's id. */
async function openDemoPassage(page: Page, baseURL: string): Promise<number> {
  const admin = await adminApi(baseURL);
  const campaignId = await launchDemoQuestion(admin);
  await signInAnnotator(page, admin);
  await admin.dispose();
  await page.goto(`/annotate/${campaignId}`);
  await expect(passage(page)).toBeVisible();
  return campaignId;
}
const marks = (page: Page) => page.locator(".passage-body mark");

/** Taps or clicks `word` in the passage and expects the highlight to read `highlight` (the word alone unless given); the word's point. */
async function pressWord(page: Page, how: "tap" | "click", word: string, highlight = word): Promise<{ x: number; y: number }> {
  const point = await wordPoint(page, word);
  if (how === "tap") await page.touchscreen.tap(point.x, point.y);
  else await page.mouse.click(point.x, point.y);
  await expect(marks(page)).toHaveText(highlight);
  return point;
}
const nothingLeft = (page: Page) => page.getByRole("heading", { name: "Nothing left for you in this campaign" });
const submitButton = (page: Page) => page.getByRole("button", { name: /Submit$/ });
const sufficientButton = (page: Page) => page.getByRole("button", { name: /^(\S+ )?Sufficient$/ });

/** The stored judgment a submit brought back (POST /api/claims/:handle/judgment). */
function judgmentResponse(page: Page): Promise<Response> {
  return page.waitForResponse((r) => /\/api\/claims\/[^/]+\/judgment/.test(r.url()) && r.request().method() === "POST");
}

test(
  "a whole campaign judged by touch: tap a word to start, another to end, tap Sufficient and Submit; every judgment stored with its span",
  { tag: "@touch" },
  async ({ page, baseURL }) => {
    const admin = await adminApi(baseURL!);
    const { campaignId } = await launchedTwoQuestionBatch(admin, unique("touch"));
    await signInAnnotator(page, admin);
    await page.goto(`/annotate/${campaignId}`);

    const stored: { text: string; verdict: string }[] = [];
    const highlighted: string[] = [];
    for (let i = 0; i < 4; i++) {
      await expect(passage(page)).toBeVisible();
      const claim = await passage(page).getAttribute("data-claim");
      // Each passage is one sentence such as "The tower was lit in 1871." — from its first word to its last.
      const text = (await page.locator(".passage-body p").first().textContent())!.trim();
      const words = text.replace(/[.]$/, "").split(/\s+/);
      await pressWord(page, "tap", words[0]!);
      await pressWord(page, "tap", words.at(-1)!, words.join(" "));
      highlighted.push(words.join(" "));
      await sufficientButton(page).tap();
      await expect(sufficientButton(page)).toHaveAttribute("aria-pressed", "true");
      const answer = judgmentResponse(page);
      await submitButton(page).tap();
      const res = await answer;
      expect(res.status()).toBe(201);
      const { judgment } = await res.json();
      stored.push({ text: judgment.span.text, verdict: judgment.verdict });
      // The screen moves on: another passage, or the end.
      await expect(page.locator(`article.passage:not([data-claim="${claim}"])`).or(nothingLeft(page))).toBeVisible();
      if (i === 0) {
        // The Undo toast never lies over the instructions: under their sheet it waits, and comes back when the sheet closes.
        const undo = page.getByTestId("undo-bar");
        await expect(undo).toBeVisible();
        await page.getByRole("button", { name: "Instructions" }).tap();
        const sheet = page.getByRole("dialog", { name: "Instructions" });
        await expect(sheet).toBeVisible();
        await expect(undo).toBeHidden();
        await sheet.getByRole("button", { name: /^Hide/ }).tap();
        await expect(undo).toBeVisible();
      }
    }
    await expect(nothingLeft(page)).toBeVisible();
    expect(stored.map((s) => s.verdict)).toEqual(["sufficient", "sufficient", "sufficient", "sufficient"]);
    expect(stored.map((s) => s.text)).toEqual(highlighted);

    // The coordinator's export of judgments has all four, as the annotator's spans.
    const lines = (await (await admin.get(`/api/campaigns/${campaignId}/judgments`)).text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(4);
    await admin.dispose();
  },
);

test("a touch drag from the highlight moves its end, word-snapped", { tag: "@touch" }, async ({ page, baseURL }) => {
  await openDemoPassage(page, baseURL!);
  const start = await pressWord(page, "tap", "It");
  // Pointer events with touch: down on the highlight, sideways across the words (onto the next line), up on "engineer".
  const to = await wordPoint(page, "engineer");
  const cdp = await page.context().newCDPSession(page);
  const touch = (type: "touchStart" | "touchMove" | "touchEnd", x: number, y: number) =>
    cdp.send("Input.dispatchTouchEvent", { type, touchPoints: type === "touchEnd" ? [] : [{ x, y }] });
  await touch("touchStart", start.x, start.y);
  for (let s = 1; s <= 8; s++) await touch("touchMove", start.x + ((to.x - start.x) * s) / 8, start.y + ((to.y - start.y) * s) / 8);
  await touch("touchEnd", to.x, to.y);
  await expect(marks(page)).toHaveText("It was designed by the engineer");
});

test("phone and tablet layout: one header line, the verdict bar inside the screen with 44 px targets, no sideways scrolling; axe on the queue, the judging page and the instructions sheet", async ({
  page,
  baseURL,
}, testInfo) => {
  const admin = await adminApi(baseURL!);
  const campaignId = await launchDemoQuestion(admin, {
    sessionGoal: 200,
    instructions: "Judge the passage **alone**.\n\n- Highlight the *shortest* span.",
  });
  await signInAnnotator(page, admin);
  await admin.dispose();

  await page.goto("/annotate");
  await expect(page.getByRole("heading", { name: "Your queue" })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  await page.goto(`/annotate/${campaignId}`);
  await expect(passage(page)).toBeVisible();
  const isTouch = !!testInfo.project.use.hasTouch;
  // The instructions: a sheet (a modal dialog) on narrow screens, a column on wide ones.
  const narrow = page.viewportSize()!.width <= 820;
  const instructions = narrow
    ? page.getByRole("dialog", { name: "Instructions" })
    : page.getByRole("complementary", { name: "Instructions" });
  // Nothing shows through the verdict bar.
  expect(await page.locator(".verdict-bar").evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(255, 255, 255)");
  const quote = page.locator(".verdict-quote");
  if (isTouch) {
    // A touch screen: the texts say what a finger does, never a key; the sheet opens only when asked (a first visit opens it on a desktop).
    expect(await quote.innerText()).toBe("No highlight. Tap the first word of the answer, then its last.");
    await expect(instructions).toHaveCount(0);
    await page.getByRole("button", { name: "Instructions" }).tap();
    await expect(instructions).toBeVisible();
    await expect(instructions.getByRole("heading", { name: "Keys" })).toHaveCount(0);
    await expect(instructions.locator("kbd")).toHaveCount(0);
    await expect(instructions).toContainText("Tap the first word of the answer, then its last");
  } else {
    expect(await quote.innerText()).toMatch(/^No highlight\. Drag across the words .* Shift\+→/);
    await expect(instructions).toBeVisible();
    await expect(instructions.getByRole("heading", { name: "Keys" })).toBeVisible();
  }
  await expect(instructions.locator("strong")).toHaveText("alone");
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: screenshotPath(`judging-${testInfo.project.name}-instructions.png`) });
  const hide = instructions.getByRole("button", { name: /^Hide/ });
  if (isTouch) await hide.tap();
  else await hide.click();
  await expect(instructions).toHaveCount(0);
  // The question reads as a heading across the width, not a word per line.
  const question = await page.locator("h1.question").boundingBox();
  expect(question!.width).toBeGreaterThan(Math.min(page.viewportSize()!.width * 0.8, 600));

  // A highlight, then the checks with it on screen.
  await pressWord(page, isTouch ? "tap" : "click", "It");
  expect(await seriousViolations(page)).toEqual([]);

  // Portrait and landscape: the phone also at 390×844 (where the bar once overflowed) and 360 px, the tablet turned.
  const turned = { width: page.viewportSize()!.height, height: page.viewportSize()!.width };
  const sizes = {
    phone: [page.viewportSize()!, { width: 390, height: 844 }, { width: 360, height: 740 }, { width: 740, height: 360 }, turned],
    tablet: [page.viewportSize()!, turned],
  }[testInfo.project.name] ?? [page.viewportSize()!];
  for (const size of sizes) {
    await page.setViewportSize(size);
    const header = await page.locator(".judging-top").boundingBox();
    expect(header!.height, `header at ${size.width}×${size.height}`).toBeLessThanOrEqual(56);
    // Its parts side by side, none over another.
    const parts = await page.locator(".judging-top > :is(.campaign-name, .progress, .progress-meter, button, a)").evaluateAll((els) =>
      els
        .filter((el) => el.getClientRects().length > 0) // not the parts hidden at this width
        .map((el) => {
          const r = el.getBoundingClientRect();
          return { left: r.left, right: r.right, scrollWidth: el.scrollWidth, clientWidth: el.clientWidth, name: el.className };
        }),
    );
    for (let i = 1; i < parts.length; i++)
      expect(parts[i]!.left, `${parts[i]!.name} after ${parts[i - 1]!.name} at ${size.width}px`).toBeGreaterThanOrEqual(
        parts[i - 1]!.right - 0.5,
      );
    for (const p of parts.filter((p) => p.name !== "campaign-name"))
      expect(p.scrollWidth, `${p.name} fits its text at ${size.width}px`).toBeLessThanOrEqual(p.clientWidth + 1);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth),
      `sideways scrolling at ${size.width}×${size.height}`,
    ).toBeLessThanOrEqual(size.width);
    for (const button of await page.locator(".verdict-bar button").all()) {
      await expect(button).toBeInViewport({ ratio: 1 });
      if (isTouch) expect((await button.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    }
    await page.screenshot({ path: screenshotPath(`judging-${testInfo.project.name}-${size.width}x${size.height}.png`) });
  }
});

/** Presses keys and counts them. */
function keyCounter(page: Page) {
  let count = 0;
  return {
    press: async (key: string) => {
      count++;
      await page.keyboard.press(key);
    },
    get count() {
      return count;
    },
  };
}

test(
  "the answer sentence of a demo passage is highlighted in at most 5 key presses (S, S), and stored",
  { tag: "@desktop" },
  async ({ page, baseURL }) => {
    await openDemoPassage(page, baseURL!);

    const keys = keyCounter(page);
    const answer = "It was designed by the engineer Ana Kessler and first lit in 1871";
    // S takes the sentence at the cursor (the first, with no highlight); S again, the next one.
    for (let i = 0; i < 5 && (await marks(page).allTextContents()).join("") !== answer; i++) await keys.press("s");
    await expect(marks(page)).toHaveText(answer);
    expect(keys.count).toBeLessThanOrEqual(5);
    expect(keys.count).toBe(2);

    // Ctrl+Shift+← shrinks by a sentence (to the start word), Ctrl+Shift+→ grows back to the sentence's end.
    await page.keyboard.press("Control+Shift+ArrowLeft");
    await expect(marks(page)).toHaveText("It");
    await page.keyboard.press("Control+Shift+ArrowRight");
    await expect(marks(page)).toHaveText(answer);

    await page.keyboard.press("1");
    const saved = judgmentResponse(page);
    await page.keyboard.press("Enter");
    const res = await saved;
    expect(res.status()).toBe(201);
    const { judgment } = await res.json();
    // KILT offsets in code points: the sentence starts after the Old Italic letters (3 astral code points).
    expect(judgment.span).toMatchObject({ startParagraphId: 1, endParagraphId: 1, endCharacter: 180, text: answer });
  },
);

test("a click sets the highlight's start and Shift+click its end", { tag: "@desktop" }, async ({ page, baseURL }) => {
  await openDemoPassage(page, baseURL!);
  await pressWord(page, "click", "designed");
  const kessler = await wordPoint(page, "Kessler");
  await page.keyboard.down("Shift");
  await page.mouse.click(kessler.x, kessler.y);
  await page.keyboard.up("Shift");
  await expect(marks(page)).toHaveText("designed by the engineer Ana Kessler");
  // A plain click elsewhere starts again.
  await pressWord(page, "click", "lit");
});

test(
  "shortcuts remapped on the account page are the judging page's keys; turned off, single keys do nothing and Enter still submits",
  { tag: "@desktop" },
  async ({ page, baseURL }) => {
    const admin = await adminApi(baseURL!);
    const campaignId = await launchDemoQuestion(admin);
    await signInAnnotator(page, admin);
    await admin.dispose();

    // Remap "Sufficient" to Y on the account page; a duplicate is refused beside its field first.
    await page.goto("/account");
    const form = page.getByRole("form", { name: "Judging shortcuts" });
    await expect(form).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await form.getByLabel("Sufficient", { exact: true }).fill("2");
    await form.getByRole("button", { name: "Save shortcuts" }).click();
    await expect(form.getByText('"2" is already the key of insufficient')).toBeVisible();
    await form.getByLabel("Sufficient", { exact: true }).fill("y");
    await form.getByRole("button", { name: "Save shortcuts" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Shortcuts saved" })).toBeVisible();
    expect((await (await page.request.get("/api/me/shortcuts")).json()).shortcuts).toEqual({ enabled: true, keys: { sufficient: "y" } });

    await page.goto(`/annotate/${campaignId}`);
    await expect(passage(page)).toBeVisible();
    await page.keyboard.press("s");
    await expect(marks(page)).not.toHaveCount(0);
    await page.keyboard.press("1");
    await expect(sufficientButton(page)).toHaveAttribute("aria-pressed", "false");
    await page.keyboard.press("y");
    await expect(page.getByRole("button", { name: "Y Sufficient" })).toHaveAttribute("aria-pressed", "true");
    // The draft stays with the claim: leave it at "Not sufficient" (no highlight) for the next visit.
    await page.getByRole("button", { name: "2 Not sufficient" }).click();
    await expect(marks(page)).toHaveCount(0);

    // Off: no single key acts (not even S or ?); Shift+→, Ctrl+Shift+→, Esc and Enter still do.
    await page.goto("/account");
    await expectInlineWithLabel(form.getByLabel("Single-key shortcuts on the judging page"), "the shortcuts checkbox");
    await form.getByLabel("Single-key shortcuts on the judging page").uncheck();
    await form.getByRole("button", { name: "Save shortcuts" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Shortcuts saved" })).toBeVisible();
    await page.goto(`/annotate/${campaignId}`);
    await expect(passage(page)).toBeVisible();
    await expect(page.getByRole("button", { name: "Not sufficient", exact: true })).toHaveAttribute("aria-pressed", "true");
    for (const key of ["s", "y", "1", "u", "]", "?"]) await page.keyboard.press(key);
    await expect(marks(page)).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Sufficient", exact: true })).toHaveAttribute("aria-pressed", "false");
    await expect(page.getByRole("button", { name: "Unreadable", exact: true })).toHaveAttribute("aria-pressed", "false");
    await expect(page.getByRole("complementary", { name: "Instructions" })).toHaveCount(0);
    await page.keyboard.press("Shift+ArrowRight");
    await expect(marks(page)).toHaveText("Velmora");
    await page.keyboard.press("Control+Shift+ArrowRight");
    await expect(marks(page)).toHaveText(/^Velmora Lighthouse .* harbour$/);
    await page.getByRole("button", { name: "Sufficient", exact: true }).click();
    const saved = judgmentResponse(page);
    await page.keyboard.press("Enter");
    expect((await saved).status()).toBe(201);
  },
);

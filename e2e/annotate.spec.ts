import fs from "node:fs";
import { expect, test, type APIRequestContext, type Browser, type BrowserContext, type Page } from "@playwright/test";
import {
  accounts,
  adminApi,
  createAccount,
  demoFile,
  importKnowledgePage,
  launchDemoCampaign,
  signedInApi,
  signInWithForm,
  storageStatePath,
  unique,
} from "./fixtures";
import { screenshotPath } from "./screenshots";
import { seriousViolations } from "./axe";

/** The demo knowledge source, read by the test itself: spans are checked against it by code points. */
const demoPages = new Map(
  fs
    .readFileSync(demoFile("knowledge.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as { wikipedia_id: string; text: string[] })
    .map((p) => [p.wikipedia_id, p.text] as const),
);

interface Location {
  startParagraphId: number;
  startCharacter: number;
  endParagraphId: number;
  endCharacter: number;
}

/** KILT's slice: code points (Array.from), end exclusive; across paragraphs tail + middles + head. */
function kiltSlice(wikipediaId: string, loc: Location): string {
  const text = demoPages.get(wikipediaId);
  if (!text) throw new Error(`no demo page ${wikipediaId}`);
  const cps = (i: number) => Array.from(text[i] ?? "");
  if (loc.startParagraphId === loc.endParagraphId) return cps(loc.startParagraphId).slice(loc.startCharacter, loc.endCharacter).join("");
  return [
    cps(loc.startParagraphId).slice(loc.startCharacter).join(""),
    ...text.slice(loc.startParagraphId + 1, loc.endParagraphId),
    cps(loc.endParagraphId).slice(0, loc.endCharacter).join(""),
  ].join("");
}

/** A new annotator account, signed in through the sign-in form (keyboard) in its own browser context. */
/** A new annotator signed in in their own browser context, made through a short-lived admin API. */
async function freshAnnotator(browser: Browser, baseURL: string) {
  const admin = await adminApi(baseURL);
  const a = await annotator(browser, admin);
  await admin.dispose();
  return a;
}

async function annotator(
  browser: Browser,
  admin: APIRequestContext,
  viewport = { width: 1280, height: 800 },
): Promise<{ username: string; context: BrowserContext; page: Page }> {
  const username = await createAccount(admin, "annotator");
  // Not the coordinator's session that test.use gives this file's contexts.
  const context = await browser.newContext({ viewport, storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await signInWithForm(page, username);
  return { username, context, page };
}

interface SeenTask {
  claim: { handle: string };
  query: { id: string; input: string };
  passage: { wikipediaId: string; paragraphs: { id: number; text: string }[] };
}
interface StoredJudgment {
  /** The claim's handle: the API shows no database id. */
  claim: string;
  verdict: "sufficient" | "insufficient";
  unreadable: boolean;
  span: (Location & { text: string }) | null;
  durationMs: number;
}

/** Records the tasks and the acknowledged judgments a page receives. */
function recordApi(page: Page) {
  const tasks = new Map<string, SeenTask>(); // by claim handle
  const judgments: { claim: string; status: number; judgment: StoredJudgment; requestBody: Record<string, unknown> }[] = [];
  page.on("response", async (res) => {
    const url = new URL(res.url());
    if (res.request().method() !== "POST") return;
    // A reload can drop a body before it is read (a prefetch cut off): those are not recorded.
    const body = await res.json().catch(() => undefined);
    if (body === undefined) return;
    if (/^\/api\/campaigns\/\d+\/next$/.test(url.pathname) && res.status() === 200) {
      const task = body as SeenTask;
      tasks.set(task.claim.handle, task);
    }
    const judged = /^\/api\/claims\/([A-Za-z0-9_-]+)\/judgment$/.exec(url.pathname);
    if (judged && (res.status() === 201 || res.status() === 200)) {
      // ?next=1: the answer brings the next task too.
      const next = (body as { next?: SeenTask | null }).next;
      if (next) tasks.set(next.claim.handle, next);
      judgments.push({
        claim: judged[1]!,
        status: res.status(),
        judgment: (body as { judgment: StoredJudgment }).judgment,
        requestBody: res.request().postDataJSON() as Record<string, unknown>,
      });
    }
  });
  return { tasks, judgments };
}

const passageOn = (page: Page) => page.locator("article.passage");
const nothingLeft = (page: Page) => page.getByRole("heading", { name: "Nothing left for you in this campaign" });

async function claimOnScreen(page: Page): Promise<string> {
  await expect(passageOn(page)).toBeVisible();
  return (await passageOn(page).getAttribute("data-claim"))!;
}

/** Waits until the passage on screen is another one than `claim`, or nothing is left. */
async function nextAfter(page: Page, claim: string): Promise<"task" | "done"> {
  const other = page.locator(`article.passage:not([data-claim="${claim}"])`);
  await expect(other.or(nothingLeft(page))).toBeVisible();
  return (await nothingLeft(page).isVisible()) ? "done" : "task";
}

type Choice = "sufficient" | "insufficient" | "unreadable";

/** Judges one passage with the keyboard only. */
async function judgeByKeyboard(page: Page, choice: Choice, words: number): Promise<void> {
  if (choice === "sufficient") {
    for (let i = 0; i < words; i++) await page.keyboard.press("Shift+ArrowRight");
    await expect(page.locator(".passage-body mark").first()).toBeVisible();
    await page.keyboard.press("1");
  } else {
    await page.keyboard.press(choice === "unreadable" ? "u" : "2");
  }
  await page.keyboard.press("Enter");
}

/** Works the whole queue with the keyboard; returns how many passages were judged. */
async function workQueue(page: Page, pick: (i: number) => Choice): Promise<number> {
  await expect(passageOn(page).or(nothingLeft(page))).toBeVisible();
  for (let i = 0; ; i++) {
    if (await nothingLeft(page).isVisible()) return i;
    const claim = await claimOnScreen(page);
    await judgeByKeyboard(page, pick(i), 1 + (i % 4));
    if ((await nextAfter(page, claim)) === "done") return i + 1;
    await expect(page.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();
  }
}

interface ExportLine {
  passage_id: number;
  wikipedia_id: string;
  annotator: string;
  verdict: "sufficient" | "insufficient";
  unreadable: boolean;
  span: { start_paragraph_id: number; start_character: number; end_paragraph_id: number; end_character: number; text: string } | null;
}

test.describe("the judging screen", () => {
  test.use({ storageState: storageStatePath("coordinator"), viewport: { width: 1280, height: 800 } });

  test("three annotators complete a batch with the keyboard only, concurrently: three judgments per passage, spans exact by code points @smoke", async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(240_000);
    const { campaignId, passages } = await launchDemoCampaign(page.request, {
      instructions: "Highlight the **shortest** span that answers the question.",
    });
    const admin = await adminApi(baseURL!);
    const people = await Promise.all([0, 1, 2].map(() => annotator(browser, admin)));
    await admin.dispose();
    const records = people.map((p) => recordApi(p.page));

    // Different rhythms per annotator; every one gives sufficient verdicts with keyboard highlights.
    const rhythms: ((i: number) => Choice)[] = [
      (i) => (i % 2 === 0 ? "sufficient" : "insufficient"),
      (i) => (i % 3 === 2 ? "unreadable" : "sufficient"),
      (i) => (i % 3 === 0 ? "insufficient" : "sufficient"),
    ];
    const counts = await Promise.all(
      people.map(async (p, n) => {
        await p.page.goto(`/annotate/${campaignId}`);
        // First visit: the instructions open beside the passage (rendered Markdown); `?` hides them.
        const instructions = p.page.getByRole("complementary", { name: "Instructions" });
        await expect(instructions.locator("strong")).toHaveText("shortest");
        await p.page.keyboard.press("?");
        await expect(instructions).toHaveCount(0);
        return workQueue(p.page, rhythms[n]!);
      }),
    );

    // Everyone judged every passage and reached the calm end screen.
    expect(counts).toEqual([passages, passages, passages]);
    for (const p of people) {
      await expect(nothingLeft(p.page)).toBeVisible();
      await expect(p.page.getByRole("link", { name: "Back to your queue" })).toBeVisible();
    }

    // What each browser was told: every acknowledged span reads back from the page by code points.
    for (const r of records) {
      await expect.poll(() => r.judgments.length).toBe(passages);
      const where = (t: SeenTask) => `${t.passage.wikipediaId}:${t.passage.paragraphs.map((p) => p.id).join(",")}`;
      expect(new Set(r.judgments.map((j) => where(r.tasks.get(j.claim)!))).size).toBe(passages);
      expect(r.judgments.filter((j) => j.judgment.verdict === "sufficient").length).toBeGreaterThan(0);
      for (const { claim, judgment } of r.judgments) {
        const task = r.tasks.get(claim)!;
        expect(judgment.claim).toBe(claim);
        expect(judgment.span === null).toBe(judgment.verdict === "insufficient");
        if (judgment.span) {
          expect(judgment.span.text.length).toBeGreaterThan(0);
          expect(judgment.span.text).toBe(kiltSlice(task.passage.wikipediaId, judgment.span));
        }
      }
    }

    // One fresh idempotency key per judgment, and the time spent on each.
    const sentBodies = records.flatMap((r) => r.judgments.map((j) => j.requestBody));
    expect(new Set(sentBodies.map((b) => b.idempotencyKey)).size).toBe(3 * passages);
    for (const b of sentBodies) expect(b.durationMs).toBeGreaterThan(0);

    // The coordinator's audit export: exactly three judgments per passage, by three distinct annotators.
    const exported = await page.request.get(`/api/campaigns/${campaignId}/judgments`);
    expect(exported.status(), await exported.text()).toBe(200);
    const lines = (await exported.text())
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as ExportLine);
    expect(lines).toHaveLength(3 * passages);
    const byPassage = new Map<number, ExportLine[]>();
    for (const line of lines) byPassage.set(line.passage_id, [...(byPassage.get(line.passage_id) ?? []), line]);
    expect(byPassage.size).toBe(passages);
    for (const judged of byPassage.values()) {
      expect(judged).toHaveLength(3);
      expect(new Set(judged.map((j) => j.annotator)).size).toBe(3);
      for (const j of judged) {
        expect(j.span === null).toBe(j.verdict === "insufficient");
        if (!j.span) continue;
        const wikipediaId = j.wikipedia_id;
        const loc = {
          startParagraphId: j.span.start_paragraph_id,
          startCharacter: j.span.start_character,
          endParagraphId: j.span.end_paragraph_id,
          endCharacter: j.span.end_character,
        };
        expect(j.span.text).toBe(kiltSlice(wikipediaId, loc));
      }
    }
    await Promise.all(people.map((p) => p.context.close()));
  });

  test("a reload keeps the claim and its draft: same passage, same highlight, same verdict", async ({ page, browser, baseURL }) => {
    const { campaignId } = await launchDemoCampaign(page.request);
    const a = await freshAnnotator(browser, baseURL!);
    const record = recordApi(a.page);
    // /next requests on their way: a judgment asks for the next task in its answer only once the prefetch is in.
    let nextInFlight = 0;
    a.page.on("request", (req) => void (/\/next(\?|$)/.test(req.url()) && nextInFlight++));
    a.page.on("requestfinished", (req) => void (/\/next(\?|$)/.test(req.url()) && nextInFlight--));
    a.page.on("requestfailed", (req) => void (/\/next(\?|$)/.test(req.url()) && nextInFlight--));

    await a.page.goto(`/annotate/${campaignId}`);
    const claim = await claimOnScreen(a.page);
    const question = await a.page.locator("h1.question").textContent();
    for (let i = 0; i < 3; i++) await a.page.keyboard.press("Shift+ArrowRight");
    await a.page.keyboard.press("1");
    const marked = await a.page.locator(".passage-body mark").allTextContents();
    expect(marked.join("").split(/\s+/).filter(Boolean).length).toBeGreaterThanOrEqual(2);
    await expect(a.page.getByRole("button", { name: "1 Sufficient" })).toHaveAttribute("aria-pressed", "true");
    const quoted = await a.page.locator(".verdict-bar q").textContent();

    await a.page.reload();
    expect(await claimOnScreen(a.page)).toBe(claim);
    await expect(a.page.locator("h1.question")).toHaveText(question!);
    expect(await a.page.locator(".passage-body mark").allTextContents()).toEqual(marked);
    await expect(a.page.locator(".verdict-bar q")).toHaveText(quoted!);
    await expect(a.page.getByRole("button", { name: "1 Sufficient" })).toHaveAttribute("aria-pressed", "true");

    // Shift+← shrinks the restored highlight by a word, Shift+→ grows it back; Alt+→ / Alt+← move its
    // start (and Alt+← is not the browser's Back).
    const url = a.page.url();
    await a.page.keyboard.press("Shift+ArrowLeft");
    await expect(a.page.locator(".verdict-bar q")).not.toHaveText(quoted!);
    await a.page.keyboard.press("Shift+ArrowRight");
    await expect(a.page.locator(".verdict-bar q")).toHaveText(quoted!);
    await a.page.keyboard.press("Alt+ArrowRight");
    await expect(a.page.locator(".verdict-bar q")).not.toHaveText(quoted!);
    await a.page.keyboard.press("Alt+ArrowLeft");
    await expect(a.page.locator(".verdict-bar q")).toHaveText(quoted!);
    expect(a.page.url()).toBe(url);

    // The next passage is already here (prefetched after the one on screen): it shows at once.
    await expect.poll(() => [...record.tasks.keys()].filter((c) => c !== claim).length).toBe(1);
    const prefetched = [...record.tasks.keys()].find((c) => c !== claim)!;
    const nextRequests: string[] = [];
    const judgmentRequests: string[] = [];
    a.page.on("request", (req) => {
      if (/\/next/.test(req.url())) nextRequests.push(new URL(req.url()).search);
      if (/\/judgment/.test(req.url())) judgmentRequests.push(new URL(req.url()).search);
    });
    await expect.poll(() => nextInFlight).toBe(0);
    await a.page.keyboard.press("Enter");
    await nextAfter(a.page, claim);
    expect(await claimOnScreen(a.page)).toBe(prefetched);
    // One request per passage: the judgment brings the task after the prefetched one (the new prefetch).
    await expect.poll(() => judgmentRequests).toEqual([`?next=1&after=${prefetched}`]);
    await expect.poll(() => [...record.tasks.keys()].filter((c) => c !== claim && c !== prefetched).length).toBe(1);
    expect(nextRequests).toEqual([]);
    await expect(a.page.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();
    await expect.poll(() => record.judgments.length).toBe(1);
    const [saved] = record.judgments;
    expect(saved!.claim).toBe(claim);
    expect(saved!.status).toBe(201);
    expect(saved!.judgment.verdict).toBe("sufficient");
    expect(saved!.judgment.span!.text.replace(/\s+/g, " ")).toBe(quoted!.replace(/\s+/g, " "));
    expect(saved!.judgment.durationMs).toBeGreaterThan(0);
    // The draft is gone once acknowledged.
    expect(await a.page.evaluate(([c, k]) => localStorage.getItem(`kps:draft:${c}:${k}`), [campaignId, saved!.claim] as const)).toBeNull();
    await a.context.close();
  });

  test("a judgment whose answer is lost is sent again with the same key and stored once; Esc, 2 and U clear the highlight", async ({
    page,
    browser,
    baseURL,
  }) => {
    const { campaignId } = await launchDemoCampaign(page.request);
    const a = await freshAnnotator(browser, baseURL!);
    const record = recordApi(a.page);
    const sent: { key: string; body: string }[] = [];
    let attempts = 0;
    await a.page.route("**/api/claims/*/judgment*", async (route) => {
      const body = route.request().postData() ?? "";
      sent.push({ key: (JSON.parse(body) as { idempotencyKey: string }).idempotencyKey, body });
      attempts++;
      if (attempts === 1) {
        // The server stores it, but the answer never reaches the browser.
        await route.fetch();
        await route.abort("connectionreset");
      } else if (attempts === 2) {
        await route.fulfill({
          status: 503,
          contentType: "application/json",
          body: JSON.stringify({ error: { code: "unavailable", message: "try again" } }),
        });
      } else {
        await route.continue();
      }
    });

    await a.page.goto(`/annotate/${campaignId}`);
    const claim = await claimOnScreen(a.page);
    const mark = a.page.locator(".passage-body mark");
    // Esc clears a highlight; 2 and U clear it too.
    await a.page.keyboard.press("Shift+ArrowRight");
    await expect(mark).toHaveCount(1);
    await a.page.keyboard.press("Escape");
    await expect(mark).toHaveCount(0);
    await a.page.keyboard.press("]"); // the start edge: begins a highlight at the first word too
    await expect(mark).toHaveCount(1);
    await a.page.keyboard.press("u");
    await expect(mark).toHaveCount(0);
    await expect(a.page.getByRole("button", { name: "U Unreadable" })).toHaveAttribute("aria-pressed", "true");
    // 1 with no highlight asks for one instead of submitting.
    await a.page.keyboard.press("1");
    await a.page.keyboard.press("Enter");
    await expect(a.page.getByRole("status")).toContainText("Highlight the words that answer the question");
    expect(sent).toHaveLength(0);
    for (let i = 0; i < 2; i++) await a.page.keyboard.press("Shift+ArrowRight");
    await a.page.keyboard.press("Enter");

    await expect(a.page.getByRole("status")).toContainText("Not saved — retrying");
    expect(await nextAfter(a.page, claim)).toBe("task");
    await expect(a.page.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();
    expect(sent.length).toBe(3);
    expect(new Set(sent.map((s) => s.key)).size).toBe(1);
    expect(new Set(sent.map((s) => s.body)).size).toBe(1);
    // The third attempt found the first one's judgment: a replay (200), one judgment stored.
    await expect.poll(() => record.judgments.map((j) => j.status)).toEqual([200]);
    const exported = await page.request.get(`/api/campaigns/${campaignId}/judgments`);
    expect(exported.status()).toBe(200);
    const lines = (await exported.text()).split("\n").filter(Boolean);
    expect(lines).toHaveLength(1);
    await a.context.close();
  });

  test("a mouse drag snaps to whole words; offsets are code points past letters outside the BMP", async ({ page, browser, baseURL }) => {
    // Velmora Lighthouse ¶1: three Old Italic letters (two UTF-16 units each) come before "first lit in 1871".
    const { campaignId } = await launchDemoCampaign(page.request, {}, { queryId: "-3290814144789249484" });
    const a = await freshAnnotator(browser, baseURL!);
    const record = recordApi(a.page);
    await a.page.goto(`/annotate/${campaignId}`);
    await claimOnScreen(a.page);
    const paragraph = a.page.locator('.passage-body [data-paragraph="1"]');
    await expect(paragraph).toContainText("first lit in 1871");

    // From inside "first" to inside "1871", by the characters' boxes on screen.
    const box = (needle: string, from: number, to: number) =>
      paragraph.evaluate(
        (el, [n, f, t]) => {
          const node = el.querySelector("[data-cp]")!.firstChild as Text;
          const at = node.data.indexOf(n as string);
          const range = document.createRange();
          range.setStart(node, at + (f as number));
          range.setEnd(node, at + (t as number));
          const r = range.getBoundingClientRect();
          return { x: r.left, y: r.top + r.height / 2, right: r.right };
        },
        [needle, from, to] as const,
      );
    const start = await box("first lit", 2, 3); // the "r" of "first"
    const end = await box("1871", 1, 2); // the "8" of "1871"
    await a.page.mouse.move(start.x + 1, start.y);
    await a.page.mouse.down();
    await a.page.mouse.move(end.right - 1, end.y, { steps: 8 });
    await a.page.mouse.up();

    await expect(a.page.locator(".passage-body mark")).toHaveText("first lit in 1871");

    // Only the passage can be selected: select-all holds none of the question, the buttons or the bars.
    await a.page.keyboard.press("Control+A");
    const selected = await a.page.evaluate(() => window.getSelection()?.toString() ?? "");
    expect(selected).toContain("decommissioned lighthouse");
    for (const chrome of ["when was velmora", "Sufficient", "Instructions", "Highlight", "Question", "judged today", "Sign out"])
      expect(selected).not.toContain(chrome);
    await a.page.evaluate(() => window.getSelection()?.removeAllRanges());
    await expect(a.page.locator(".passage-body mark")).toHaveText("first lit in 1871");
    await expect(a.page.locator(".verdict-bar q")).toHaveText("first lit in 1871");
    await a.page.keyboard.press("1");
    await a.page.keyboard.press("Enter");
    await expect(nothingLeft(a.page)).toBeVisible();
    await expect.poll(() => record.judgments.length).toBe(1);
    expect(record.judgments[0]!.status).toBe(201);
    // 1871 ends at code point 180 (UTF-16 unit 183): the span the server accepted is in code points.
    expect(record.judgments[0]!.judgment.span).toEqual({
      startParagraphId: 1,
      startCharacter: 163,
      endParagraphId: 1,
      endCharacter: 180,
      text: "first lit in 1871",
    });
    expect(kiltSlice("61237001", record.judgments[0]!.judgment.span!)).toBe("first lit in 1871");
    await a.context.close();
  });

  test("a claim that expired and went to someone else (410) is said so, and the next passage comes", async ({ page, browser, baseURL }) => {
    const { campaignId } = await launchDemoCampaign(page.request);
    const a = await freshAnnotator(browser, baseURL!);
    // The server's answer when the lease ran out and another annotator took the slot.
    await a.page.route("**/api/claims/*/judgment*", (route) =>
      route.fulfill({
        status: 410,
        contentType: "application/json",
        body: JSON.stringify({
          error: { code: "gone", message: "Your claim on this passage expired and its slot went to another annotator." },
        }),
      }),
    );
    await a.page.goto(`/annotate/${campaignId}`);
    const claim = await claimOnScreen(a.page);
    await a.page.keyboard.press("2");
    await a.page.keyboard.press("Enter");
    expect(await nextAfter(a.page, claim)).toBe("task");
    await expect(a.page.getByRole("status")).toContainText("expired");
    expect(await a.page.evaluate(([c, k]) => localStorage.getItem(`kps:draft:${c}:${k}`), [campaignId, claim])).toBeNull();
    await a.context.close();
  });

  test("claims on screen are renewed every lease/3", async ({ page, browser, baseURL }) => {
    const { campaignId } = await launchDemoCampaign(page.request, { leaseMinutes: 1 });
    const a = await freshAnnotator(browser, baseURL!);
    const record = recordApi(a.page);
    const renewed: string[] = [];
    a.page.on("request", (req) => {
      const m = /\/api\/claims\/([A-Za-z0-9_-]+)\/renew$/.exec(new URL(req.url()).pathname);
      if (m) renewed.push(m[1]!);
    });
    await a.page.clock.install();
    await a.page.goto(`/annotate/${campaignId}`);
    const claim = await claimOnScreen(a.page);
    await expect.poll(() => record.tasks.size).toBe(2); // the passage on screen and the prefetched one
    await a.page.clock.fastForward(21_000);
    await expect.poll(() => new Set(renewed).size).toBe(2);
    expect(renewed).toContain(claim);
    await a.context.close();
  });

  test("blind: nothing the browser receives holds gold flags, judgment counts or another annotator's name", async ({
    page,
    browser,
    baseURL,
  }) => {
    const { campaignId } = await launchDemoCampaign(page.request, { showAnswers: true });
    const admin = await adminApi(baseURL!);
    // Another annotator judges first, so there are others' judgments the server could leak.
    const otherName = await createAccount(admin, "annotator", "other");
    const other = await signedInApi(baseURL!, otherName);
    for (let i = 0; i < 3; i++) {
      const next = await other.post(`/api/campaigns/${campaignId}/next`);
      expect(next.status()).toBe(200);
      const task = (await next.json()) as SeenTask;
      const judged = await other.post(`/api/claims/${task.claim.handle}/judgment`, {
        data: { verdict: "insufficient", span: null, unreadable: false, durationMs: 1000, idempotencyKey: unique("other-key") },
      });
      expect(judged.status()).toBe(201);
    }
    await other.dispose();
    const a = await annotator(browser, admin);
    await admin.dispose();

    const bodies: { url: string; body: string }[] = [];
    a.page.on("response", async (res) => {
      const url = new URL(res.url());
      // Build assets are the same files for everyone and carry no data.
      if (url.pathname.startsWith("/_next/static/") || res.status() === 204 || (res.status() >= 300 && res.status() < 400)) return;
      bodies.push({ url: url.pathname + url.search, body: await res.text().catch(() => "") });
    });
    await a.page.goto("/annotate");
    await a.page.goto(`/annotate/${campaignId}`);
    // Answers are shown in this campaign; gold status never is.
    await expect(a.page.locator(".answers")).toBeVisible();
    await workQueue(a.page, (i) => (i % 2 ? "sufficient" : "insufficient"));
    await a.page.reload();
    await expect(nothingLeft(a.page)).toBeVisible();

    expect(bodies.some((b) => /\/api\/campaigns\/\d+\/next/.test(b.url))).toBe(true);
    expect(bodies.some((b) => /\/judgment(\?|$)/.test(b.url))).toBe(true);
    expect(bodies.some((b) => b.url === `/annotate/${campaignId}` && b.body.includes("<html"))).toBe(true);
    const forbidden = [
      /\bgold\b/i,
      /isGold/i,
      /is_gold/i,
      /\bexpected/i,
      /judgmentCount/i,
      /judgment_count/i,
      /sufficientCount/i,
      /openSlots/i,
      /claimCount/i,
    ];
    for (const { url, body } of bodies) {
      for (const pattern of forbidden) expect(body, `${url} matches ${pattern}`).not.toMatch(pattern);
      expect(body, `${url} names another annotator`).not.toContain(otherName);
      expect(body, `${url} names the coordinator`).not.toContain(accounts().coordinator);
    }
    await a.context.close();
  });

  test("the paragraphs before and after: fetched when asked for, by button (tap) or C, muted and labelled, never highlighted, the span kept to the passage", async ({
    browser,
    baseURL,
  }) => {
    const admin = await adminApi(baseURL!);
    const wikipediaId = unique("context-page");
    const text = [
      "Context lighthouse\n",
      "One: the cape was charted.\n",
      "Two: a beacon burned there.\n",
      "Section::::History.\n",
      "Four: the tower was first lit in 1871.\n",
      "Five: it was relit in 2005.\n",
      "Seven: a museum opened.\n",
    ];
    await importKnowledgePage(admin, wikipediaId, "Context lighthouse", text);
    const created = await admin.post("/api/campaigns", {
      data: { name: unique("e2e-context"), goldAccuracyThreshold: 0, askWhenNoneSufficient: false },
    });
    const campaignId: number = (await created.json()).campaign.id;
    const provenance = [{ wikipedia_id: wikipediaId, start_paragraph_id: 4, end_paragraph_id: 4 }];
    const line = JSON.stringify({ id: unique("q"), input: "when was the tower first lit", output: [{ answer: "1871", provenance }] });
    const batch = await admin.post(`/api/campaigns/${campaignId}/batches`, {
      multipart: { queries: { name: "q.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(line + "\n") } },
    });
    expect(batch.status(), await batch.text()).toBe(201);
    expect((await admin.post(`/api/batches/${(await batch.json()).batch.id}/launch`)).status()).toBe(200);
    const username = await createAccount(admin, "annotator", "context");
    await admin.dispose();
    const context = await browser.newContext({
      viewport: { width: 1440, height: 900 },
      hasTouch: true,
      storageState: { cookies: [], origins: [] },
    });
    const page = await context.newPage();
    await signInWithForm(page, username);
    const asked: string[] = [];
    page.on("request", (r) => void (r.url().endsWith("/context") && asked.push(r.url())));
    await page.goto(`/annotate/${campaignId}`);
    await claimOnScreen(page);
    const toggle = page.getByRole("button", { name: /Show the paragraphs before and after/ });
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    expect(asked).toEqual([]); // nothing fetched until the control is used

    await toggle.tap();
    const before = page.getByRole("region", { name: "Before the passage (context, not part of it)" });
    const after = page.getByRole("region", { name: "After the passage (context, not part of it)" });
    await expect(before).toContainText("Before · context, not part of the passage");
    await expect(before.locator("p[data-context-paragraph]")).toHaveText(["One: the cape was charted.", "Two: a beacon burned there."]);
    await expect(before).toContainText("History");
    await expect(after.locator("p[data-context-paragraph]")).toHaveText(["Five: it was relit in 2005.", "Seven: a museum opened."]);
    await expect(page.getByRole("button", { name: /Hide the paragraphs before and after/ })).toHaveAttribute("aria-expanded", "true");
    expect(asked).toHaveLength(1);
    // Muted: another colour and background than the passage's text.
    const colour = (l: ReturnType<Page["locator"]>) => l.evaluate((e) => getComputedStyle(e).color + getComputedStyle(e).backgroundColor);
    expect(await colour(after)).not.toBe(await colour(page.locator(".passage-body")));
    for (const size of [
      { width: 1440, height: 900 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(size);
      expect(await seriousViolations(page), `${size.width} px`).toEqual([]);
      await page.screenshot({ path: screenshotPath(`judging-context-${size.width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1440, height: 900 });

    // The context takes no highlight: a tap, a click and a mouse drag on it leave none.
    const five = after.locator("p[data-context-paragraph]").first();
    await five.tap();
    await five.click();
    const two = await before.locator("p[data-context-paragraph]").nth(1).boundingBox();
    await page.mouse.move(two!.x + 4, two!.y + two!.height / 2);
    await page.mouse.down();
    await page.mouse.move(two!.x + two!.width - 4, two!.y + two!.height / 2, { steps: 5 });
    await page.mouse.up();
    await expect(page.locator("article.passage mark")).toHaveCount(0);

    // C hides and shows it again (the answer kept: no second request); then a sentence of the passage is judged.
    await page.locator("h1.question").focus();
    await page.keyboard.press("c");
    await expect(before).toHaveCount(0);
    await page.keyboard.press("c");
    await expect(after).toContainText("Seven: a museum opened.");
    expect(asked).toHaveLength(1);
    await page.keyboard.press("s");
    await page.keyboard.press("1");
    await expect(page.locator(".passage-body mark")).toHaveText("Four: the tower was first lit in 1871");
    const sent = page.waitForRequest((r) => r.url().includes("/judgment") && r.method() === "POST");
    await page.keyboard.press("Enter");
    expect((await sent).postDataJSON().span).toEqual({
      startParagraphId: 4,
      startCharacter: 0,
      endParagraphId: 4,
      endCharacter: 37,
      text: "Four: the tower was first lit in 1871",
    });
    await expect(nothingLeft(page)).toBeVisible();
    await context.close();
  });

  test("accessibility: no serious or critical axe violation on the judging page (with a highlight) and on the queue; screenshots", async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(120_000); // a whole queue judged, axe on four screens, two screenshots: near 60 s on a loaded 2-core machine
    const { campaignId, name } = await launchDemoCampaign(page.request, {
      showAnswers: true,
      instructions:
        "Judge whether the passage **alone** lets you answer the question.\n\n- Highlight the *shortest* span that does.\n- A list or table you cannot read is **Unreadable**.\n\nSee the [KILT paper](https://arxiv.org/abs/2009.02252). <b>Raw HTML</b> is not rendered.",
    });
    const a = await freshAnnotator(browser, baseURL!);
    const serious = () => seriousViolations(a.page);

    await a.page.goto("/annotate");
    const start = a.page.getByRole("link", { name: `Start ${name}` });
    await expect(start).toBeVisible();
    expect(await serious()).toEqual([]);

    await start.focus();
    await a.page.keyboard.press("Enter");
    await expect(a.page).toHaveURL(new RegExp(`/annotate/${campaignId}$`));
    await claimOnScreen(a.page);
    // The instructions open on a first visit: Markdown rendered, links kept.
    const instructions = a.page.getByRole("complementary", { name: "Instructions" });
    await expect(instructions.getByRole("link", { name: "KILT paper" })).toHaveAttribute("href", "https://arxiv.org/abs/2009.02252");
    await expect(instructions.locator("strong").first()).toHaveText("alone");
    await expect(instructions.locator("b")).toHaveCount(0);
    await a.page.keyboard.press("Shift+ArrowRight");
    await a.page.keyboard.press("Shift+ArrowRight");
    await a.page.keyboard.press("Shift+ArrowRight");
    await a.page.keyboard.press("1");
    await expect(a.page.locator(".passage-body mark").first()).toBeVisible();
    expect(await serious()).toEqual([]);
    await a.page.screenshot({ path: screenshotPath("judging-instructions.png") });

    await a.page.keyboard.press("?");
    await expect(instructions).toHaveCount(0);
    await a.page.keyboard.press("Tab"); // a visible focus ring on the first control
    expect(await serious()).toEqual([]);
    await a.page.screenshot({ path: screenshotPath("judging-focus.png") });
    await a.page.locator("h1.question").focus();
    await a.page.screenshot({ path: screenshotPath("judging.png") });

    await a.page.setViewportSize({ width: 1440, height: 900 });
    await a.page.screenshot({ path: screenshotPath("judging-1440.png") });
    // The controls stay inside the window at both sizes.
    const bar = await a.page.locator(".verdict-bar").boundingBox();
    expect(bar!.y + bar!.height).toBeLessThanOrEqual(900);
    await expect(a.page.getByRole("button", { name: "Enter Submit" })).toBeInViewport();

    // And the end screen.
    await a.page.setViewportSize({ width: 1280, height: 800 });
    await workQueue(a.page, () => "insufficient");
    expect(await serious()).toEqual([]);
    await a.page.screenshot({ path: screenshotPath("judging-nothing-left.png") });
    await a.context.close();
  });
});

test.describe("paused", () => {
  test.use({ storageState: storageStatePath("coordinator"), viewport: { width: 1280, height: 800 } });

  test("an annotator paused by the gold rule sees that their work is paused, also after a reload", async ({ page, browser, baseURL }) => {
    // Gold passages expect "sufficient"; judging everything "not sufficient" fails the first gold one.
    const { campaignId } = await launchDemoCampaign(page.request, { goldMinJudgments: 1, goldAccuracyThreshold: 0.9 });
    const a = await freshAnnotator(browser, baseURL!);
    const paused = a.page.getByRole("heading", { name: "Your work on this campaign is paused" });
    await a.page.goto(`/annotate/${campaignId}`);
    for (let i = 0; i < 12 && !(await paused.isVisible()); i++) {
      const claim = await claimOnScreen(a.page);
      await a.page.keyboard.press("2");
      await a.page.keyboard.press("Enter");
      await expect(a.page.locator(`article.passage:not([data-claim="${claim}"])`).or(paused)).toBeVisible();
    }
    await expect(paused).toBeVisible();
    await expect(a.page.getByRole("link", { name: "Back to your queue" })).toBeVisible();
    await a.page.reload();
    await expect(paused).toBeVisible();
    await expect(a.page.locator("article.passage")).toHaveCount(0);
    await a.context.close();
  });
});

test.describe("as a coordinator", () => {
  test.use({ storageState: storageStatePath("coordinator") });

  test("the judging page is for annotators only", async ({ page }) => {
    const { campaignId } = await launchDemoCampaign(page.request);
    await page.goto(`/annotate/${campaignId}`);
    await expect(page.getByText("This page is for annotators only.")).toBeVisible();
    await expect(page.locator("article.passage")).toHaveCount(0);
  });
});

test.describe("as an annotator", () => {
  test.use({ storageState: storageStatePath("annotator") });

  test("an unknown campaign is not found", async ({ page }) => {
    await page.goto("/annotate/999999999");
    await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
  });
});

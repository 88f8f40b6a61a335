import { expect, test, type Browser, type Page } from "@playwright/test";
import { CROWD_RECEIVER } from "../playwright.config";
import { EXPLANATION, sessionCampaignForFile } from "./crowd-fixtures";
import { agree, answerTraining, feedback, judgeOne, passageOn, progress } from "./crowd-pages";
import { receivedAt } from "./crowd-receiver";
import { adminApi, unique } from "./fixtures";

// Issue 15's acceptance, Prolific: a fresh browser opens the study link with Prolific's parameters →
// consent → training with feedback (a wrong answer shows the expected span) → pass → a quota of 6
// passages → the redirect to the completion URL, here the local receiver, which records the code.
// The same PROLIFIC_PID returning resumes; past the sessions limit it sees its code again; a worker
// who fails training is sent back with the other code.

function prolificParams(pid: string, sessionId: string) {
  return { PROLIFIC_PID: pid, STUDY_ID: "study-e2e", SESSION_ID: sessionId };
}

async function freshPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  return context.newPage();
}

/** The claims of the judging screen's /next answers (the passages given). */
function recordClaims(page: Page): Set<string> {
  const given = new Set<string>();
  page.on("response", async (res) => {
    if (res.request().method() !== "POST" || res.status() !== 200) return;
    if (!/\/api\/campaigns\/\d+\/next$|\/judgment\?next=1$/.test(new URL(res.url()).pathname + new URL(res.url()).search)) return;
    const body = await res.json().catch(() => undefined);
    const task = body?.claim ? body : body?.next;
    if (task?.claim?.handle) given.add(task.claim.handle);
  });
  return given;
}

// One campaign for the file: its tests run in order, in one worker.
// 8 questions (gold + a candidate each) and 2 training items; the worker here answers "Not
// sufficient" throughout, so the gold rule is off (threshold 0): this test is about the session.
const c = sessionCampaignForFile("prolific", 8, {
  platform: "prolific",
  consent: "You agree that **your answers** are used for research.",
  trainingItems: 2,
  trainingPassShare: 0.5,
  quota: 6,
  quotaUnit: "passages",
  timeLimitMinutes: 60,
  maxSessionsPerWorker: 1,
  completionUrl: `${CROWD_RECEIVER}/submissions/complete`,
});

test(
  "a Prolific worker: consent, training with feedback, a quota of 6 passages, back to Prolific with the code; returning resumes, and past the sessions limit shows the code again",
  { tag: "@desktop" },
  async ({ browser, baseURL }) => {
    test.setTimeout(150_000);
    const pid = unique("pid").replace("-", "");
    const sessionId = unique("session");
    const completeUrl = `${CROWD_RECEIVER}/submissions/complete?cc=${c().codes.completed}`;

    // A fresh browser with Prolific's parameters.
    const page = await freshPage(browser);
    const given = recordClaims(page);
    await page.goto(c().entryPath(prolificParams(pid, sessionId)));
    await expect(page.locator(".crowd-markdown strong").first()).toHaveText("your answers");
    await agree(page, c().name);

    // Training 1: a deliberately wrong answer; the feedback shows the expected verdict and span, and the explanation.
    await expect(page.getByText("Training 1 of 2")).toBeVisible();
    await answerTraining(page, page, false);
    const wrong = feedback(page);
    await expect(wrong.getByRole("heading", { name: "Not quite" })).toBeVisible();
    await expect(wrong.locator("dt", { hasText: "Expected" }).locator("xpath=..")).toContainText("Sufficient");
    await expect(wrong.locator("mark.expected")).toHaveText("Training");
    await expect(wrong).toContainText(EXPLANATION);
    // The passage shows the expected highlight.
    await expect(page.locator(".passage-body mark").first()).toHaveText("Training");
    await page.getByRole("button", { name: "Next" }).click();

    // Training 2: right; 1 of 2 is the pass mark (0.5), so real work follows.
    await expect(page.getByText("Training 2 of 2")).toBeVisible();
    await answerTraining(page, page, true);
    await expect(feedback(page).getByRole("heading", { name: "Right" })).toBeVisible();
    await page.getByRole("button", { name: "Next" }).click();

    // Real work: three passages, then the worker leaves (closes the tab) with a passage on screen.
    const judged: string[] = [];
    for (let i = 0; i < 3; i++) judged.push(await judgeOne(page));
    await expect(progress(page)).toContainText("3 of 6 passages judged");
    await expect(passageOn(page)).toBeVisible();
    const onScreen = await passageOn(page).getAttribute("data-claim");
    await page.context().close();

    // The same PROLIFIC_PID in a new browser: no consent or training again, the same session, a passage held for them.
    const back = await freshPage(browser);
    await back.goto(c().entryPath(prolificParams(pid, sessionId)));
    await expect(passageOn(back)).toBeVisible();
    await expect(back.getByRole("button", { name: "I agree and start" })).toHaveCount(0);
    await expect(progress(back)).toContainText("3 of 6 passages judged");
    const resumed = await passageOn(back).getAttribute("data-claim");
    expect(resumed === onScreen || given.has(resumed!), "the passage on screen is one the worker held").toBe(true);
    expect(judged).not.toContain(resumed);
    for (let i = 0; i < 3; i++) judged.push(await judgeOne(back));
    expect(new Set(judged).size).toBe(6);

    // The quota reached: the redirect to the completion URL with the "completed" code, which the receiver records.
    await back.waitForURL(completeUrl);
    await expect(back.getByRole("heading", { name: "Submission complete" })).toBeVisible();
    await expect.poll(async () => (await receivedAt(CROWD_RECEIVER, "prolific", { cc: c().codes.completed })).length).toBe(1);
    await back.context().close();

    // Past the sessions limit (1): the same worker sees the ended session and goes back with its code again; no more work.
    const again = await freshPage(browser);
    await again.goto(c().entryPath(prolificParams(pid, unique("session"))));
    await again.waitForURL(completeUrl);
    await expect.poll(async () => (await receivedAt(CROWD_RECEIVER, "prolific", { cc: c().codes.completed })).length).toBe(2);
    await again.context().close();

    // The coordinator's payment report: one session, completed, 6 judgments, with Prolific's ids.
    const admin = await adminApi(baseURL!);
    const rows = (await (await admin.get(`/api/campaigns/${c().campaignId}/workers?q=${pid}`)).json()).workers;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      platform: "prolific",
      workerId: pid,
      studyId: "study-e2e",
      platformSessionId: sessionId,
      outcome: "completed",
      code: c().codes.completed,
      judgments: 6,
      trainingJudged: 2,
      trainingCorrect: 1,
    });
    await admin.dispose();
  },
);

test("a Prolific worker who fails training is sent back with the training-failed code", { tag: "@desktop" }, async ({ browser }) => {
  const page = await freshPage(browser);
  await page.goto(c().entryPath(prolificParams(unique("pid").replace("-", ""), unique("session"))));
  await agree(page, c().name);
  await answerTraining(page, page, false);
  await page.getByRole("button", { name: "Next" }).click();
  await answerTraining(page, page, false);
  await expect(feedback(page).getByRole("heading", { name: "Not quite" })).toBeVisible();
  await page.getByRole("button", { name: "Next" }).click();
  await page.waitForURL(`${CROWD_RECEIVER}/submissions/complete?cc=${c().codes.training_failed}`);
  await expect.poll(async () => (await receivedAt(CROWD_RECEIVER, "prolific", { cc: c().codes.training_failed })).length).toBe(1);
  await page.context().close();
});

test("a ?worker= link on a Prolific study says the link comes from the Prolific dashboard", { tag: "@desktop" }, async ({ browser }) => {
  const page = await freshPage(browser);
  await page.goto(c().entryPath({ worker: unique("w") }));
  await expect(page.getByRole("heading", { name: "This link is incomplete" })).toBeVisible();
  const alert = page.getByRole("main").getByRole("alert");
  await expect(alert).toContainText(
    "This study's link comes from Prolific: open it from your Prolific dashboard (it carries PROLIFIC_PID, STUDY_ID and SESSION_ID).",
  );
  await expect(alert).not.toContainText("Invalid request body");
  await page.context().close();
});

import { expect, test } from "@playwright/test";
import { CROWD_RECEIVER } from "../playwright.config";
import { sessionCampaignForFile } from "./crowd-fixtures";
import { agree, answerTraining, feedback, judgeOne, passageOn } from "./crowd-pages";
import { receivedAt } from "./crowd-receiver";
import { adminApi, unique } from "./fixtures";

// Issue 15's acceptance, Mechanical Turk: the ExternalQuestion URL inside an <iframe> on the local
// receiver's page (another site, as MTurk's worker site is): the preview shows the instructions and
// the settings' example and claims nothing; the accepted assignment works through to the end and posts
// its form to the campaign's MTurk site — the sandbox, which the receiver stands in for
// (KPS_MTURK_SANDBOX_ORIGIN) — at /mturk/externalSubmit, which the receiver records with the assignmentId.

const EXAMPLE = "*Question*: who wrote Hamlet?\n\n*Passage*: Hamlet is a tragedy by William Shakespeare. Enough evidence? Yes.";

// One campaign for the file: its tests run in order, in one worker.
const ENTRY = {
  platform: "mturk",
  consent: "You agree to take part.",
  trainingItems: 1,
  trainingPassShare: 1,
  quota: 3,
  quotaUnit: "passages",
  timeLimitMinutes: 30,
  maxSessionsPerWorker: 1,
  example: EXAMPLE,
};
const c = sessionCampaignForFile("mturk", 4, ENTRY);

/** The receiver's worker-site page framing the entry URL with MTurk's parameters. */
function framed(baseURL: string, params: Record<string, string>): string {
  return `${CROWD_RECEIVER}/frame.html?src=${encodeURIComponent(baseURL + c().entryPath(params))}`;
}

test(
  "MTurk preview inside the worker site's frame: the instructions and an example, nothing claimed, no worker made",
  { tag: "@desktop" },
  async ({ page, baseURL }) => {
    const hitId = unique("hit");
    await page.goto(framed(baseURL!, { assignmentId: "ASSIGNMENT_ID_NOT_AVAILABLE", hitId, turkSubmitTo: CROWD_RECEIVER }));
    const frame = page.frameLocator("#hit");
    await expect(frame.getByRole("heading", { name: c().name, level: 1 })).toBeVisible();
    await expect(frame.getByText("Accept the HIT to start.")).toBeVisible();
    await expect(frame.getByRole("heading", { name: "Instructions" })).toBeVisible();
    await expect(frame.locator(".crowd-markdown strong")).toHaveText("passage");
    await expect(frame.getByRole("heading", { name: "An example" })).toBeVisible();
    // The example is the one the settings hold, never a gold passage of the campaign.
    await expect(frame.locator(".crowd-example .crowd-markdown")).toContainText("Hamlet is a tragedy by William Shakespeare.");
    await expect(frame.getByText("When was training lighthouse 0 first lit?")).toHaveCount(0);
    await expect(frame.getByRole("button", { name: /Submit$/ })).toHaveCount(0);

    // The coordinator sees nothing happen: no claim, no crowd worker, no annotator.
    const admin = await adminApi(baseURL!);
    const dashboard = (await (await admin.get(`/api/campaigns/${c().campaignId}/dashboard`)).json()).dashboard;
    expect(dashboard.totals).toMatchObject({ claimed: 0, filled: 0 });
    expect((await (await admin.get(`/api/campaigns/${c().campaignId}/workers`)).json()).workers).toEqual([]);
    expect((await (await admin.get(`/api/campaigns/${c().campaignId}/annotators`)).json()).annotators).toEqual([]);
    // Entering with the preview's assignment id is refused, so no script can claim from a preview either.
    const entered = await admin.post(`/api/crowd/${c().entryKey}/enter`, {
      data: { workerId: "W1", assignmentId: "ASSIGNMENT_ID_NOT_AVAILABLE", hitId, turkSubmitTo: CROWD_RECEIVER },
    });
    expect(entered.status()).toBe(409);
    expect((await entered.json()).error.details).toMatchObject({ preview: true });
    await admin.dispose();
  },
);

test(
  "MTurk accepted assignment inside the frame: consent, training, the quota, then the form POST to turkSubmitTo carrying the assignmentId",
  { tag: "@desktop" },
  async ({ page, baseURL }) => {
    test.setTimeout(120_000);
    const workerId = unique("W").toUpperCase().replace("-", "");
    const assignmentId = unique("A").toUpperCase().replace("-", "");
    const hitId = unique("hit");
    await page.goto(framed(baseURL!, { workerId, assignmentId, hitId, turkSubmitTo: CROWD_RECEIVER }));
    const frame = page.frameLocator("#hit");
    await agree(frame, c().name);
    await answerTraining(page, frame, true);
    await expect(feedback(frame).getByRole("heading", { name: "Right" })).toBeVisible();
    await frame.getByRole("button", { name: "Next" }).click();
    for (let i = 0; i < 3; i++) await judgeOne(frame);

    // The form posts itself inside the frame: the receiver's page replaces the HIT, with the assignment.
    await expect(frame.getByRole("heading", { name: "HIT submitted" })).toBeVisible();
    await expect(frame.locator("#assignment")).toHaveText(assignmentId);
    const received = await receivedAt(CROWD_RECEIVER, "mturk", { assignmentId });
    expect(received).toHaveLength(1);
    expect(received[0]!.fields).toEqual({ assignmentId, outcome: "completed", code: c().codes.completed });
    await expect(passageOn(frame)).toHaveCount(0);

    // The payment report carries MTurk's ids.
    const admin = await adminApi(baseURL!);
    const rows = (await (await admin.get(`/api/campaigns/${c().campaignId}/workers?q=${workerId}`)).json()).workers;
    expect(rows).toEqual([
      expect.objectContaining({
        platform: "mturk",
        workerId,
        studyId: hitId,
        platformSessionId: assignmentId,
        outcome: "completed",
        code: c().codes.completed,
        judgments: 3,
      }),
    ]);
    await admin.dispose();
  },
);

test(
  "only the crowd pages may be framed, by MTurk's sites and the receiver; every other page refuses framing",
  { tag: "@desktop" },
  async ({ page, request, baseURL }) => {
    const csp = async (path: string) => (await request.get(path)).headers()["content-security-policy"] ?? "";
    for (const path of ["/", "/annotate", "/campaigns"]) expect(await csp(path), path).toContain("frame-ancestors 'none'");
    const crowd = await csp(`/crowd/${c().entryKey}`);
    expect(crowd).toContain(`frame-ancestors https://www.mturk.com https://workersandbox.mturk.com ${CROWD_RECEIVER}`);
    expect(crowd).toMatch(new RegExp(`form-action 'self'[^;]* ${CROWD_RECEIVER.replace(/[.]/g, "\\.")}`));

    // In the browser: the receiver's page framing the sign-in page gets nothing from it.
    const refused: string[] = [];
    page.on("console", (m) => void (m.text().includes("frame-ancestors") && refused.push(m.text())));
    await page.goto(`${CROWD_RECEIVER}/frame.html?src=${encodeURIComponent(`${baseURL}/`)}`);
    await expect.poll(() => refused.length).toBeGreaterThan(0);
    await expect(page.frameLocator("#hit").getByLabel("Username")).toHaveCount(0);
  },
);

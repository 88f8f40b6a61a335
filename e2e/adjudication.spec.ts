import { expect, test, type Page } from "@playwright/test";
import { axeAtBothWidths } from "./ask-fixtures";
import {
  accounts,
  adminApi,
  createAccount,
  importKnowledgePage,
  judgeAll,
  launchOneQuestion,
  signedInApi,
  storageStatePath,
  unique,
} from "./fixtures";

test.use({ storageState: storageStatePath("coordinator") });

type Item = {
  start_paragraph_id: number;
  start_character: number;
  end_character: number;
  meta: { adjudicated_by?: { username: string; reason: string } };
};

/** The KILT export's added provenance items of the one question, by first paragraph. */
async function exported(page: Page, campaignId: number): Promise<Item[]> {
  const res = await page.request.get(`/api/campaigns/${campaignId}/export?location=span`);
  expect(res.status()).toBe(200);
  const body = await res.text();
  if (body === "") return [];
  const rows = body
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l));
  expect(rows).toHaveLength(1);
  return (rows[0].output as { provenance?: Item[] }[])
    .slice(1)
    .map((e) => e.provenance![0]!)
    .sort((a, b) => a.start_paragraph_id - b.start_paragraph_id);
}

test("a coordinator adjudicates a split question on the question view and the KILT export follows, then reverts and it follows back", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(180_000); // three annotators' passes, four axe runs
  const admin = await adminApi(baseURL!);
  const coordinator = accounts().coordinator;
  const text = [
    "Velmora Lighthouse\n",
    "The Velmora lighthouse was first lit in 1871 by the harbour board.\n",
    "Its lamp was relit in 2005 after a storm broke the lens.\n",
  ];
  const { campaign } = await launchOneQuestion(page.request, {
    name: "adjudication",
    title: "Velmora Lighthouse",
    text,
    input: "when was velmora lighthouse first lit",
    answer: "1871",
  });

  // Three annotators: all endorse the gold paragraph; two of three the candidate (a split verdict the vote endorses).
  for (const i of [0, 1, 2]) {
    const api = await signedInApi(baseURL!, await createAccount(admin, "annotator"));
    await judgeAll(api, campaign.id, (pid) => pid === 1 || i < 2);
    await api.dispose();
  }
  expect((await exported(page, campaign.id)).map((i) => i.start_paragraph_id)).toEqual([1, 2]);

  // The dashboard links the question: it waits for the coordinator (split verdicts).
  await page.goto(`/campaigns/${campaign.id}`);
  const waiting = page.getByTestId("waiting");
  await expect(waiting.getByTestId("waiting-count")).toHaveText("1");
  await waiting.getByTestId("waiting-split").click();
  await expect(page).toHaveURL(/show=waiting-split/);
  await page.getByRole("link", { name: "when was velmora lighthouse first lit" }).click();
  await expect(page.getByRole("heading", { level: 2, name: "when was velmora lighthouse first lit" })).toBeVisible();
  expect(await axeAtBothWidths(page)).toEqual([]);

  const candidate = page.getByTestId("passage").filter({ hasText: "paragraphs 2–2" });
  const panel = candidate.getByTestId("adjudication");
  await expect(panel).toContainText("No decision: the vote decides.");

  // Reject by keyboard: the decision radios (arrow keys), Tab to the reason, Tab to the button, Enter.
  await panel.getByRole("radio", { name: "Endorse" }).focus();
  await page.keyboard.press("ArrowRight");
  await expect(panel.getByRole("radio", { name: "Reject" })).toBeChecked();
  await page.keyboard.press("Tab");
  await expect(panel.getByLabel("Reason")).toBeFocused();
  await page.keyboard.type("It says when the lamp was relit, not first lit.");
  await page.keyboard.press("Tab");
  await expect(panel.getByRole("button", { name: "Reject this passage" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(panel.getByTestId("adjudication-live")).toContainText(`Rejected by ${coordinator}`);
  await expect(panel.getByTestId("adjudication-live")).toContainText("It says when the lamp was relit, not first lit.");
  await expect(candidate).toContainText("rejected by the coordinator");
  expect((await exported(page, campaign.id)).map((i) => i.start_paragraph_id)).toEqual([1]);

  // Replace it: endorse with a span of one's own, selected in the passage with the mouse (snapped to words).
  await panel.getByRole("radio", { name: "Endorse" }).check();
  await panel.getByRole("radio", { name: "My span" }).check();
  const selectable = panel.getByTestId("adjudication-text").locator("p").first();
  await selectable.evaluate((p) => {
    const node = p.querySelector("span")!.firstChild as Text;
    const at = node.data.indexOf("relit in 20");
    const range = document.createRange();
    range.setStart(node, at + 1); // inside "relit": snaps out to the whole word
    range.setEnd(node, at + "relit in 20".length);
    const selection = window.getSelection()!;
    selection.removeAllRanges();
    selection.addRange(range);
    p.dispatchEvent(new MouseEvent("mouseup", { bubbles: true }));
  });
  await expect(panel.getByLabel("Words to export")).toHaveValue("relit in 2005");
  await panel.getByLabel("Reason").fill("The relighting date is evidence too.");
  await panel.getByRole("button", { name: "Endorse this passage" }).click();
  await expect(panel.getByTestId("adjudication-live")).toContainText(`Endorsed by ${coordinator}`);
  await expect(panel.getByTestId("adjudication-live")).toContainText("exports relit in 2005");
  const endorsed = await exported(page, campaign.id);
  expect(endorsed.map((i) => i.start_paragraph_id)).toEqual([1, 2]);
  const start = text[2]!.indexOf("relit"); // ASCII: code points and UTF-16 units agree
  expect(endorsed[1]).toMatchObject({ start_character: start, end_character: start + "relit in 2005".length });
  expect(endorsed[1]!.meta.adjudicated_by).toMatchObject({ username: coordinator, reason: "The relighting date is evidence too." });
  expect(endorsed[0]!.meta.adjudicated_by).toBeUndefined();
  expect(await axeAtBothWidths(page)).toEqual([]);

  // Revert: the vote decides again, and the export is the vote's.
  await panel.getByRole("button", { name: /Revert/ }).click();
  await expect(panel).toContainText("No decision: the vote decides.");
  const reverted = await exported(page, campaign.id);
  expect(reverted.map((i) => i.start_paragraph_id)).toEqual([1, 2]);
  expect(reverted[1]!.meta.adjudicated_by).toBeUndefined();
  expect(reverted[1]!.start_character).toBe(0);

  // The audit log holds the two decisions and the revert; the list of decisions keeps the reverted ones on request.
  const decisions = (await (await page.request.get(`/api/campaigns/${campaign.id}/adjudications?reverted=1`)).json()).adjudications;
  expect(decisions.map((d: { decision: string; revertedAt: string | null }) => [d.decision, d.revertedAt !== null])).toEqual([
    ["endorse", true],
    ["reject", true],
  ]);
  const audit = (await (await admin.get("/api/audit?limit=200")).json()).entries as {
    action: string;
    targetType: string;
    details: { campaignId?: number };
  }[];
  expect(audit.filter((e) => e.targetType === "passage" && e.details.campaignId === campaign.id).map((e) => e.action)).toEqual([
    "passage.adjudication_revert",
    "passage.adjudicate",
    "passage.adjudicate",
  ]);
  await admin.dispose();
});

test("the adjudication route refuses hostile input with the field named, another campaign's passage, and non-coordinators", async ({
  page,
  baseURL,
}) => {
  const admin = await adminApi(baseURL!);
  const wikipediaId = unique("adjudication-hostile");
  const text = ["Hostile Page\n", "Only one paragraph here.\n"];
  await importKnowledgePage(page.request, wikipediaId, "Hostile Page", text);
  const newCampaign = async () =>
    (await (await page.request.post("/api/campaigns", { data: { name: unique("e2e-adjudication-hostile") } })).json()).campaign
      .id as number;
  const campaignId = await newCampaign();
  const otherId = await newCampaign();
  const line = JSON.stringify({
    id: unique("q"),
    input: "what is here",
    output: [{ answer: "one", provenance: [{ wikipedia_id: wikipediaId, start_paragraph_id: 1, end_paragraph_id: 1 }] }],
  });
  const imported = await page.request.post(`/api/campaigns/${campaignId}/batches`, {
    multipart: { queries: { name: "q.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(line + "\n") } },
  });
  expect(imported.status(), await imported.text()).toBe(201);
  const queryId = (await (await page.request.get(`/api/campaigns/${campaignId}/questions`)).json()).questions[0].id;
  const passageId = (await (await page.request.get(`/api/campaigns/${campaignId}/questions/${queryId}`)).json()).question.passages[0].id;
  const path = `/api/campaigns/${campaignId}/passages/${passageId}/adjudication`;
  const span = { startParagraphId: 1, startCharacter: 0, endParagraphId: 1, endCharacter: 4, text: "Only" };

  const refused = async (res: Awaited<ReturnType<typeof page.request.put>>, status: number, field?: string) => {
    const body = await res.text();
    expect(res.status(), body).toBe(status);
    const error = JSON.parse(body).error;
    expect(typeof error.message).toBe("string");
    if (field) expect(error.details.problems.map((p: { field: string }) => p.field)).toContain(field);
  };
  await refused(
    await page.request.put(path, { data: { decision: "endorse", span: { ...span, startParagraphId: 0, endParagraphId: 0 }, reason: "x" } }),
    422,
    "span",
  );
  await refused(
    await page.request.put(path, { data: { decision: "endorse", span: { ...span, text: "Many" }, reason: "x" } }),
    422,
    "span.text",
  );
  await refused(
    await page.request.put(path, { data: { decision: "endorse", span: { ...span, endCharacter: 400 }, reason: "x" } }),
    422,
    "span",
  );
  await refused(await page.request.put(path, { data: { decision: "reject", reason: "x".repeat(2001) } }), 422, "reason");
  await refused(await page.request.put(path, { data: { decision: "reject", reason: "" } }), 422, "reason");
  await refused(await page.request.put(path, { data: { decision: "endorse", reason: "no one highlighted it" } }), 422, "span");
  await refused(
    await page.request.put(path, { data: "decision=reject&reason=x", headers: { "content-type": "application/x-www-form-urlencoded" } }),
    415,
  );
  await refused(
    await page.request.put(`/api/campaigns/${otherId}/passages/${passageId}/adjudication`, { data: { decision: "reject", reason: "x" } }),
    404,
  );
  await refused(
    await page.request.put(`/api/campaigns/${campaignId}/passages/not-a-number/adjudication`, {
      data: { decision: "reject", reason: "x" },
    }),
    422,
    "passageId",
  );
  await refused(await page.request.delete(path), 404);
  const annotator = await signedInApi(baseURL!, await createAccount(admin, "annotator"));
  await refused(await annotator.put(path, { data: { decision: "reject", reason: "x" } }), 403);
  await refused(await annotator.get(`/api/campaigns/${campaignId}/questions/${queryId}`), 403);
  // Nothing was stored; a proper decision is taken.
  expect((await (await page.request.get(`/api/campaigns/${campaignId}/adjudications?reverted=1`)).json()).adjudications).toEqual([]);
  const ok = await page.request.put(path, { data: { decision: "endorse", span, reason: "It is all there is." } });
  expect(ok.status(), await ok.text()).toBe(200);
  expect((await ok.json()).adjudication).toMatchObject({
    decision: "endorse",
    span,
    reason: "It is all there is.",
    by: { username: accounts().coordinator },
  });
  await annotator.dispose();
  await admin.dispose();
});

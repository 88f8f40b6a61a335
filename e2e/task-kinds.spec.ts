// Judging as the task asks, on the desktop and on a phone: a fact-checking claim judged with the
// keyboard (the sentence key, then 4 for REFUTES, Enter), an entity-linking mention judged by taps
// without a highlight. Small inline KILT lines; the file names tell the import the task.
import { devices, expect, test, type APIRequestContext, type Browser } from "@playwright/test";
import { seriousViolations } from "./axe";
import { adminApi, createAccount, importKnowledgePage, signedInApi, unique } from "./fixtures";

const LEAD = "Ada Lovelace was an English mathematician. She wrote the first published program for the Analytical Engine.\n";

/** A launched campaign of one KILT line in a file named `fileName` (fever-…: fact checking; aidayago2-…: entity linking). */
async function launchLine(admin: APIRequestContext, fileName: string, line: { input: string; answer: string; page: string }) {
  const campaign = (await (await admin.post("/api/campaigns", { data: { name: unique("e2e-kinds"), goldAccuracyThreshold: 0 } })).json())
    .campaign;
  const kilt = {
    id: unique("q"),
    input: line.input,
    output: [{ answer: line.answer, provenance: [{ wikipedia_id: line.page, start_paragraph_id: 1, end_paragraph_id: 1 }] }],
  };
  const imported = await admin.post(`/api/campaigns/${campaign.id}/batches`, {
    multipart: { queries: { name: fileName, mimeType: "application/x-ndjson", buffer: Buffer.from(JSON.stringify(kilt) + "\n") } },
  });
  expect(imported.status(), await imported.text()).toBe(201);
  expect((await imported.json()).task.kind).toBeTruthy();
  expect((await admin.post(`/api/batches/${(await imported.json()).batch.id}/launch`)).status()).toBe(200);
  return campaign.id as number;
}

async function annotator(browser: Browser, admin: APIRequestContext, baseURL: string, device: "desktop" | "phone") {
  const api = await signedInApi(baseURL, await createAccount(admin, "annotator", `kinds-${device}`));
  const options = device === "phone" ? { ...devices["Pixel 7"] } : { viewport: { width: 1280, height: 800 }, hasTouch: true };
  const context = await browser.newContext({ ...options, storageState: await api.storageState() });
  return { api, context, page: await context.newPage() };
}

/** The caller's one judgment in the campaign, as their history answers it. */
async function myJudgment(api: APIRequestContext, campaignId: number) {
  const res = await api.get(`/api/campaigns/${campaignId}/my-judgments`);
  expect(res.status()).toBe(200);
  const { judgments } = await res.json();
  expect(judgments).toHaveLength(1);
  return judgments[0];
}

test("a fact-checking claim by keyboard and an entity-linking mention by tap, on the desktop and a phone", async ({ browser, baseURL }) => {
  const admin = await adminApi(baseURL!);
  const page = unique("ada");
  await importKnowledgePage(admin, page, "Ada Lovelace", ["Ada Lovelace\n", LEAD]);
  const fc = await launchLine(admin, "fever-dev-kilt.jsonl", { input: "Ada Lovelace was French.", answer: "REFUTES", page });
  const el = await launchLine(admin, "aidayago2-dev-kilt.jsonl", {
    input: "The notes of [START_ENT] Lovelace [END_ENT] describe an algorithm for the engine.",
    answer: "Ada Lovelace",
    page,
  });

  for (const device of ["desktop", "phone"] as const) {
    const a = await annotator(browser, admin, baseURL!, device);
    const p = a.page;

    // Fact checking: the claim card, its question, Supports and Refutes; the keyboard all the way.
    await p.goto(`/annotate/${fc}`);
    await expect(p.getByRole("region", { name: "Claim" })).toContainText("Ada Lovelace was French.");
    const bar = p.getByRole("region", { name: "Verdict" });
    await expect(bar.getByRole("group", { name: "Enough evidence to decide the claim?" })).toBeVisible();
    await expect(bar.getByRole("button", { name: /Refutes/ })).toHaveAttribute("aria-keyshortcuts", "4");
    if (device === "desktop") {
      // Empty campaign instructions: the task's default ones.
      await p.keyboard.press("?");
      await expect(p.getByRole("heading", { name: "Fact checking" })).toBeVisible();
      await p.keyboard.press("?");
    }
    expect(await seriousViolations(p), `${device}: fact checking`).toEqual([]);
    await p.keyboard.press("s"); // the first sentence
    await expect(p.locator(".passage-body mark")).toHaveText("Ada Lovelace was an English mathematician");
    await p.keyboard.press("Enter"); // no label yet: the bar asks for one, nothing is sent
    await expect(bar.getByRole("status")).toContainText("Choose first");
    await p.keyboard.press("4");
    await expect(bar.getByRole("button", { name: /Refutes/ })).toHaveAttribute("aria-pressed", "true");
    await p.keyboard.press("Enter");
    await expect(p.getByRole("heading", { name: "Nothing left for you in this campaign" })).toBeVisible();
    expect(await myJudgment(a.api, fc)).toMatchObject({
      verdict: "sufficient",
      label: "REFUTES",
      span: { text: "Ada Lovelace was an English mathematician" },
      query: { kind: "fact-checking" },
    });

    // Entity linking: the mention marked in context, the page's lead, no highlight needed; taps.
    await p.goto(`/annotate/${el}`);
    await expect(p.getByRole("region", { name: "Mention" }).locator("mark")).toHaveText("Lovelace");
    await expect(p.getByText("The page's lead: is this the entity the mention refers to?")).toBeVisible();
    await expect(bar.getByRole("group", { name: "Is this page the entity the mention refers to?" })).toBeVisible();
    await expect(bar).toContainText("No highlight needed");
    expect(await seriousViolations(p), `${device}: entity linking`).toEqual([]);
    await bar.getByRole("button", { name: /Sufficient/ }).tap();
    await expect(bar.getByRole("button", { name: /Sufficient/ })).toHaveAttribute("aria-pressed", "true");
    await bar.getByRole("button", { name: /Submit/ }).tap();
    await expect(p.getByRole("heading", { name: "Nothing left for you in this campaign" })).toBeVisible();
    expect(await myJudgment(a.api, el)).toMatchObject({
      verdict: "sufficient",
      label: null,
      span: null, // page-level: the page itself is the evidence, no highlight stored
      query: { kind: "entity-linking" },
    });
    await a.context.close();
  }
});

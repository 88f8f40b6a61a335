import path from "node:path";
import { expect, test } from "@playwright/test";
import { storageStatePath, unique } from "./fixtures";
import { expectAccessible } from "./axe";

// The import form's evidence-set options over the HotpotQA-shaped fixture (test/fixtures/hotpot/README.md):
// pairs of each question's top three candidate pages, and partial evidence left to its default.

const HOTPOT = path.join(import.meta.dirname, "..", "test", "fixtures", "hotpot");

test.use({ storageState: storageStatePath("coordinator"), viewport: { width: 1280, height: 800 } });

test("the import form pairs candidate pages into evidence sets and reports them, with partial evidence on for HotpotQA", async ({
  page,
}) => {
  const created = await page.request.post("/api/campaigns", { data: { name: unique("e2e-sets") } });
  expect(created.status()).toBe(201);
  const campaignId = ((await created.json()) as { campaign: { id: number } }).campaign.id;
  await page.goto(`/campaigns/${campaignId}/import`);
  await page.getByLabel("Knowledge source (JSONL or .gz)").setInputFiles(path.join(HOTPOT, "knowledge.jsonl"));
  await page.getByLabel("Questions (KILT task JSONL)").setInputFiles(path.join(HOTPOT, "hotpotqa-dev-kilt.jsonl"));
  await page.getByLabel("Candidates (retrieval output JSONL)").setInputFiles(path.join(HOTPOT, "dpr.jsonl"));

  const sets = page.getByLabel("Evidence sets", { exact: true });
  await expect(sets).toHaveValue("");
  await expect(page.getByLabel("Pages paired per question")).toHaveCount(0);
  await sets.selectOption("pairs");
  await expect(page.getByLabel("Pages paired per question")).toHaveValue("3");
  const partial = page.getByLabel("Partial evidence", { exact: true });
  await expect(partial).toHaveValue("");
  await expect(partial.locator("option")).toHaveText(["Default for the batch", "On", "Off"]);
  await expectAccessible(page, "the import form with evidence sets");

  const answer = page.waitForResponse((r) => r.url().endsWith(`/api/campaigns/${campaignId}/batches`) && r.request().method() === "POST");
  await page.getByRole("button", { name: "Import", exact: true }).click();
  const res = await answer;
  expect(res.status(), await res.text()).toBe(201);
  // 7 gold sets (one per question) and 3 pairs per question, one of which is its gold set; 4 single candidates each.
  expect(await res.json()).toMatchObject({
    queries: 7,
    passages: 49,
    goldPassages: 7,
    candidatePassages: 42,
    sets: 21,
    partialEvidence: true,
  });
  const counts = page.getByRole("status").getByRole("definition");
  await expect(page.getByRole("status").getByText("Evidence sets", { exact: true })).toBeVisible();
  await expect(counts).toContainText(["21"]);
  await expect(page.getByTestId("partial-evidence")).toHaveText("Partial evidence: on (annotators may answer “part of the evidence”).");
  await expectAccessible(page, "the import outcome with evidence sets");
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { demoFile, storageStatePath, unique } from "./fixtures";
import { expectAccessible } from "./axe";

test.use({ storageState: storageStatePath("coordinator"), viewport: { width: 1280, height: 800 } });

const BRIDGE =
  "The Shiranagi Moon Bridge (Japanese: 白凪月橋, Shiranagi Tsukibashi) is a stone arch footbridge over the Kuroe River in the castle town of Shiranagi.";

test("evidence given as text: the form locates it, reports exact, dropped and unknown pages, and downloads the dropped items", async ({
  page,
}) => {
  const res = await page.request.post("/api/campaigns", { data: { name: unique("e2e-text-evidence") } });
  const campaignId = ((await res.json()) as { campaign: { id: number } }).campaign.id;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kps-e2e-text-"));
  const queries = path.join(dir, "text-evidence.jsonl");
  const line = (id: string, evidence: string, title: string) =>
    JSON.stringify({ id: unique(id), input: `${id}?`, output: [{ answer: "a", provenance: [{ evidence, title }] }] });
  fs.writeFileSync(
    queries,
    [
      line("exact", BRIDGE, "Shiranagi_Moon_Bridge"),
      line("unknown", BRIDGE, "No Such Bridge Anywhere"),
      line("redirected", BRIDGE, "Moon Bridge of Shiranagi"),
      // Folded to a demo title no other test's page shares (CI's PostgreSQL database is shared by the specs).
      line("low", "Purple elephants sang loudly about granite yesterday.", "velmora harbour railway"),
    ].join("\n") + "\n",
  );
  const redirects = path.join(dir, "redirects.tsv");
  fs.writeFileSync(redirects, "Moon_Bridge_of_Shiranagi\tShiranagi_Moon_Bridge\n");

  await page.goto(`/campaigns/${campaignId}/import`);
  await page.getByLabel("Knowledge source (JSONL or .gz)").setInputFiles(demoFile("knowledge.jsonl"));
  // Pages named by title are cited by no wikipedia_id: keep the whole source.
  await page.getByLabel("Keep only pages the questions and candidates cite").uncheck();
  await page.getByLabel("Questions (KILT task JSONL)").setInputFiles(queries);
  await expect(page.getByLabel("Minimum BLEU")).toHaveCount(0);
  await page.getByLabel("Locate evidence given as text").check();
  await expect(page.getByLabel("Minimum BLEU")).toHaveValue("0.5");
  await page.getByLabel("Redirects (TSV)").setInputFiles(redirects);
  await expectAccessible(page, "the import form with evidence given as text");

  const answer = page.waitForResponse((r) => r.url().endsWith(`/api/campaigns/${campaignId}/batches`) && r.request().method() === "POST");
  await page.getByRole("button", { name: "Import", exact: true }).click();
  const batch = await answer;
  expect(batch.status(), await batch.text()).toBe(201);
  expect(await batch.json()).toMatchObject({
    queries: 4,
    goldPassages: 2,
    evidence: { items: 4, exact: 2, fuzzy: 0, dropped: 2, unknownPages: 1, pagesBy: { id: 0, title: 1, redirect: 1, folded: 1 } },
  });

  const outcome = page.getByTestId("evidence-outcome");
  await expect(outcome.locator("dl div").filter({ hasText: "Mapped exactly" }).locator("dd")).toHaveText("2");
  await expect(page.getByTestId("unknown-pages")).toHaveText("Pages not in the knowledge source: line 2 (No Such Bridge Anywhere).");
  await expect(page.getByTestId("bleu-bins").getByRole("row").last()).toHaveText(/0\.9–1\s*2/);
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download the dropped items" }).click();
  const file = await (await download).path();
  const dropped = fs
    .readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  expect(dropped.map((d) => [d.line, d.reason, d.best_wikipedia_id])).toEqual([
    [2, "unknown-page", null],
    [4, "below-threshold", "61245902"],
  ]);
  await expectAccessible(page, "the import outcome with evidence given as text");
  fs.rmSync(dir, { recursive: true, force: true });
});

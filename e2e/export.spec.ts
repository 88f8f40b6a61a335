import { expect, test } from "@playwright/test";
import { seriousViolations } from "./axe";
import { adminApi, createAccount, judgeAll, launchOneQuestion, signedInApi, storageStatePath } from "./fixtures";

test.use({ storageState: storageStatePath("coordinator") });

test("a coordinator pauses an annotator and the exported provenance changes; resuming restores it @smoke", async ({ page, baseURL }) => {
  const admin = await adminApi(baseURL!);
  const { campaign, kiltId: queryId } = await launchOneQuestion(page.request, {
    name: "export",
    title: "Export Page",
    text: ["Export Page\n", "The first paragraph says the tower was lit in 1871.\n", "The second paragraph says it was relit in 2005.\n"],
    input: "when was the tower lit",
    answer: "1871",
  });

  // Three annotators: all endorse the gold paragraph; two of three the candidate paragraph.
  const names = [await createAccount(admin, "annotator"), await createAccount(admin, "annotator"), await createAccount(admin, "annotator")];
  for (const [i, name] of names.entries()) {
    const api = await signedInApi(baseURL!, name);
    await judgeAll(api, campaign.id, (pid) => pid === 1 || i < 2);
    await api.dispose();
  }

  const exported = async () => {
    const res = await page.request.get(`/api/campaigns/${campaign.id}/export?location=span`);
    expect(res.status()).toBe(200);
    const body = await res.text();
    expect(body.endsWith("\n")).toBe(true);
    expect(body.includes("\n\n")).toBe(false);
    const rows = body
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(rows).toHaveLength(1);
    expect(rows[0].id).toBe(queryId);
    return (rows[0].output as { provenance?: { start_paragraph_id: number }[] }[])
      .slice(1)
      .map((e) => e.provenance![0]!.start_paragraph_id)
      .sort();
  };
  expect(await exported()).toEqual([1, 2]);

  await page.goto(`/campaigns/${campaign.id}`);
  const row = page.getByTestId("annotators").getByRole("row", { name: new RegExp(names[0]!) });
  await expect(row).toContainText("active");
  await row.getByRole("button", { name: `Pause ${names[0]}` }).click();
  await page
    .getByRole("dialog", { name: `Pause ${names[0]}?` })
    .getByRole("button", { name: "Pause" })
    .click(); // pausing asks first
  await expect(row).toContainText("paused");
  expect(await exported()).toEqual([1]); // paragraph 2 is left with one sufficient vote of two counted

  const report = (await (await page.request.get(`/api/campaigns/${campaign.id}/export/report`)).json()).report;
  expect(report).toMatchObject({ queriesExported: 1, passagesEndorsed: 1, unanswerable: [] });

  await row.getByRole("button", { name: `Resume ${names[0]}` }).click();
  await expect(row).toContainText("active");
  expect(await exported()).toEqual([1, 2]);
  await admin.dispose();
});

test("the export report page shows an unanswerable question, why, and its explanation by username; every section reads at 1440 and 390 px", async ({
  page,
  baseURL,
}) => {
  const admin = await adminApi(baseURL!);
  const { campaign, kiltId } = await launchOneQuestion(page.request, {
    name: "report",
    title: "Report Page",
    text: ["Report Page\n", "The tower stands on a rock.\n", "The tower is painted white.\n"],
    input: "when was the report tower lit",
    answer: "1871",
  });
  // Every annotator finds both passages insufficient: the gold is missed, the question unanswerable; the first explains why.
  const names = [await createAccount(admin, "annotator"), await createAccount(admin, "annotator"), await createAccount(admin, "annotator")];
  for (const [i, name] of names.entries()) {
    const api = await signedInApi(baseURL!, name);
    await judgeAll(api, campaign.id, () => false);
    if (i === 0) {
      const explained = await api.post(`/api/campaigns/${campaign.id}/explanations`, {
        data: { queryId: kiltId, reason: "other", text: "The snapshot never says when it was lit." },
      });
      expect(explained.status(), await explained.text()).toBe(201);
    }
    await api.dispose();
  }
  await admin.dispose();

  await page.goto(`/campaigns/${campaign.id}`);
  await expect(page.getByText("covering its whole paragraph range, with -1")).toBeVisible();
  await page.getByRole("link", { name: "Export report", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Export report", level: 1 })).toBeVisible();
  const table = page.getByTestId("export-report");
  const row = table.getByRole("row", { name: /when was the report tower lit/ });
  await expect(row).toContainText("The gold passage was judged not sufficient");
  await expect(row).toContainText("Report Page (¶1) · 0 of 3 sufficient");
  await expect(row).toContainText(`Other (say why) (${names[0]})`);
  await expect(row.getByRole("link", { name: "when was the report tower lit" })).toHaveAttribute("href", /\/questions\/\d+$/);
  await expect(page.getByRole("link", { name: "Download the whole report (JSON)" })).toHaveAttribute(
    "href",
    `/api/campaigns/${campaign.id}/export/report`,
  );

  const sections = page.getByRole("navigation", { name: "Sections of the report" });
  const expectReadable = async (where: string) => {
    for (const size of [
      { width: 1440, height: 900 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(size);
      expect(await seriousViolations(page), `${where} at ${size.width} px`).toEqual([]);
      if (size.width === 390) expect(await page.evaluate(() => document.documentElement.scrollWidth), where).toBeLessThanOrEqual(390);
    }
  };
  await expectReadable("unanswerable");

  await sections.getByRole("link", { name: "Explanations" }).click();
  await expect(table).toContainText("“The snapshot never says when it was lit.”");
  await expect(table).toContainText(names[0]!);
  await expectReadable("explanations");

  for (const [section, empty] of [
    ["Passages endorsed", "No question in this section."],
    ["Spans with no answer", "No question in this section."],
  ] as const) {
    await sections.getByRole("link", { name: section }).click();
    await expect(page.getByRole("heading", { name: section, level: 2 })).toBeVisible();
    await expect(page.getByTestId("report-empty")).toHaveText(empty);
  }
});

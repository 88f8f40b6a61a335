import { expect, test } from "@playwright/test";
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

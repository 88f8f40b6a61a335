import { expect, test } from "@playwright/test";
import { storageStatePath, unique } from "./fixtures";

// The payment report (issue 15): its route's answers, downloads and refusals, and its page. The rows
// themselves are checked in lib/crowd/workers-report.int.test.ts; here no crowd worker has entered.

test.use({ storageState: storageStatePath("coordinator"), viewport: { width: 1280, height: 900 } });

test("GET /api/campaigns/:id/workers pages, downloads CSV and JSONL, and names a hostile parameter", async ({ page }) => {
  const created = await page.request.post("/api/campaigns", { data: { name: unique("workers report") } });
  const campaignId: number = (await created.json()).campaign.id;
  const base = `/api/campaigns/${campaignId}/workers`;

  const list = await page.request.get(`${base}?q=${encodeURIComponent("a%_")}&outcome=open&limit=500`);
  expect(list.status(), await list.text()).toBe(200);
  expect(await list.json()).toEqual({ workers: [], next: null });

  const csv = await page.request.get(`${base}?format=csv`);
  expect(csv.status()).toBe(200);
  expect(csv.headers()["content-type"]).toMatch(/^text\/csv/);
  expect(csv.headers()["content-disposition"]).toBe(`attachment; filename="campaign-${campaignId}-workers.csv"`);
  expect(await csv.text()).toMatch(/^platform,workerId,pseudonym,session,studyId,platformSessionId,.*,paused,pauseReason\r\n$/);
  const jsonl = await page.request.get(`${base}?format=jsonl&outcome=completed`);
  expect(jsonl.headers()["content-disposition"]).toBe(`attachment; filename="campaign-${campaignId}-workers.jsonl"`);
  expect(await jsonl.text()).toBe("");

  for (const [qs, field] of [
    ["limit=0", "limit"],
    ["limit=501", "limit"],
    ["limit=abc", "limit"],
    [`after=${encodeURIComponent("1 OR 1=1")}`, "after"],
    ["after=-3", "after"],
    ["format=xlsx", "format"],
    [`format=${encodeURIComponent("<script>")}`, "format"],
    ["outcome=paid", "outcome"],
    [`q=${"x".repeat(201)}`, "q"],
  ] as const) {
    const res = await page.request.get(`${base}?${qs}`);
    expect(res.status(), qs).toBe(422);
    const body = (await res.json()) as { error: { details: { problems: { field: string }[] } } };
    expect(
      body.error.details.problems.map((p) => p.field),
      qs,
    ).toEqual([field]);
  }
  expect((await page.request.get(`/api/campaigns/987654321/workers`)).status()).toBe(404);
  expect((await page.request.get(`/api/campaigns/987654321/workers?format=csv`)).status()).toBe(404);
});

test("the campaign page links to its crowd workers, whose page offers the downloads with the filter on screen", async ({ page }) => {
  const created = await page.request.post("/api/campaigns", { data: { name: unique("workers page") } });
  const campaignId: number = (await created.json()).campaign.id;
  await page.goto(`/campaigns/${campaignId}`);
  await page.getByRole("link", { name: "Crowd workers" }).click();
  await expect(page).toHaveURL(new RegExp(`/campaigns/${campaignId}/workers$`));
  await expect(page.getByRole("heading", { level: 1, name: "Crowd workers" })).toBeVisible();
  await expect(page.getByText("No crowd worker has entered this campaign yet.")).toBeVisible();
  await expect(page.getByTestId("workers-csv")).toHaveAttribute("href", `/api/campaigns/${campaignId}/workers?format=csv`);
  await page.getByLabel("Outcome").selectOption("training_failed");
  await expect(page.getByText("No session with the outcome “training not passed”.")).toBeVisible();
  await expect(page.getByTestId("workers-jsonl")).toHaveAttribute(
    "href",
    `/api/campaigns/${campaignId}/workers?format=jsonl&outcome=training_failed`,
  );
  await page.getByLabel("Search worker ids").fill("PID-1");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByText("No worker id matches “PID-1”.")).toBeVisible();
  await expect(page.getByTestId("workers-csv")).toHaveAttribute(
    "href",
    `/api/campaigns/${campaignId}/workers?format=csv&q=PID-1&outcome=training_failed`,
  );
});

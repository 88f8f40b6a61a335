import { expect, inject, test } from "vitest";
import { ADMIN, adminApi, unique } from "../../e2e/fixtures";

const baseURL = inject("baseURL");

// The audit log's filters as a hostile caller sends them: each bad value is the caller's mistake —
// a 422 naming the parameter from the API, a message naming it on the page (which still answers
// 200, with the good filters applied) — never a 500. NUL is refused as on the other list pages.

const HOSTILE: [string, string][] = [
  ["action", "<script>alert(1)</script>"],
  ["action", "batch.import' or '1'='1"],
  ["target", "batch;drop table audit_log"],
  ["actor", "ana\u0000"],
  ["actor", "x".repeat(101)],
  ["from", "2026-02-30"],
  ["to", "yesterday"],
];

test("bad filter values are refused naming the parameter: a 422 from the API, a message on the page, never a 500", async () => {
  const admin = await adminApi(baseURL);
  for (const [name, value] of HOSTILE) {
    const qs = new URLSearchParams({ [name]: value }).toString();
    const api = await admin.get(`/api/audit?${qs}`);
    expect(api.status(), qs).toBe(422);
    expect(
      (await api.json()).error.details.problems.map((p: { field: string }) => p.field),
      qs,
    ).toEqual([name]);

    const page = await admin.get(`/people/audit?${qs}&target=campaign`);
    expect(page.status(), qs).toBe(200);
    const html = await page.text();
    expect(html, qs).toContain(`Ignored part of the address: ${name} `);
    expect(html).not.toContain("<script>alert(1)</script>");
  }
  const backwards = await admin.get("/api/audit?from=2026-12-02&to=2026-12-01");
  expect(backwards.status()).toBe(422);
  expect((await backwards.json()).error.details.problems).toEqual([{ field: "to", message: "must not be before from" }]);
  await admin.dispose();
});

test("the page filters by action, actor and target kind, and names a campaign with its link instead of raw JSON", async () => {
  const admin = await adminApi(baseURL);
  const name = unique("audit-filtered");
  const made = await admin.post("/api/campaigns", { data: { name } });
  expect(made.status()).toBe(201);
  const id = (await made.json()).campaign.id as number;

  const api = await admin.get(`/api/audit?action=campaign.create&actor=${ADMIN.username.toUpperCase()}&target=campaign&limit=500`);
  expect(api.status()).toBe(200);
  const entries = (await api.json()).entries as { action: string; actorUsername: string; targetId: string }[];
  expect(entries.every((e) => e.action === "campaign.create" && e.actorUsername === ADMIN.username)).toBe(true);
  expect(entries.map((e) => e.targetId)).toContain(String(id));

  const today = new Date().toISOString().slice(0, 10);
  const html = await (
    await admin.get(`/people/audit?action=campaign.create&actor=${ADMIN.username}&target=campaign&from=${today}&to=${today}`)
  ).text();
  expect(html).toContain(`href="/campaigns/${id}">${name}</a>`);
  expect(html).toContain("Created a campaign");
  expect(html).not.toContain(`{&quot;name&quot;`);
  expect(await (await admin.get("/people/audit?action=user.disable&actor=nobody-at-all")).text()).toContain(
    "No entry matches these filters.",
  );
  await admin.dispose();
});

// Each KILT task from its fixture to a scored export: the coordinator imports one line of the
// team's fixture file (test/fixtures/kinds/, named as KILT names its files, so the task is
// detected), three annotators judge every passage of it — one on the desktop with the keyboard, one
// on a phone by touch, one through the API — and the KILT export, read back by the app's scorer
// (KILT's eval_retrieval.py semantics), gives R-precision 1 to a guess that ranks the endorsed
// evidence first.
import fs from "node:fs";
import path from "node:path";
import { devices, expect, test, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { parseGoldLine, parseGuessLine } from "@/lib/kilt/score/records";
import { idsOf, rPrecision } from "@/lib/kilt/score/retrieval";
import type { TaskKind } from "@/lib/kilt/task-kind";
import { seriousViolations } from "./axe";
import { adminApi, createAccount, signedInApi, unique } from "./fixtures";
import { wordPoint } from "./word-point";

const FIXTURES = path.join(import.meta.dirname, "..", "test", "fixtures", "kinds");
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name), "utf8");

interface Case {
  kind: TaskKind;
  file: string;
  /** The region TaskBlock gives the line, and a text it shows. */
  region: string;
}

const CASES: Case[] = [
  { kind: "qa", file: "nq-dev-kilt.jsonl", region: "Question" },
  { kind: "fact-checking", file: "fever-dev-kilt.jsonl", region: "Claim" },
  { kind: "slot-filling", file: "trex-dev-kilt.jsonl", region: "Fact to fill" },
  { kind: "entity-linking", file: "aidayago2-dev-kilt.jsonl", region: "Mention" },
  { kind: "dialogue", file: "wow-dev-kilt.jsonl", region: "Conversation" },
];

interface Item {
  campaignId: number;
  kiltId: string;
  passages: number;
  /** Fact checking: the dataset's label, which every annotator gives. */
  label: "SUPPORTS" | "REFUTES" | null;
}

/** A campaign that shows answers (dialogue's reply), with the fixture's first line imported under the fixture's name and launched. */
async function launchItem(admin: APIRequestContext, c: Case): Promise<Item> {
  const knowledge = await admin.post("/api/knowledge?name=knowledge.jsonl", {
    data: Buffer.from(fixture("knowledge.jsonl")),
    headers: { "content-type": "application/x-ndjson" },
  });
  expect(knowledge.status(), await knowledge.text()).toBe(201);
  const created = await admin.post("/api/campaigns", {
    data: { name: unique(`e2e-${c.kind}`), showAnswers: true, goldAccuracyThreshold: 0 },
  });
  expect(created.status(), await created.text()).toBe(201);
  const campaignId: number = (await created.json()).campaign.id;
  const first = fixture(c.file).split("\n")[0]!;
  const imported = await admin.post(`/api/campaigns/${campaignId}/batches`, {
    multipart: { queries: { name: c.file, mimeType: "application/x-ndjson", buffer: Buffer.from(first + "\n") } },
  });
  expect(imported.status(), await imported.text()).toBe(201);
  const result = await imported.json();
  expect(result.task).toMatchObject({ kind: c.kind, detected: c.kind });
  expect(result.task.reason).toContain(c.file);
  expect((await admin.post(`/api/batches/${result.batch.id}/launch`)).status()).toBe(200);
  const line = JSON.parse(first);
  const answer = line.output[0]?.answer;
  return {
    campaignId,
    kiltId: String(line.id),
    passages: result.passages,
    label: c.kind === "fact-checking" ? answer : null,
  };
}

async function annotatorPage(browser: Browser, admin: APIRequestContext, baseURL: string, device: "desktop" | "phone") {
  const api = await signedInApi(baseURL, await createAccount(admin, "annotator", `journey-${device}`));
  const options = device === "phone" ? { ...devices["Pixel 7"] } : { viewport: { width: 1440, height: 900 } };
  const context = await browser.newContext({ ...options, storageState: await api.storageState() });
  return { api, context, page: await context.newPage() };
}

const nothingLeft = (p: Page) => p.getByRole("heading", { name: "Nothing left for you in this campaign" });
const bar = (p: Page) => p.getByRole("region", { name: "Verdict" });

/** Judges every passage of the item on `p`: by keyboard (the sentence key, the verdict's key, Enter) or by taps (a word, the verdict, Submit). */
async function judgeInBrowser(p: Page, c: Case, item: Item, how: "keyboard" | "touch"): Promise<void> {
  await p.goto(`/annotate/${item.campaignId}`);
  const passage = p.locator("article.passage");
  for (let i = 0; i < item.passages; i++) {
    await expect(passage).toBeVisible();
    await expect(p.getByRole("region", { name: c.region })).toBeVisible();
    const before = await passage.innerText();
    if (i === 0) expect(await seriousViolations(p), `${c.kind}, ${how}`).toEqual([]);
    const choice = item.label === "SUPPORTS" ? /Supports/ : item.label === "REFUTES" ? /Refutes/ : /^(\S+ )?Sufficient/;
    if (how === "keyboard") {
      if (c.kind !== "entity-linking") {
        await p.keyboard.press("s");
        await expect(p.locator(".passage-body mark").first()).toBeVisible();
      }
      await p.keyboard.press(item.label === "SUPPORTS" ? "3" : item.label === "REFUTES" ? "4" : "1");
    } else {
      if (c.kind !== "entity-linking") {
        const word = (await p.locator(".passage-body p").last().innerText()).match(/[\p{L}\p{N}]{3,}/u)![0];
        const point = await wordPoint(p, word);
        await p.touchscreen.tap(point.x, point.y);
        await expect(p.locator(".passage-body mark").first()).toBeVisible();
      }
      await bar(p).getByRole("button", { name: choice }).tap();
    }
    await expect(bar(p).getByRole("button", { name: choice })).toHaveAttribute("aria-pressed", "true");
    if (how === "keyboard") await p.keyboard.press("Enter");
    else
      await bar(p)
        .getByRole("button", { name: /Submit/ })
        .tap();
    if (i + 1 < item.passages) await expect.poll(() => passage.innerText()).not.toBe(before);
  }
  await expect(nothingLeft(p)).toBeVisible();
}

/** The third annotator, through the API: sufficient on every passage (the dataset's label for fact checking; no span for entity linking). */
async function judgeByApi(api: APIRequestContext, c: Case, item: Item): Promise<void> {
  for (let i = 0; i < item.passages; i++) {
    const next = await api.post(`/api/campaigns/${item.campaignId}/next`);
    expect(next.status(), await next.text()).toBe(200);
    const task = await next.json();
    expect(task.query.kind).toBe(c.kind);
    const para = task.passage.paragraphs.at(-1);
    const text = para.text.trimEnd();
    const span =
      c.kind === "entity-linking"
        ? null
        : { startParagraphId: para.id, startCharacter: 0, endParagraphId: para.id, endCharacter: Array.from(text).length, text };
    const sent = await api.post(`/api/claims/${task.claim.handle}/judgment`, {
      data: { verdict: "sufficient", span, durationMs: 4000, idempotencyKey: unique("key"), ...(item.label ? { label: item.label } : {}) },
    });
    expect(sent.status(), await sent.text()).toBe(201);
  }
  expect((await api.post(`/api/campaigns/${item.campaignId}/next`)).status()).toBe(204);
}

/** The campaign's KILT export: its one line, checked for the kind's shape. */
async function exportedLine(admin: APIRequestContext, c: Case, item: Item) {
  const res = await admin.get(`/api/campaigns/${item.campaignId}/export?location=span`);
  expect(res.status()).toBe(200);
  const lines = (await res.text()).trimEnd().split("\n");
  expect(lines).toHaveLength(1);
  const line = JSON.parse(lines[0]!);
  expect(line.id).toBe(item.kiltId);
  const items = (line.output as { answer?: string; provenance?: Record<string, unknown>[] }[]).flatMap((o) => o.provenance ?? []);
  expect(items.length).toBeGreaterThanOrEqual(1);
  if (c.kind === "entity-linking") for (const p of items) expect(Object.keys(p).sort()).toEqual(["title", "wikipedia_id"]);
  else for (const p of items) expect(p).toMatchObject({ start_paragraph_id: expect.any(Number), start_character: expect.any(Number) });
  if (c.kind === "fact-checking") expect(line.output.map((o: { answer?: string }) => o.answer)).toContain(item.label);
  return { line, items };
}

for (const c of CASES) {
  test(`${c.kind}: ${c.file} imported, judged on the desktop, a phone and the API, exported; R-precision 1 for the endorsed evidence ranked first`, async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const admin = await adminApi(baseURL!);
    const item = await launchItem(admin, c);
    for (const [device, how] of [
      ["desktop", "keyboard"],
      ["phone", "touch"],
    ] as const) {
      const a = await annotatorPage(browser, admin, baseURL!, device);
      await judgeInBrowser(a.page, c, item, how);
      await a.context.close();
      await a.api.dispose();
    }
    const third = await signedInApi(baseURL!, await createAccount(admin, "annotator", "journey-api"));
    await judgeByApi(third, c, item);

    // Every passage endorsed three to nothing: the export holds them, in the kind's shape, and the
    // app's scorer gives R-precision 1 to a guess that ranks them first.
    const { line, items } = await exportedLine(admin, c, item);
    const gold = parseGoldLine(line);
    const guess = parseGuessLine({ id: item.kiltId, output: [{ provenance: items }] });
    if (!gold.ok || !guess.ok) throw new Error("the export or the guess does not parse as KILT");
    expect(rPrecision(gold.record, idsOf(guess.record.provenance, "page"), "page")).toBe(1);
    if (c.kind !== "entity-linking") expect(rPrecision(gold.record, idsOf(guess.record.provenance, "paragraph"), "paragraph")).toBe(1);
    await third.dispose();
    await admin.dispose();
  });
}

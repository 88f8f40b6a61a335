// Issue 16's e2e data: a small knowledge source in which one page holds the evidence no candidate
// has, its text index, and one-question campaigns that ask for a proposal or an explanation.
import { randomBytes } from "node:crypto";
import { axeBuilder } from "./axe";
import { expect, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { createAccount, signedInApi, tasksOf, unique } from "./fixtures";

/** A word of letters only (the text index keeps it whole), unique to this run. */
export function uniqueWord(prefix: string): string {
  return prefix + Array.from(randomBytes(6), (b) => String.fromCharCode(97 + (b % 26))).join("");
}

export interface AskSource {
  tag: string;
  /** The evidence page: its title starts with an accent ("Élodie …"), its paragraph 4 holds the answer. */
  evidence: { wikipediaId: string; title: string; paragraphId: number; sentence: string };
  /** The candidates' pages (paragraph 1 each): nothing about the keeper. */
  harbour: string;
  lighthouse: string;
}

/** Uploads three pages and returns where everything is. */
export async function importAskSource(coordinator: APIRequestContext): Promise<AskSource> {
  const tag = uniqueWord("zq");
  const sentence = `She kept the ${tag} lighthouse from 1901 to 1933.`;
  const evidence = { wikipediaId: unique("ask-evidence"), title: `Élodie ${tag}`, paragraphId: 4, sentence };
  const harbour = unique("ask-harbour");
  const lighthouse = unique("ask-lighthouse");
  const pages = [
    {
      wikipedia_id: harbour,
      wikipedia_title: `Harbour ${tag}`,
      text: [`Harbour ${tag}\n`, "The harbour opened in 1820.\n", "Fishing boats moor here.\n"],
    },
    {
      wikipedia_id: lighthouse,
      wikipedia_title: `Lighthouse ${tag}`,
      text: [`Lighthouse ${tag}\n`, "The lighthouse is painted white.\n", "It stands on a rock.\n"],
    },
    {
      wikipedia_id: evidence.wikipediaId,
      wikipedia_title: evidence.title,
      text: [
        `${evidence.title}\n`,
        "Section::::Early life.\n",
        "Élodie was born in Quimper.\n",
        "Section::::Career.\n",
        `${sentence} She retired to Brest.\n`,
        "She died in 1950.\n",
      ],
    },
  ];
  const res = await coordinator.post("/api/knowledge?name=ask.jsonl", {
    data: Buffer.from(pages.map((p) => JSON.stringify(p)).join("\n") + "\n"),
    headers: { "content-type": "application/x-ndjson" },
  });
  expect(res.status(), await res.text()).toBe(201);
  return { tag, evidence, harbour, lighthouse };
}

/** Builds the text index (POST /api/knowledge/index) and waits until it is ready and finds the evidence. */
export async function buildTextIndex(coordinator: APIRequestContext, source: AskSource): Promise<void> {
  const started = await coordinator.post("/api/knowledge/index");
  expect(started.status(), await started.text()).toBe(202);
  await expect.poll(async () => (await (await coordinator.get("/api/knowledge/index")).json()).state, { timeout: 60_000 }).toBe("ready");
  await expect
    .poll(
      async () => {
        const res = await coordinator.get(`/api/knowledge/search?mode=text&q=${source.tag}`);
        return res.ok() ? ((await res.json()).results as { wikipediaId: string }[]).map((r) => r.wikipediaId) : [];
      },
      { timeout: 60_000 },
    )
    .toContain(source.evidence.wikipediaId);
}

/**
 * A campaign (R = 2, T = 2, asking on) with one launched question and two retrieved candidates
 * (the harbour and the lighthouse pages), no gold: the retrievers missed the evidence, and a gold
 * passage left unendorsed would make the question unanswerable (kept out of the export).
 */
export async function oneQuestionCampaign(
  coordinator: APIRequestContext,
  source: AskSource,
  input: string,
): Promise<{ campaignId: number; queryId: string }> {
  const created = await coordinator.post("/api/campaigns", {
    data: {
      name: unique("e2e-ask"),
      judgmentsPerPassage: 2,
      endorsementThreshold: 2,
      goldAccuracyThreshold: 0,
      askWhenNoneSufficient: true,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const campaignId: number = (await created.json()).campaign.id;
  const queryId = unique("q");
  const at = (wikipediaId: string) => [{ wikipedia_id: wikipediaId, start_paragraph_id: 1, end_paragraph_id: 1 }];
  const line = JSON.stringify({ id: queryId, input, output: [{ answer: "1901" }] });
  const candidates = JSON.stringify({ id: queryId, output: [{ provenance: [...at(source.harbour), ...at(source.lighthouse)] }] });
  const imported = await coordinator.post(`/api/campaigns/${campaignId}/batches`, {
    multipart: {
      queries: { name: "q.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(line + "\n") },
      candidates: { name: "c.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(candidates + "\n") },
    },
  });
  expect(imported.status(), await imported.text()).toBe(201);
  const launched = await coordinator.post(`/api/batches/${(await imported.json()).batch.id}/launch`);
  expect(launched.status(), await launched.text()).toBe(200);
  return { campaignId, queryId };
}

/** Makes the campaign's annotators exactly these accounts (PUT …/members, ids looked up by username). */
export async function onlyMembers(coordinator: APIRequestContext, campaignId: number, usernames: string[]): Promise<void> {
  const ids: number[] = [];
  for (const username of usernames) {
    const { users } = await (await coordinator.get(`/api/users?q=${encodeURIComponent(username)}`)).json();
    ids.push((users as { id: number; username: string }[]).find((u) => u.username === username)!.id);
  }
  const res = await coordinator.put(`/api/campaigns/${campaignId}/members`, { data: { allAnnotators: false, userIds: ids } });
  expect(res.status(), await res.text()).toBe(200);
}

/** A new annotator: their API session, and a browser page signed in with the same cookies. */
export async function annotatorWithPage(browser: Browser, admin: APIRequestContext, baseURL: string, prefix: string) {
  const username = await createAccount(admin, "annotator", prefix);
  const api = await signedInApi(baseURL, username);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, storageState: await api.storageState() });
  return { username, api, context, page: await context.newPage() };
}

/** Judges every passage on screen "not sufficient" with the keys (2, Enter) until the Ask screen shows. */
export async function judgeNoneSufficient(page: Page): Promise<number> {
  const asked = page.getByText("None of this question’s passages held enough evidence.");
  let judged = 0;
  for (;;) {
    const passage = page.locator("article.passage[data-claim]");
    await expect(passage.or(asked).first()).toBeVisible();
    if (await asked.isVisible()) return judged;
    const claim = await passage.getAttribute("data-claim");
    await page.keyboard.press("2");
    await page.keyboard.press("Enter");
    await expect(page.locator(`article.passage[data-claim="${claim}"]`)).toHaveCount(0);
    judged++;
  }
}

/** axe's serious and critical violations on the page at 1280 and at 390 px wide (as e2e/axe-pages.spec.ts counts them). */
export async function axeAtBothWidths(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const size of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(size);
    // The title comes with the page's metadata, which may land just after a client navigation's content.
    await expect(page).toHaveTitle(/\S/);
    const { violations } = await axeBuilder(page).analyze();
    const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    found.push(...serious.map((v) => `${size.width}px ${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`));
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  return found;
}

/** Judges every passage the annotator is given through the API: the proposal (by its page) sufficient with `span`, others by `other`. */
export async function judgeByApi(api: APIRequestContext, campaignId: number, proposalPage: string, span: object, otherSufficient: boolean) {
  const seen: { wikipediaId: string; paragraphIds: number[] }[] = [];
  for await (const task of tasksOf(api, campaignId)) {
    const p = task.passage.paragraphs[0];
    seen.push({ wikipediaId: task.passage.wikipediaId, paragraphIds: task.passage.paragraphs.map((x: { id: number }) => x.id) });
    const isProposal = task.passage.wikipediaId === proposalPage;
    const words = p.text.split(" ").slice(0, 2).join(" ");
    const own = { startParagraphId: p.id, startCharacter: 0, endParagraphId: p.id, endCharacter: Array.from(words).length, text: words };
    const yes = isProposal || otherSufficient;
    const body = {
      verdict: yes ? "sufficient" : "insufficient",
      span: isProposal ? span : yes ? own : null,
      durationMs: 1500,
      idempotencyKey: unique("key"),
    };
    const submit = await api.post(`/api/claims/${task.claim.handle}/judgment`, { data: body });
    expect(submit.status(), await submit.text()).toBe(201);
  }
  return seen;
}

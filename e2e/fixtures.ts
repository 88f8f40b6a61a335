import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { expect, request, type APIRequestContext, type Page } from "@playwright/test";

export const ADMIN = { username: "e2e-admin", password: "e2e-admin-password" } as const;
export const PASSWORD = "e2e-password-123";
const accountsFile = path.join(import.meta.dirname, ".auth", "accounts.json");

export type Role = "coordinator" | "annotator";
export interface Accounts {
  coordinator: string;
  annotator: string;
}

export function unique(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString("hex")}`;
}

export function saveAccounts(accounts: Accounts): void {
  fs.mkdirSync(path.dirname(accountsFile), { recursive: true });
  fs.writeFileSync(accountsFile, JSON.stringify(accounts));
}

/** The accounts the setup project made for this run (unique names, shared password). */
export function accounts(): Accounts {
  return JSON.parse(fs.readFileSync(accountsFile, "utf8")) as Accounts;
}

export function storageStatePath(role: Role): string {
  return path.join(path.dirname(accountsFile), `${role}.json`);
}

/**
 * A fresh API context signed in as `username` (its own session). The shared accounts are signed in
 * by many test files at once from one address: past 5 attempts of a pair in flight, the sign-in
 * limit answers 429 "Wait N seconds", which is waited for (up to 3 times, N ≤ 30).
 */
export async function signedInApi(baseURL: string, username: string, password = PASSWORD): Promise<APIRequestContext> {
  const api = await request.newContext({ baseURL });
  for (let attempt = 1; ; attempt++) {
    const res = await api.post("/api/auth/sign-in", { data: { username, password } });
    if (res.ok()) return api;
    const text = await res.text();
    const wait = res.status() === 429 ? Number(/Wait (\d+) seconds?/.exec(text)?.[1]) : NaN;
    if (attempt > 3 || !(wait > 0 && wait <= 30)) throw new Error(`sign-in of ${username} failed: ${res.status()} ${text}`);
    await new Promise((resolve) => setTimeout(resolve, wait * 1000 + 100));
  }
}

/** Signs `username` in through the sign-in form, with the keyboard; lands on their start page (an annotator's queue). */
export async function signInWithForm(page: Page, username: string, password = PASSWORD, landing = /\/annotate$/): Promise<void> {
  await page.goto("/");
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(landing);
}

export function adminApi(baseURL: string): Promise<APIRequestContext> {
  return signedInApi(baseURL, ADMIN.username, ADMIN.password);
}

/** Creates an account with a password through the API, as the admin. */
export async function createAccount(admin: APIRequestContext, role: Role, prefix: string = role): Promise<string> {
  const username = unique(`e2e-${prefix}`);
  const res = await admin.post("/api/users", { data: { username, role, password: PASSWORD } });
  if (res.status() !== 201) throw new Error(`creating ${username} failed: ${res.status()} ${await res.text()}`);
  return username;
}

export interface AppProcess {
  url: string;
  output(): string;
  exited(): Promise<number | null>;
  stop(): Promise<void>;
}

/** Starts another app process (the production build) on its own port and embedded data directory. */
export function startApp(port: number, dataDir: string, env: Record<string, string> = {}): AppProcess {
  const child = spawn(process.execPath, [path.join(process.cwd(), "server", "production-server.mjs"), "--port", String(port)], {
    env: { ...process.env, DATABASE_URL: "", KPS_ADMIN_USERNAME: "", KPS_ADMIN_PASSWORD: "", KPS_DATA_DIR: dataDir, ...env },
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const exited = () =>
    new Promise<number | null>((resolve) =>
      child.exitCode !== null || child.signalCode !== null ? resolve(child.exitCode) : child.on("exit", (code) => resolve(code)),
    );
  return {
    url: `http://localhost:${port}`,
    output: () => output,
    exited,
    stop: async () => {
      child.kill("SIGTERM");
      await exited();
    },
  };
}

/** Waits until an app answers its health route. */
export async function waitHealthy(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const status = await fetch(`${url}/api/health`)
      .then((r) => r.status)
      .catch(() => 0);
    if (status === 200) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not become healthy within ${timeoutMs} ms`);
}

export function tempDataDir(): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), "kps-e2e-")), "pglite");
}

/**
 * Older browser specs judge every passage of a question "not sufficient" and expect the next
 * passage: the campaigns these helpers make do not ask for a proposal or an explanation (issue 16)
 * unless the spec's `settings` say `askWhenNoneSufficient: true`.
 */
const NO_ASK = { askWhenNoneSufficient: false } as const;

/**
 * A campaign with one launched batch of two questions (gold + one candidate each, single paragraphs)
 * on a fresh five-paragraph page; `settings` go to POST /api/campaigns (no asking unless they say so).
 */
export async function launchedTwoQuestionBatch(
  admin: APIRequestContext,
  prefix: string,
  settings: Record<string, unknown> = {},
): Promise<{ campaignId: number; batchId: number }> {
  const wikipediaId = unique(`${prefix}-page`);
  const text = [
    `${prefix} page\n`,
    "The tower was lit in 1871.\n",
    "It was relit in 2005.\n",
    "A museum opened in 2010.\n",
    "Ferries stop there.\n",
  ];
  const knowledge = await admin.post("/api/knowledge?name=p.jsonl", {
    data: Buffer.from(JSON.stringify({ wikipedia_id: wikipediaId, wikipedia_title: `${prefix} page`, text }) + "\n"),
    headers: { "content-type": "application/x-ndjson" },
  });
  expect(knowledge.status(), await knowledge.text()).toBe(201);
  const created = await admin.post("/api/campaigns", { data: { name: unique(`e2e-${prefix}`), ...NO_ASK, ...settings } });
  const campaignId: number = (await created.json()).campaign.id;
  const ids = [unique("q"), unique("q")];
  const provenance = (p: number) => [{ wikipedia_id: wikipediaId, start_paragraph_id: p, end_paragraph_id: p }];
  const queries = ids.map((id, i) =>
    JSON.stringify({ id, input: `question ${i}`, output: [{ answer: "1871", provenance: provenance(1 + 2 * i) }] }),
  );
  const candidates = ids.map((id, i) => JSON.stringify({ id, output: [{ provenance: provenance(2 + 2 * i) }] }));
  const batchId = await importAndLaunch(admin, campaignId, queries, candidates);
  return { campaignId, batchId };
}

/** Imports one knowledge page through the API (`text` its paragraphs, the title first), expecting 201. */
export async function importKnowledgePage(api: APIRequestContext, wikipediaId: string, title: string, text: string[]): Promise<void> {
  expect(
    (
      await api.post("/api/knowledge?name=p.jsonl", {
        data: Buffer.from(JSON.stringify({ wikipedia_id: wikipediaId, wikipedia_title: title, text }) + "\n"),
        headers: { "content-type": "application/x-ndjson" },
      })
    ).status(),
  ).toBe(201);
}

/** Imports a batch of KILT lines (the questions and their retrieved candidates) into a campaign and launches it; its id. */
export async function importAndLaunch(
  api: APIRequestContext,
  campaignId: number,
  queries: string[],
  candidates: string[],
  /** The import's options, as form fields (`sets: "pairs"`, `partialEvidence: "on"`, …). */
  options: Record<string, string> = {},
): Promise<number> {
  const imported = await api.post(`/api/campaigns/${campaignId}/batches`, {
    multipart: {
      queries: { name: "q.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(queries.join("\n") + "\n") },
      candidates: { name: "c.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(candidates.join("\n") + "\n") },
      ...options,
    },
  });
  expect(imported.status(), await imported.text()).toBe(201);
  const batchId: number = (await imported.json()).batch.id;
  expect((await api.post(`/api/batches/${batchId}/launch`)).status()).toBe(200);
  return batchId;
}

/** The tasks one annotator is given through the API (POST …/next), one after another until none is left (204). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the task is the API's JSON, read as the tests need
export async function* tasksOf(api: APIRequestContext, campaignId: number): AsyncGenerator<any> {
  for (;;) {
    const res = await api.post(`/api/campaigns/${campaignId}/next`);
    if (res.status() === 204) return;
    expect(res.status(), await res.text()).toBe(200);
    yield await res.json();
  }
}

/**
 * One annotator's pass over every passage of a campaign through the API, judging by the passage's
 * first paragraph id (the API shows no passage id): sufficient (its first three words) where
 * `sufficient` says so. Returns the first paragraph ids of the passages judged, in order.
 * `durationMs` is what the client claims (a hint the server keeps, no figure reads it); `takeMs` a
 * real wait between getting each task and judging it, which the server's time does measure.
 */
export async function judgeAll(
  api: APIRequestContext,
  campaignId: number,
  sufficient: (startParagraphId: number) => boolean,
  durationMs = 1200,
  takeMs = 0,
): Promise<number[]> {
  const judged: number[] = [];
  for await (const task of tasksOf(api, campaignId)) {
    const p = task.passage.paragraphs[0];
    const yes = sufficient(p.id);
    const text = p.text.split(" ").slice(0, 3).join(" ");
    if (takeMs > 0) await new Promise((r) => setTimeout(r, takeMs));
    const submit = await api.post(`/api/claims/${task.claim.handle}/judgment`, {
      data: {
        verdict: yes ? "sufficient" : "insufficient",
        span: yes ? { startParagraphId: p.id, startCharacter: 0, endParagraphId: p.id, endCharacter: Array.from(text).length, text } : null,
        durationMs,
        idempotencyKey: unique("key"),
      },
    });
    expect(submit.status(), await submit.text()).toBe(201);
    judged.push(p.id);
  }
  return judged;
}

/** A file of the demo campaign (db/demo/). */
export const demoFile = (name: string) => path.join(import.meta.dirname, "..", "db", "demo", name);

const upload = (name: string) => ({ name, mimeType: "application/x-ndjson", buffer: fs.readFileSync(demoFile(name)) });

/** A coordinator's campaign with the demo batch (top-1 candidate per question) imported and launched, all through the API (no asking unless `settings` say so). */
export async function launchDemoCampaign(
  api: APIRequestContext,
  settings: Record<string, unknown> = {},
  only?: { queryId: string },
): Promise<{ campaignId: number; passages: number; name: string }> {
  const name = unique("e2e-annotate");
  // These annotators judge by rhythm, not by reading: the gold rule would pause them (unless a test wants it).
  const created = await api.post("/api/campaigns", { data: { name, goldAccuracyThreshold: 0, ...NO_ASK, ...settings } });
  expect(created.status(), await created.text()).toBe(201);
  const campaignId: number = (await created.json()).campaign.id;
  const knowledge = await api.post("/api/knowledge", { multipart: { file: upload("knowledge.jsonl") } });
  expect(knowledge.status(), await knowledge.text()).toBe(201);
  // `only`: one question and its gold passage alone (no candidates), for a passage known in advance.
  const queries = only
    ? {
        name: "one-query.jsonl",
        mimeType: "application/x-ndjson",
        buffer: Buffer.from(
          fs
            .readFileSync(demoFile("queries.jsonl"), "utf8")
            .split("\n")
            .filter((l) => l.includes(`"id":"${only.queryId}"`))
            .join("\n") + "\n",
        ),
      }
    : upload("queries.jsonl");
  const batch = await api.post(`/api/campaigns/${campaignId}/batches`, {
    multipart: only
      ? { queries, name: "annotate e2e" }
      : { queries, candidates: upload("candidates.jsonl"), topK: "1", name: "annotate e2e" },
  });
  expect(batch.status(), await batch.text()).toBe(201);
  const imported = (await batch.json()) as { batch: { id: number }; queries: number; passages: number };
  expect(imported.queries).toBe(only ? 1 : 5);
  const launched = await api.post(`/api/batches/${imported.batch.id}/launch`);
  expect(launched.status(), await launched.text()).toBe(200);
  return { campaignId, passages: imported.passages, name };
}

/**
 * A new page (`text`: title, then paragraphs) and a launched campaign (gold accuracy rule off) of one
 * question on it: its gold provenance is paragraph 1, its one retrieval candidate paragraph 2. The
 * page's id is `<name>-page-…`, the campaign's name `e2e-<name>-…`.
 */
export async function launchOneQuestion(
  api: APIRequestContext,
  o: { name: string; title: string; text: string[]; input: string; answer: string },
) {
  const wikipediaId = unique(`${o.name}-page`);
  const knowledge = Buffer.from(JSON.stringify({ wikipedia_id: wikipediaId, wikipedia_title: o.title, text: o.text }) + "\n");
  expect(
    (await api.post("/api/knowledge?name=p.jsonl", { data: knowledge, headers: { "content-type": "application/x-ndjson" } })).status(),
  ).toBe(201);
  const campaign = (await (await api.post("/api/campaigns", { data: { name: unique(`e2e-${o.name}`), goldAccuracyThreshold: 0 } })).json())
    .campaign;
  const kiltId = unique("q");
  const line = JSON.stringify({
    id: kiltId,
    input: o.input,
    output: [{ answer: o.answer, provenance: [{ wikipedia_id: wikipediaId, start_paragraph_id: 1, end_paragraph_id: 1 }] }],
  });
  const candidates = JSON.stringify({
    id: kiltId,
    output: [{ provenance: [{ wikipedia_id: wikipediaId, start_paragraph_id: 2, end_paragraph_id: 2 }] }],
  });
  const imported = await api.post(`/api/campaigns/${campaign.id}/batches`, {
    multipart: {
      queries: { name: "q.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(line + "\n") },
      candidates: { name: "c.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(candidates + "\n") },
    },
  });
  expect(imported.status(), await imported.text()).toBe(201);
  expect((await api.post(`/api/batches/${(await imported.json()).batch.id}/launch`)).status()).toBe(200);
  return { campaign, kiltId };
}

/** Accepts an invite link on `page`: the role and the username it was made for shown, a password chosen twice, the account made. */
export async function acceptInvite(page: Page, url: string, o: { role: "annotator" | "coordinator"; username: string }) {
  await page.goto(new URL(url).pathname);
  await expect(page.getByText(`You are invited as ${o.role}`)).toBeVisible();
  await expect(page.getByLabel("Username")).toHaveValue(o.username);
  await page.getByLabel("Password", { exact: false }).first().fill(PASSWORD);
  await page.getByLabel("Repeat the password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create my account" }).click();
  // Accepting signs the account in and opens its start page.
  await page.waitForURL(o.role === "coordinator" ? /\/campaigns$/ : /\/annotate$/);
}

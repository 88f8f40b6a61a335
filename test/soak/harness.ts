import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";

/**
 * The soak tests' harness: the production server as a child process (killable with SIGKILL), a
 * tiny cookie-keeping HTTP client, a synthetic campaign, and annotators judging as fast as they can.
 */

export const ROOT = path.resolve(import.meta.dirname, "..", "..");
export const ADMIN = { username: "soak-admin", password: "soak-admin-password" };
export const PASSWORD = "soak-password-123";

export function unique(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString("hex")}`;
}

export interface Server {
  url: string;
  /** The process started (with KPS_WORKERS > 1 on PostgreSQL, the cluster's primary). */
  pid: number;
  output(): string;
  /** SIGKILL of the process started (the primary): no shutdown handler runs. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

/** The live child processes of `pid` (a primary's workers), from the ppid in /proc/<pid>/stat. */
export function childPids(pid: number): number[] {
  const out: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[1]) === pid && fields[0] !== "Z") out.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** Whether a process is still there (and not a zombie). */
export function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

export function startServer(port: number, env: Record<string, string>): Server {
  const child: ChildProcess = spawn(process.execPath, [path.join(ROOT, "server", "production-server.mjs"), "--port", String(port)], {
    cwd: ROOT,
    env: {
      ...process.env,
      KPS_DEMO: "0",
      KPS_ADMIN_USERNAME: ADMIN.username,
      KPS_ADMIN_PASSWORD: ADMIN.password,
      DATABASE_URL: "",
      KPS_DATA_DIR: "",
      ...env,
    },
  });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    output: () => output,
    kill: async () => {
      child.kill("SIGKILL");
      await exited;
    },
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

export async function waitHealthy(url: string, timeoutMs = 60_000): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    const status = await fetch(`${url}/api/health`)
      .then((r) => r.status)
      .catch(() => 0);
    if (status === 200) return Date.now() - started;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not become healthy within ${timeoutMs} ms`);
}

/** An HTTP client that keeps its session cookie. */
/**
 * How long a soak request may go unanswered. A request whose connection a killed worker took with it
 * (one that the cluster's primary had accepted and was handing over) is never answered, and fetch's
 * own limit is 300 s, the test's whole budget: such a request counts as an error instead, and the
 * annotator retries it with the same key, as the judging page does.
 */
const REQUEST_TIMEOUT_MS = 30_000;

export class Client {
  private cookie = "";
  constructor(readonly url: string) {}

  async signIn(username: string, password: string): Promise<void> {
    const res = await fetch(`${this.url}/api/auth/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username, password }),
    });
    if (res.status !== 200) throw new Error(`sign-in of ${username}: ${res.status} ${await res.text()}`);
    this.cookie = (res.headers.getSetCookie()[0] ?? "").split(";")[0]!;
  }

  async call(
    method: string,
    route: string,
    body?: unknown,
    headers: Record<string, string> = {},
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the soak reads answers of many shapes
  ): Promise<{ status: number; json: any; text: string }> {
    const init: RequestInit = { method, headers: { cookie: this.cookie, ...headers }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) };
    if (body !== undefined) {
      if (typeof body === "string" || body instanceof FormData) init.body = body;
      else {
        init.body = JSON.stringify(body);
        (init.headers as Record<string, string>)["content-type"] = "application/json";
      }
    }
    const res = await fetch(`${this.url}${route}`, init);
    const text = await res.text();
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as call() says
    let json: any = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    return { status: res.status, json, text };
  }
}

/** A campaign of `questions` × (1 gold + 4 candidates) passages, launched, with a 30-second lease and no gold pausing. */
export async function makeCampaign(admin: Client, questions: number): Promise<{ campaignId: number; passages: number }> {
  const tag = unique("soak");
  const pages = Array.from({ length: questions }, (_, i) => ({
    wikipedia_id: `${tag}-page-${i}`,
    wikipedia_title: `Soak Page ${i}`,
    text: [
      `Soak Page ${i}\n`,
      ...Array.from({ length: 6 }, (_, p) => `Paragraph ${p + 1} of page ${i} tells the soak fact number ${i * 10 + p}.\n`),
    ],
  }));
  const knowledge = await admin.call("POST", `/api/knowledge?name=${tag}.jsonl`, pages.map((p) => JSON.stringify(p)).join("\n") + "\n", {
    "content-type": "application/x-ndjson",
  });
  if (knowledge.status !== 201) throw new Error(`knowledge: ${knowledge.status} ${knowledge.text}`);
  const created = await admin.call("POST", "/api/campaigns", { name: tag, leaseSeconds: 30, goldMinJudgments: 10_000 });
  if (created.status !== 201) throw new Error(`campaign: ${created.status} ${created.text}`);
  const campaignId: number = created.json.campaign.id;
  const lines = pages.map((p, i) =>
    JSON.stringify({
      id: `${tag}-q${i}`,
      input: `what is soak fact ${i}`,
      output: [{ answer: "x", provenance: [{ wikipedia_id: p.wikipedia_id, start_paragraph_id: 1, end_paragraph_id: 1 }] }],
    }),
  );
  const candidates = pages.map((p, i) =>
    JSON.stringify({
      id: `${tag}-q${i}`,
      output: [{ provenance: [2, 3, 4, 5].map((k) => ({ wikipedia_id: p.wikipedia_id, start_paragraph_id: k, end_paragraph_id: k })) }],
    }),
  );
  const form = new FormData();
  form.append("queries", new Blob([lines.join("\n") + "\n"]), "queries.jsonl");
  form.append("candidates", new Blob([candidates.join("\n") + "\n"]), "candidates.jsonl");
  form.append("name", "soak batch");
  const imported = await admin.call("POST", `/api/campaigns/${campaignId}/batches`, form);
  if (imported.status !== 201) throw new Error(`batch: ${imported.status} ${imported.text}`);
  const launched = await admin.call("POST", `/api/batches/${imported.json.batch.id}/launch`);
  if (launched.status !== 200) throw new Error(`launch: ${launched.status} ${launched.text}`);
  return { campaignId, passages: imported.json.passages };
}

export async function makeAnnotators(admin: Client, url: string, n: number): Promise<{ username: string; client: Client }[]> {
  const out = [];
  for (let i = 0; i < n; i++) {
    const username = unique("soak-annotator");
    const res = await admin.call("POST", "/api/users", { username, role: "annotator", password: PASSWORD });
    if (res.status !== 201) throw new Error(`user: ${res.status} ${res.text}`);
    const client = new Client(url);
    await client.signIn(username, PASSWORD);
    out.push({ username, client });
  }
  return out;
}

export interface Ack {
  username: string;
  idempotencyKey: string;
  /** The claim's handle (the API shows no passage id). */
  claim: string;
}

export interface LoadResult {
  acked: Ack[];
  statuses: Map<number, number>;
  errors: number;
}

/**
 * Annotators judge until `stop()` says so or nothing is left: next → submit, as fast as they can.
 * A judgment is acknowledged when the server answered 201 or 200; network errors and 5xx are
 * counted and the worker goes on (the same claim is retried with the same key, as the UI does).
 */
export function runLoad(campaignId: number, annotators: { username: string; client: Client }[], options: { untilDrained?: boolean } = {}) {
  const result: LoadResult = { acked: [], statuses: new Map(), errors: 0 };
  let stopped = false;
  const count = (status: number) => result.statuses.set(status, (result.statuses.get(status) ?? 0) + 1);
  const worker = async (a: { username: string; client: Client }) => {
    let pending: { claim: string; body: unknown; key: string } | null = null;
    while (!stopped) {
      try {
        if (!pending) {
          const next = await a.client.call("POST", `/api/campaigns/${campaignId}/next`);
          count(next.status);
          if (next.status === 204) {
            if (options.untilDrained) return;
            await new Promise((r) => setTimeout(r, 200));
            continue;
          }
          if (next.status !== 200) {
            await new Promise((r) => setTimeout(r, 100));
            continue;
          }
          const task = next.json;
          const p = task.passage.paragraphs[0];
          const sufficient = (p.id + task.query.id.length + a.username.length) % 2 === 0;
          const word = p.text.split(" ")[0];
          const key = unique("key");
          pending = {
            claim: task.claim.handle,
            key,
            body: {
              verdict: sufficient ? "sufficient" : "insufficient",
              span: sufficient
                ? { startParagraphId: p.id, startCharacter: 0, endParagraphId: p.id, endCharacter: Array.from(word).length, text: word }
                : null,
              durationMs: 1500,
              idempotencyKey: key,
            },
          };
        }
        const submit = await a.client.call("POST", `/api/claims/${pending.claim}/judgment`, pending.body);
        count(submit.status);
        if (submit.status === 201 || submit.status === 200) {
          result.acked.push({ username: a.username, idempotencyKey: pending.key, claim: pending.claim });
          pending = null;
        } else if (submit.status === 410 || submit.status === 409 || submit.status === 403) {
          pending = null;
        } else {
          await new Promise((r) => setTimeout(r, 100));
        }
      } catch {
        result.errors++;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };
  const done = Promise.all(annotators.map(worker));
  return {
    result,
    done,
    stop: async () => {
      stopped = true;
      await done;
    },
  };
}

/** A fresh PostgreSQL database for one soak run (dropped by the returned function). */
export async function freshPostgresDatabase(
  base = process.env.KPS_SOAK_POSTGRES ?? "postgres://postgres@127.0.0.1:5432",
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `kps_soak_${randomBytes(4).toString("hex")}`;
  const admin = postgres(`${base}/postgres`, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  return {
    url: `${base}/${name}`,
    drop: async () => {
      const a = postgres(`${base}/postgres`, { max: 1, onnotice: () => {} });
      await a.unsafe(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}

/** A data directory under a new temporary folder, and a function that removes that folder (and its lock file). */
export function tempDataDir(): { dir: string; remove: () => Promise<void> } {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), "kps-soak-"));
  return { dir: path.join(parent, "pglite"), remove: () => fs.promises.rm(parent, { recursive: true, force: true }) };
}

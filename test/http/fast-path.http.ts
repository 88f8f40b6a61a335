// The production server's fast path (server/fast-path.ts) against Next.js's route, on the three routes
// it answers: every case is sent twice, once as is (the fast path answers) and once with
// `x-kps-fast-path: off` (Next.js's route answers), and the two answers must have the same status, the
// same body and the same headers but for the transport's own (date, connection, length, Next.js's vary).
// The cases are the authorization matrix's callers and the hostile input of these routes.
import net from "node:net";
import { type APIRequestContext } from "@playwright/test";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { crowdCampaign, enterCrowd } from "../../e2e/crowd-fixtures";
import { adminApi, createAccount, launchedTwoQuestionBatch, PASSWORD, unique } from "../../e2e/fixtures";

const baseURL = inject("baseURL");
/** Headers the transport sets, and `vary` (Next.js's names its router's headers, rsc…, beside Accept-Encoding: the fast path only the latter). */
const TRANSPORT = new Set(["date", "connection", "keep-alive", "content-length", "transfer-encoding", "vary"]);
const SECURITY = ["content-security-policy", "x-content-type-options", "referrer-policy", "content-type"];

interface Answer {
  status: number;
  body: string;
  headers: Record<string, string>;
  nextjs: boolean;
}

async function send(path: string, init: RequestInit & { headers?: Record<string, string> }, path2: "fast" | "next"): Promise<Answer> {
  const headers = { ...init.headers, ...(path2 === "next" ? { "x-kps-fast-path": "off" } : {}) };
  const res = await fetch(baseURL + path, {
    method: "POST",
    ...init,
    headers,
    ...(init.body instanceof ReadableStream ? { duplex: "half" } : {}),
  } as RequestInit);
  const all = Object.fromEntries(res.headers);
  return {
    status: res.status,
    body: await res.text(),
    headers: Object.fromEntries(Object.entries(all).filter(([name]) => !TRANSPORT.has(name))),
    nextjs: /\brsc\b/.test(all.vary ?? ""),
  };
}

/** Sends the request through both paths (the fast path first) and expects the same answer; returns it. */
async function same(what: string, path: string, init: RequestInit & { headers?: Record<string, string> } = {}, body = init.body) {
  const fast = await send(path, init, "fast");
  const next = await send(path, { ...init, body: typeof body === "function" ? (body as () => BodyInit)() : body }, "next");
  expect(fast.nextjs, `${what}: answered by the fast path`).toBe(false);
  expect(next.nextjs, `${what}: answered by Next.js`).toBe(true);
  expect({ status: fast.status, body: fast.body }, what).toEqual({ status: next.status, body: next.body });
  expect(fast.headers, what).toEqual(next.headers);
  for (const name of SECURITY) expect(fast.headers[name], `${what}: ${name}`).toBeTruthy();
  return fast;
}

/**
 * Up to 2 MB sent chunked (64 KB frames, no Content-Length) over a raw socket, stopped at the first
 * answer; the answer is read until the server closes the connection it stopped reading.
 */
function chunkedPost(path: string, cookie: string, via: "fast" | "next"): Promise<Answer> {
  const { hostname, port } = new URL(baseURL);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname === "localhost" ? "127.0.0.1" : hostname);
    let text = "";
    socket.on("data", (d) => (text += d));
    socket.on("error", () => {}); // a reset after the answer is expected: the server stops reading
    socket.on("close", () => {
      const [head = "", ...rest] = text.split("\r\n\r\n");
      const [statusLine = "", ...lines] = head.split("\r\n");
      const all = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1]),
        body: /\{.*\}/.exec(rest.join("\r\n\r\n"))?.[0] ?? "",
        headers: Object.fromEntries(Object.entries(all).filter(([name]) => !TRANSPORT.has(name))),
        nextjs: /\brsc\b/.test(all.vary ?? ""),
      });
    });
    socket.on("connect", () => {
      const extra = via === "next" ? "x-kps-fast-path: off\r\n" : "";
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nCookie: ${cookie}\r\nContent-Type: application/json\r\n${extra}Transfer-Encoding: chunked\r\n\r\n`,
      );
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const framed = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from("\r\n")]);
      let written = 0;
      const pump = () => {
        while (written < 2 * 1024 * 1024 && text === "" && !socket.destroyed) {
          written += chunk.length;
          if (!socket.write(framed)) return void socket.once("drain", pump);
        }
        if (text === "" && !socket.destroyed) socket.write("0\r\n\r\n");
      };
      pump();
    });
  });
}

async function cookieOf(username: string): Promise<string> {
  const res = await fetch(`${baseURL}/api/auth/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username, password: PASSWORD }),
  });
  expect(res.status).toBe(200);
  return res.headers.getSetCookie()[0]!.split(";")[0]!;
}

let admin: APIRequestContext;
let campaignId = 0;
let owner = ""; // the cookie of the annotator holding the claims below
let other = ""; // another annotator's cookie
let crowdToken = "";
let held = ""; // the owner's live claim
beforeAll(async () => {
  admin = await adminApi(baseURL);
  ({ campaignId } = await launchedTwoQuestionBatch(admin, "fast", { goldMinJudgments: 10_000 }));
  owner = await cookieOf(await createAccount(admin, "annotator", "fast-owner"));
  other = await cookieOf(await createAccount(admin, "annotator", "fast-other"));
  const crowd = await crowdCampaign(admin, {
    prefix: "fast-crowd",
    questions: 1,
    candidates: true,
    training: 1,
    crowd: { platform: "generic", trainingItems: 1 },
  });
  crowdToken = (await enterCrowd(baseURL, crowd.entryKey, { worker: unique("fast-worker") })).token;
  // The owner's first task, through both paths: the second answer is the same live claim.
  const task = await same("next as the owner", `/api/campaigns/${campaignId}/next`, { headers: { cookie: owner } });
  expect(task.status).toBe(200);
  held = (JSON.parse(task.body) as { claim: { handle: string } }).claim.handle;
});
afterAll(() => admin.dispose());

const json = (cookie: string, extra: Record<string, string> = {}) => ({ cookie, "content-type": "application/json", ...extra });
const judgment = (over: Record<string, unknown> = {}) =>
  JSON.stringify({ verdict: "insufficient", span: null, durationMs: 1000, idempotencyKey: unique("fast-key"), ...over });
const routes = () => [
  { name: "judgment", path: `/api/claims/${held}/judgment?next=1`, body: judgment() },
  { name: "next", path: `/api/campaigns/${campaignId}/next`, body: "" },
  { name: "renew", path: `/api/claims/${held}/renew`, body: "" },
];

test("callers the routes refuse: no session, another annotator, a crowd worker, a cross-origin POST", async () => {
  for (const r of routes()) {
    const body = r.body || undefined;
    const anonymous = await same(`${r.name}, no session`, r.path, { body, headers: { "content-type": "application/json" } });
    expect(anonymous.status).toBe(401);
    const someoneElse = await same(`${r.name}, another annotator`, r.path, { body, headers: json(other) });
    if (r.name !== "next") expect(someoneElse.status).toBe(403);
    const crowd = await same(`${r.name}, a crowd worker`, r.path, { body, headers: json("", { authorization: `Bearer ${crowdToken}` }) });
    expect(crowd.status).toBeGreaterThanOrEqual(403);
    for (const [label, headers] of [
      ["Origin of another site", { origin: "https://elsewhere.example" }],
      ["Sec-Fetch-Site cross-site", { "sec-fetch-site": "cross-site" }],
      ["Origin null", { origin: "null" }],
    ] as const) {
      const cross = await same(`${r.name}, ${label}`, r.path, { body, headers: json(owner, headers) });
      expect(cross.status).toBe(403);
    }
  }
});

test("hostile input: malformed JSON, wrong types, fields where none are taken, bad segments and queries", async () => {
  for (const r of routes()) {
    const malformed = await same(`${r.name}, malformed JSON`, r.path, { body: '{"verdict": ', headers: json(owner) });
    expect(malformed.status).toBe(400);
    const fields = r.name === "judgment" ? judgment({ verdict: 5, durationMs: "long", span: [] }) : JSON.stringify({ unexpected: 1 });
    expect((await same(`${r.name}, wrong types`, r.path, { body: fields, headers: json(owner) })).status).toBe(422);
  }
  const bad = [
    `/api/claims/not-a-handle/judgment`,
    `/api/claims/${held}/judgment?next=yes`,
    `/api/claims/${held}/judgment?next=1&after=%3Cscript%3E`,
    `/api/campaigns/0/next`,
    `/api/campaigns/1x/next`,
    `/api/campaigns/${campaignId}/next?after=${"x".repeat(70)}`,
    `/api/claims/%3Cb%3E/renew`,
  ];
  for (const path of bad) {
    const body = path.includes("judgment") ? judgment() : undefined;
    expect((await same(path, path, { body, headers: json(owner) })).status).toBe(422);
  }
  const empty = await same("judgment, empty body", `/api/claims/${held}/judgment`, { headers: json(owner) });
  expect(empty.status).toBe(400);
});

test("oversized bodies: declared and streamed past the limit are 413", async () => {
  const big = "x".repeat(1_000_001);
  for (const r of routes()) {
    const declared = await same(`${r.name}, 1 MB + 1`, r.path, { body: big, headers: json(owner) });
    expect(declared.status).toBe(413);
  }
  // Over node:http, which reads the answer while its body is still being refused (fetch gives up on the body's write error).
  const [fast, next] = [
    await chunkedPost(`/api/claims/${held}/judgment`, owner, "fast"),
    await chunkedPost(`/api/claims/${held}/judgment`, owner, "next"),
  ];
  expect([fast.nextjs, next.nextjs]).toEqual([false, true]);
  expect({ status: fast.status, body: fast.body, headers: fast.headers }).toEqual({
    status: next.status,
    body: next.body,
    headers: next.headers,
  });
  const chunked = fast;
  expect(chunked.status).toBe(413);
});

test("claims not the caller's to judge: an ended claim, a handle nobody holds; then the answers that succeed", async () => {
  const nobody = await same("judgment, a handle nobody holds", `/api/claims/${"A".repeat(22)}/judgment`, {
    body: judgment(),
    headers: json(owner),
  });
  expect(nobody.status).toBe(404);
  expect((await same("renew, a handle nobody holds", `/api/claims/${"A".repeat(22)}/renew`, { headers: json(owner) })).status).toBe(404);
  // The renewal of a live claim: both 200, the same claim (its expiry moves on, so the bodies' keys are compared).
  const renewed = [
    await send(`/api/claims/${held}/renew`, { headers: json(owner) }, "fast"),
    await send(`/api/claims/${held}/renew`, { headers: json(owner) }, "next"),
  ];
  expect(renewed.map((a) => [a.status, a.nextjs])).toEqual([
    [200, false],
    [200, true],
  ]);
  expect(renewed[0]!.headers).toEqual(renewed[1]!.headers);
  // The judgment through the fast path (201), the same again through Next.js (a replay: 200, the same judgment).
  const body = judgment();
  const first = await send(`/api/claims/${held}/judgment?next=1`, { body, headers: json(owner) }, "fast");
  const replay = await send(`/api/claims/${held}/judgment?next=1`, { body, headers: json(owner) }, "next");
  expect([first.status, replay.status]).toEqual([201, 200]);
  expect(first.body).toBe(replay.body);
  expect(first.headers).toEqual(replay.headers);
  // The claim is ended now: renewing it, or judging it under a new key, answers alike.
  expect((await same("renew, an ended claim", `/api/claims/${held}/renew`, { headers: json(owner) })).status).toBe(410);
  const again = await same("judgment, an ended claim, a new key", `/api/claims/${held}/judgment`, {
    body: judgment(),
    headers: json(owner),
  });
  expect(again.status).toBeGreaterThanOrEqual(400);
});

import fs from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { accounts, adminApi, createAccount, PASSWORD, signedInApi, unique } from "./fixtures";

type Caller = "anonymous" | "annotator" | "coordinator";
type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

interface Setup {
  admin: APIRequestContext;
  baseURL: string;
}

interface Case {
  /** The concrete path; `[id]`-style segments are filled by the case. */
  path?: (s: Setup) => Promise<string> | string;
  body?: (s: Setup) => Promise<unknown> | unknown;
  /** A multipart body instead of JSON. */
  multipart?: (s: Setup) => Promise<Record<string, { name: string; mimeType: string; buffer: Buffer } | string>>;
  /** A raw body (sent as application/x-ndjson). */
  raw?: (s: Setup) => Promise<Buffer> | Buffer;
  /** The signed-in caller's account, when the shared one must not be used (the route ends its sessions or changes its password). */
  account?: (s: Setup, role: "annotator" | "coordinator") => Promise<string>;
  expect: Record<Caller, number>;
}

/** A campaign made by the admin, for routes under /api/campaigns/:id. */
async function newCampaign({ admin }: Setup): Promise<number> {
  const res = await admin.post("/api/campaigns", { data: { name: unique("matrix campaign") } });
  return (await res.json()).campaign.id;
}

/** A new annotator account's user id. */
async function newAnnotatorId({ admin }: Setup): Promise<number> {
  const res = await admin.post("/api/users", { data: { username: unique("detail"), role: "annotator", password: PASSWORD } });
  return (await res.json()).user.id;
}

/** A one-page knowledge file with a page id no other run used. */
function pageLine(wikipediaId: string): Buffer {
  return Buffer.from(JSON.stringify({ wikipedia_id: wikipediaId, wikipedia_title: "Matrix page", text: ["Matrix page\n", "It has one paragraph.\n"] }) + "\n");
}

/** A batch upload whose pages exist: imports a page first, then returns the questions file. */
async function batchFiles({ admin }: Setup) {
  const wikipediaId = unique("matrix-page");
  expect((await admin.post("/api/knowledge?name=matrix.jsonl", { data: pageLine(wikipediaId), headers: { "content-type": "application/x-ndjson" } })).status()).toBe(201);
  const line = { id: unique("q"), input: "what does the matrix page say", output: [{ answer: "one paragraph", provenance: [{ wikipedia_id: wikipediaId, start_paragraph_id: 1, end_paragraph_id: 1 }] }] };
  return { queries: { name: "queries.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(JSON.stringify(line) + "\n") } };
}

/** The handle of a claim held by a fresh annotator in a launched campaign (so the callers below are not its owner). */
async function someoneElsesClaim(setup: Setup): Promise<string> {
  const batchId = await draftBatch(setup);
  expect((await setup.admin.post(`/api/batches/${batchId}/launch`)).status()).toBe(200);
  const campaignId = (await (await setup.admin.get(`/api/batches/${batchId}`)).json()).batch.campaignId;
  const owner = await signedInApi(setup.baseURL, await createAccount(setup.admin, "annotator", "owner"));
  const res = await owner.post(`/api/campaigns/${campaignId}/next`);
  expect(res.status(), await res.text()).toBe(200);
  const handle: string = (await res.json()).claim.handle;
  await owner.dispose();
  return handle;
}

/** A draft batch in a new campaign. */
async function draftBatch(setup: Setup): Promise<number> {
  const campaignId = await newCampaign(setup);
  const res = await setup.admin.post(`/api/campaigns/${campaignId}/batches`, { multipart: await batchFiles(setup) });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).batch.id;
}

/**
 * Every API route × {anonymous, annotator, coordinator} with the status each must get.
 * A route added under app/api without an entry here fails the first test below.
 */
const matrix: Record<string, Case> = {
  "GET /api/health": { expect: { anonymous: 200, annotator: 200, coordinator: 200 } },
  "POST /api/auth/sign-in": {
    body: async ({ admin }) => ({ username: await createAccount(admin, "annotator", "signin"), password: PASSWORD }),
    expect: { anonymous: 200, annotator: 200, coordinator: 200 },
  },
  "POST /api/auth/sign-out": { body: () => ({}), expect: { anonymous: 200, annotator: 200, coordinator: 200 } },
  "GET /api/me": { expect: { anonymous: 401, annotator: 200, coordinator: 200 } },
  "POST /api/setup": {
    body: () => ({ username: unique("setup"), password: PASSWORD }),
    expect: { anonymous: 409, annotator: 409, coordinator: 409 },
  },
  "GET /api/users": { expect: { anonymous: 401, annotator: 403, coordinator: 200 } },
  "POST /api/users": {
    body: () => ({ username: unique("matrix"), role: "annotator", password: PASSWORD }),
    expect: { anonymous: 401, annotator: 403, coordinator: 201 },
  },
  "GET /api/tokens": { path: () => "/api/tokens?q=matrix&limit=5", expect: { anonymous: 401, annotator: 403, coordinator: 200 } },
  "POST /api/tokens": { body: () => ({ name: "matrix" }), expect: { anonymous: 401, annotator: 403, coordinator: 201 } },
  "DELETE /api/tokens/[id]": {
    path: async ({ admin }) => {
      const res = await admin.post("/api/tokens", { data: { name: "to revoke" } });
      return `/api/tokens/${(await res.json()).token.id}`;
    },
    expect: { anonymous: 401, annotator: 403, coordinator: 200 },
  },
  "GET /api/campaigns": { expect: { anonymous: 401, annotator: 403, coordinator: 200 } },
  "POST /api/campaigns": { body: () => ({ name: unique("matrix") }), expect: { anonymous: 401, annotator: 403, coordinator: 201 } },
  "GET /api/campaigns/[id]": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}`,
    expect: { anonymous: 401, annotator: 403, coordinator: 200 },
  },
  "PATCH /api/campaigns/[id]": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}`,
    body: () => ({ showAnswers: true }),
    expect: { anonymous: 401, annotator: 403, coordinator: 200 },
  },
  "PUT /api/campaigns/[id]/members": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/members`,
    body: () => ({ allAnnotators: false, userIds: [] }),
    expect: { anonymous: 401, annotator: 403, coordinator: 200 },
  },
  "GET /api/campaigns/[id]/crowd": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/crowd`,
    expect: { anonymous: 401, annotator: 403, coordinator: 200 },
  },
  "PUT /api/campaigns/[id]/crowd": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/crowd`,
    body: () => ({ enabled: true, quota: 6 }),
    expect: { anonymous: 401, annotator: 403, coordinator: 200 },
  },
  "GET /api/campaigns/[id]/batches": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/batches?q=matrix&limit=5`,
    expect: { anonymous: 401, annotator: 403, coordinator: 200 },
  },
  "POST /api/campaigns/[id]/batches": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/batches`,
    multipart: batchFiles,
    expect: { anonymous: 401, annotator: 403, coordinator: 201 },
  },
  "GET /api/batches/[id]": {
    path: async (s) => `/api/batches/${await draftBatch(s)}`,
    expect: { anonymous: 401, annotator: 403, coordinator: 200 },
  },
  "POST /api/batches/[id]/[action]": {
    path: async (s) => `/api/batches/${await draftBatch(s)}/launch`,
    expect: { anonymous: 401, annotator: 403, coordinator: 200 },
  },
  "GET /api/campaigns/[id]/judgments": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/judgments`,
    expect: { anonymous: 401, annotator: 403, coordinator: 200 },
  },
  "POST /api/campaigns/[id]/next": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/next`,
    expect: { anonymous: 401, annotator: 204, coordinator: 403 },
  },
  "POST /api/claims/[handle]/renew": {
    path: async (s) => `/api/claims/${await someoneElsesClaim(s)}/renew`,
    expect: { anonymous: 401, annotator: 403, coordinator: 403 },
  },
  "POST /api/claims/[handle]/judgment": {
    path: async (s) => `/api/claims/${await someoneElsesClaim(s)}/judgment`,
    body: () => ({ verdict: "insufficient", span: null, durationMs: 1000, idempotencyKey: unique("matrix-key") }),
    expect: { anonymous: 401, annotator: 403, coordinator: 403 },
  },
  // ── issue 14: undo, history, notes (finer cases: e2e/my-judgments-authz.spec.ts) ──
  "PUT /api/claims/[handle]/judgment": {
    path: async (s) => `/api/claims/${await someoneElsesClaim(s)}/judgment`,
    body: () => ({ verdict: "insufficient", span: null, durationMs: 1000, idempotencyKey: unique("matrix-key"), revision: 0 }),
    expect: { anonymous: 401, annotator: 404, coordinator: 403 },
  },
  "GET /api/campaigns/[id]/my-judgments": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/my-judgments?limit=5`,
    expect: { anonymous: 401, annotator: 200, coordinator: 403 },
  },
  "GET /api/campaigns/[id]/export": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/export?location=passage`,
    expect: { anonymous: 401, annotator: 403, coordinator: 200 },
  },
  "GET /api/campaigns/[id]/export/report": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/export/report`,
    expect: { anonymous: 401, annotator: 403, coordinator: 200 },
  },
  "GET /api/campaigns/[id]/dashboard": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/dashboard`,
    expect: { anonymous: 401, annotator: 403, coordinator: 200 },
  },
  "GET /api/campaigns/[id]/questions": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/questions?show=unanswerable&q=a`,
    expect: { anonymous: 401, annotator: 403, coordinator: 200 },
  },
  "GET /api/campaigns/[id]/annotators": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/annotators?sort=medianSeconds&dir=desc&q=a&limit=5`,
    expect: { anonymous: 401, annotator: 403, coordinator: 200 },
  },
  "POST /api/campaigns/[id]/annotators/[userId]/[action]": {
    path: async (s) => {
      const res = await s.admin.post("/api/users", { data: { username: unique("paused"), role: "annotator", password: PASSWORD } });
      return `/api/campaigns/${await newCampaign(s)}/annotators/${(await res.json()).user.id}/pause`;
    },
    expect: { anonymous: 401, annotator: 403, coordinator: 200 },
  },
  "GET /api/campaigns/[id]/annotators/[userId]": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/annotators/${await newAnnotatorId(s)}`,
    expect: { anonymous: 401, annotator: 403, coordinator: 200 },
  },
  "GET /api/campaigns/[id]/annotators/[userId]/judgments": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/annotators/${await newAnnotatorId(s)}/judgments?gold=1&limit=5`,
    expect: { anonymous: 401, annotator: 403, coordinator: 200 },
  },
  "GET /api/campaigns/[id]/annotator-warnings": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/annotator-warnings`,
    expect: { anonymous: 401, annotator: 403, coordinator: 200 },
  },
  // ── issue 15: the payment report ──
  "GET /api/campaigns/[id]/workers": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/workers?q=a&outcome=completed&limit=5`,
    expect: { anonymous: 401, annotator: 403, coordinator: 200 },
  },
  // The caller's own progress: annotators of the campaign only (every annotator works on a new campaign).
  "GET /api/campaigns/[id]/my-progress": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/my-progress`,
    expect: { anonymous: 401, annotator: 200, coordinator: 403 },
  },
  "POST /api/knowledge": {
    raw: () => pageLine(unique("matrix-page")),
    expect: { anonymous: 401, annotator: 403, coordinator: 201 },
  },
  "POST /api/invites": { body: () => ({ role: "annotator" }), expect: { anonymous: 401, annotator: 403, coordinator: 201 } },
  "POST /api/invites/accept": {
    body: async ({ admin }) => {
      const res = await admin.post("/api/invites", { data: { role: "annotator" } });
      const url: string = (await res.json()).invite.url;
      return { token: url.split("/invite/")[1], username: unique("accepted"), password: PASSWORD };
    },
    expect: { anonymous: 201, annotator: 201, coordinator: 201 },
  },
  // ── issue 12: accounts ──
  "POST /api/users/[id]/disable": {
    path: async ({ admin }) => `/api/users/${await freshUserId(admin)}/disable`,
    expect: { anonymous: 401, annotator: 403, coordinator: 200 },
  },
  "POST /api/users/[id]/enable": {
    path: async ({ admin }) => {
      const id = await freshUserId(admin);
      expect((await admin.post(`/api/users/${id}/disable`)).status()).toBe(200);
      return `/api/users/${id}/enable`;
    },
    expect: { anonymous: 401, annotator: 403, coordinator: 200 },
  },
  "PUT /api/users/[id]/password": {
    path: async ({ admin }) => `/api/users/${await freshUserId(admin)}/password`,
    body: () => ({ password: "matrix-set-password" }),
    expect: { anonymous: 401, annotator: 403, coordinator: 200 },
  },
  "POST /api/users/[id]/reset-link": {
    path: async ({ admin }) => `/api/users/${await freshUserId(admin)}/reset-link`,
    body: () => ({}),
    expect: { anonymous: 401, annotator: 403, coordinator: 201 },
  },
  "PUT /api/me/password": {
    account: ({ admin }, role) => createAccount(admin, role, "matrix-own"),
    body: () => ({ currentPassword: PASSWORD, newPassword: "matrix-new-password" }),
    expect: { anonymous: 401, annotator: 200, coordinator: 200 },
  },
  "GET /api/me/shortcuts": { expect: { anonymous: 401, annotator: 200, coordinator: 200 } },
  "PUT /api/me/shortcuts": {
    account: ({ admin }, role) => createAccount(admin, role, "matrix-shortcuts"),
    body: () => ({ enabled: false, keys: { sufficient: "y" } }),
    expect: { anonymous: 401, annotator: 200, coordinator: 200 },
  },
  "POST /api/auth/sign-out-everywhere": {
    account: ({ admin }, role) => createAccount(admin, role, "matrix-everywhere"),
    expect: { anonymous: 401, annotator: 200, coordinator: 200 },
  },
  "GET /api/audit": {
    path: () => "/api/audit?limit=5&order=asc&since=2026-01-01",
    expect: { anonymous: 401, annotator: 403, coordinator: 200 },
  },
};

/** A new annotator's id, for the routes under /api/users/:id. */
async function freshUserId(admin: APIRequestContext): Promise<number> {
  const res = await admin.post("/api/users", { data: { username: unique("matrix-target"), role: "annotator", password: PASSWORD } });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).user.id;
}

/** Every exported handler of every app/api/**\/route.ts, as "METHOD /api/path". */
function discoverRoutes(): string[] {
  const apiDir = path.join(process.cwd(), "app", "api");
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === "route.ts") {
        const source = fs.readFileSync(full, "utf8");
        const routePath = "/" + path.relative(path.join(process.cwd(), "app"), dir).split(path.sep).join("/");
        for (const m of source.matchAll(/export\s+(?:const|async\s+function|function)\s+(GET|POST|PUT|PATCH|DELETE)\b/g)) {
          found.push(`${m[1]} ${routePath}`);
        }
      }
    }
  };
  walk(apiDir);
  return found.sort();
}

test("the authorization matrix lists every API route", () => {
  expect(Object.keys(matrix).sort()).toEqual(discoverRoutes());
});

for (const [route, spec] of Object.entries(matrix)) {
  for (const caller of ["anonymous", "annotator", "coordinator"] as const) {
    test(`${route} as ${caller} → ${spec.expect[caller]}`, async ({ baseURL, playwright }) => {
      const admin = await adminApi(baseURL!);
      const setup = { admin, baseURL: baseURL! };
      const [method, template] = route.split(" ") as [Method, string];
      const target = spec.path ? await spec.path(setup) : template;
      const body = spec.body ? await spec.body(setup) : undefined;
      // Each case signs in afresh, so a sign-out case never ends a session another case uses.
      const api =
        caller === "anonymous"
          ? await playwright.request.newContext({ baseURL })
          : await signedInApi(baseURL!, spec.account ? await spec.account(setup, caller) : accounts()[caller]);
      const res = spec.multipart
        ? await api.fetch(target, { method, multipart: await spec.multipart(setup) })
        : spec.raw
          ? await api.fetch(target, { method, data: await spec.raw(setup), headers: { "content-type": "application/x-ndjson" } })
          : await api.fetch(target, { method, data: body });
      expect(res.status(), `${route} as ${caller}: ${await res.text()}`).toBe(spec.expect[caller]);
      if (res.status() >= 400) {
        const json = await res.json();
        expect(typeof json.error.code).toBe("string");
        expect(typeof json.error.message).toBe("string");
      }
      await api.dispose();
      await admin.dispose();
    });
  }
}

test("a bearer token acts as its coordinator, and a revoked one is refused at once", async ({ baseURL, playwright }) => {
  const admin = await adminApi(baseURL!);
  const created = await (await admin.post("/api/tokens", { data: { name: "bearer test" } })).json();
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${created.token.token}` } });
  expect((await api.get("/api/users")).status()).toBe(200);
  expect((await admin.delete(`/api/tokens/${created.token.id}`)).status()).toBe(200);
  const refused = await api.get("/api/users");
  expect(refused.status()).toBe(401);
  expect((await refused.json()).error.code).toBe("unauthorized");
  await api.dispose();
  await admin.dispose();
});

test("a cookie-authenticated POST from another site is refused", async ({ baseURL }) => {
  const api = await signedInApi(baseURL!, accounts().coordinator);
  const res = await api.post("/api/tokens", { data: { name: "csrf" }, headers: { origin: "https://evil.example" } });
  expect(res.status()).toBe(403);
  await api.dispose();
});

// Malformed JSON on every route that takes a body (or must take none), sent by a caller the route
// accepts: a 400 with the error shape, never a 500 and never silently ignored. The two import routes
// read JSONL files and answer bad lines with 422 and their line numbers (the bad-file corpus).
for (const [route, spec] of Object.entries(matrix)) {
  const [method] = route.split(" ") as [Method, string];
  if (method === "GET" || spec.multipart || spec.raw) continue;
  test(`${route} with malformed JSON → 400`, async ({ baseURL, playwright }) => {
    const admin = await adminApi(baseURL!);
    const setup = { admin, baseURL: baseURL! };
    const caller = (["coordinator", "annotator", "anonymous"] as const).find((c) => spec.expect[c] < 300) ?? "coordinator";
    const target = spec.path ? await spec.path(setup) : route.split(" ")[1]!;
    const api =
      caller === "anonymous"
        ? await playwright.request.newContext({ baseURL })
        : await signedInApi(baseURL!, spec.account ? await spec.account(setup, caller) : accounts()[caller]);
    const res = await api.fetch(target, { method, data: Buffer.from('{"not": json'), headers: { "content-type": "application/json" } });
    const answer = await res.text();
    expect(res.status(), `${route} as ${caller}: ${answer}`).toBe(400);
    expect(JSON.parse(answer).error).toMatchObject({ code: "bad_request", message: expect.stringContaining("not valid JSON") });
    await api.dispose();
    await admin.dispose();
  });
}

test("an oversized JSON body is a 413 with a message", async ({ baseURL }) => {
  const api = await signedInApi(baseURL!, accounts().coordinator);
  const res = await api.post("/api/campaigns", { data: { name: "big", instructions: "x".repeat(1_100_000) } });
  expect(res.status()).toBe(413);
  expect((await res.json()).error).toMatchObject({ code: "too_large", message: expect.stringContaining("larger than") });
  await api.dispose();
});

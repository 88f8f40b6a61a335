import { expect, test, type APIRequestContext } from "@playwright/test";
import { admits, CALLERS, refusedStatus, ROUTES, routeKey, type Caller, type Method, type RouteRow } from "../app/api/routes";
import { crowdCampaign, enterCrowd, trainWorker, type CrowdCampaign } from "./crowd-fixtures";
import { accounts, adminApi, createAccount, PASSWORD, signedInApi, unique } from "./fixtures";

/**
 * The authorization matrix: every row of the route table (app/api/routes.ts) × {anonymous,
 * annotator, coordinator, crowd worker}. `crowd`: a crowd worker's Bearer token (entered through the
 * crowd entry made below, consent given: in training). A caller the row's roles admit gets the case's
 * `ok`; one they do not, 401 (anonymous) or 403; `except` names the statuses the case's set-up makes
 * otherwise (e.g. the campaign or claim is not the caller's).
 */
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
  /** The status of a caller the row's roles admit. */
  ok: number;
  /** Callers whose status the case's set-up decides instead of the roles (each with its reason). */
  except?: Partial<Record<Caller, number>>;
}

/** The status a caller must get from a row's case. */
function expected(row: RouteRow, spec: Case, caller: Caller): number {
  return spec.except?.[caller] ?? (admits(row.roles, caller) ? spec.ok : refusedStatus(caller));
}

/**
 * This worker process's crowd campaign (generic platform, one training item), made once, for the
 * crowd routes and the crowd caller. Every crowd case enters a fresh worker whose session stays in
 * progress, about a hundred in all: the caps are raised past that (the entry limits are crowd-flood's).
 */
let sharedCrowd: Promise<CrowdCampaign> | undefined;
function crowdEntry({ baseURL }: Setup): Promise<CrowdCampaign> {
  sharedCrowd ??= (async () => {
    const admin = await adminApi(baseURL);
    const c = await crowdCampaign(admin, { prefix: "matrix-crowd", questions: 2, candidates: true, training: 1, crowd: { platform: "generic", trainingItems: 1, quota: 5, maxWorkers: 1000, maxSessionsInProgress: 1000 } });
    await admin.dispose();
    return c;
  })();
  return sharedCrowd;
}

/** A fresh crowd worker of the shared crowd entry, consent given (its session is in training), as an API context sending its Bearer token. */
async function crowdApi(setup: Setup): Promise<APIRequestContext> {
  const c = await crowdEntry(setup);
  const w = await enterCrowd(setup.baseURL, c.entryKey, { worker: unique("matrix-worker") });
  const consent = await w.api.post("/api/crowd/session/consent");
  expect(consent.status(), await consent.text()).toBe(200);
  return w.api;
}

/** The API context of a caller for a case (each signs in or enters afresh, so a sign-out case never ends a session another case uses). */
async function callerApi(caller: Caller, spec: Case, setup: Setup, playwright: { request: { newContext: (o: { baseURL: string }) => Promise<APIRequestContext> } }): Promise<APIRequestContext> {
  if (caller === "anonymous") return playwright.request.newContext({ baseURL: setup.baseURL });
  if (caller === "crowd") return crowdApi(setup);
  return signedInApi(setup.baseURL, spec.account ? await spec.account(setup, caller) : accounts()[caller]);
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

/** The KILT id of the one question of a runs campaign (ids are unique within a campaign; this one needs URL encoding). */
const RUN_QUESTION = "matrix run/q #1";

/** A new campaign with one question (RUN_QUESTION), for the runs routes. */
async function runsCampaign(setup: Setup): Promise<number> {
  const campaignId = await newCampaign(setup);
  const { queries } = await batchFiles(setup);
  const line = { ...JSON.parse(queries.buffer.toString()), id: RUN_QUESTION };
  const res = await setup.admin.post(`/api/campaigns/${campaignId}/batches`, { multipart: { queries: { ...queries, buffer: Buffer.from(JSON.stringify(line) + "\n") } } });
  expect(res.status(), await res.text()).toBe(201);
  return campaignId;
}

/** A run upload's parts for a runs campaign: a name and a guess predicting RUN_QUESTION. */
function runFiles() {
  const guess = { id: RUN_QUESTION, output: [{ answer: "one paragraph", provenance: [{ wikipedia_id: "matrix", start_paragraph_id: 1, end_paragraph_id: 1 }] }] };
  return Promise.resolve({ name: unique("matrix-run"), guess: { name: "guess.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(JSON.stringify(guess) + "\n") } });
}

/** A runs campaign with one run uploaded: its paths' prefix `/api/campaigns/:id/runs/:runId`. */
async function runPath(setup: Setup): Promise<string> {
  const campaignId = await runsCampaign(setup);
  const res = await setup.admin.post(`/api/campaigns/${campaignId}/runs`, { multipart: await runFiles() });
  expect(res.status(), await res.text()).toBe(201);
  return `/api/campaigns/${campaignId}/runs/${(await res.json()).run.id}`;
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

/** A new campaign with one imported question: its id, the question's id and its (gold) passage's id, as a script finds them. */
async function campaignPassage(setup: Setup): Promise<{ campaignId: number; queryId: number; passageId: number }> {
  const batchId = await draftBatch(setup);
  const campaignId = (await (await setup.admin.get(`/api/batches/${batchId}`)).json()).batch.campaignId;
  const queryId = (await (await setup.admin.get(`/api/campaigns/${campaignId}/questions`)).json()).questions[0].id;
  const view = await setup.admin.get(`/api/campaigns/${campaignId}/questions/${queryId}`);
  expect(view.status(), await view.text()).toBe(200);
  return { campaignId, queryId, passageId: (await view.json()).question.passages[0].id };
}

/** The adjudication path of a passage (above) that already has a live decision when `decided`. */
async function adjudicationPath(setup: Setup, decided: boolean): Promise<string> {
  const { campaignId, passageId } = await campaignPassage(setup);
  const path = `/api/campaigns/${campaignId}/passages/${passageId}/adjudication`;
  if (decided) {
    const res = await setup.admin.put(path, { data: { decision: "reject", reason: "matrix: to revert" } });
    expect(res.status(), await res.text()).toBe(200);
  }
  return path;
}

/** A draft batch in a new campaign. */
async function draftBatch(setup: Setup): Promise<number> {
  const campaignId = await newCampaign(setup);
  const res = await setup.admin.post(`/api/campaigns/${campaignId}/batches`, { multipart: await batchFiles(setup) });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).batch.id;
}

/**
 * How to call each row of the route table: its concrete path, its body and the status of an admitted
 * caller. A row without a case fails the first test below (and a handler without a row fails
 * test/api-routes.test.ts).
 */
const cases: Record<string, Case> = {
  "GET /api/health": { ok: 200 },
  "POST /api/auth/sign-in": {
    body: async ({ admin }) => ({ username: await createAccount(admin, "annotator", "signin"), password: PASSWORD }),
    ok: 200,
  },
  "POST /api/auth/sign-out": { body: () => ({}), ok: 200 },
  "GET /api/me": { ok: 200 },
  "POST /api/setup": {
    body: () => ({ username: unique("setup"), password: PASSWORD }),
    // Anyone may, but only while there is no user: here there is one.
    ok: 409,
  },
  "GET /api/users": { ok: 200 },
  "POST /api/users": {
    body: () => ({ username: unique("matrix"), role: "annotator", password: PASSWORD }),
    ok: 201,
  },
  "GET /api/tokens": { path: () => "/api/tokens?q=matrix&limit=5", ok: 200 },
  "POST /api/tokens": { body: () => ({ name: "matrix" }), ok: 201 },
  "DELETE /api/tokens/[id]": {
    path: async ({ admin }) => {
      const res = await admin.post("/api/tokens", { data: { name: "to revoke" } });
      return `/api/tokens/${(await res.json()).token.id}`;
    },
    ok: 200,
  },
  "GET /api/campaigns": { ok: 200 },
  "POST /api/campaigns": { body: () => ({ name: unique("matrix") }), ok: 201 },
  "GET /api/campaigns/[id]": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}`,
    ok: 200,
  },
  "PATCH /api/campaigns/[id]": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}`,
    body: () => ({ showAnswers: true }),
    ok: 200,
  },
  "PUT /api/campaigns/[id]/members": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/members`,
    body: () => ({ allAnnotators: false, userIds: [] }),
    ok: 200,
  },
  "GET /api/campaigns/[id]/crowd": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/crowd`,
    ok: 200,
  },
  "PUT /api/campaigns/[id]/crowd": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/crowd`,
    body: () => ({ enabled: true, quota: 6 }),
    ok: 200,
  },
  "GET /api/campaigns/[id]/batches": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/batches?q=matrix&limit=5`,
    ok: 200,
  },
  "POST /api/campaigns/[id]/batches": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/batches`,
    multipart: batchFiles,
    ok: 201,
  },
  "GET /api/batches/[id]": {
    path: async (s) => `/api/batches/${await draftBatch(s)}`,
    ok: 200,
  },
  "POST /api/batches/[id]/[action]": {
    path: async (s) => `/api/batches/${await draftBatch(s)}/launch`,
    ok: 200,
  },
  "GET /api/campaigns/[id]/judgments": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/judgments`,
    ok: 200,
  },
  "POST /api/campaigns/[id]/next": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/next`,
    // The crowd caller's session is in another campaign: not found (everywhere below too).
    ok: 204, except: { crowd: 404 },
  },
  // ── issue 16: propose or explain (finer cases: e2e/propose-explain-api.spec.ts) ──
  "GET /api/campaigns/[id]/ask": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/ask`,
    ok: 200, except: { crowd: 404 }, // the crowd caller's campaign is another
  },
  "POST /api/campaigns/[id]/proposals": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/proposals`,
    // Authorized, then checked: the page does not exist (an annotator gets that far).
    body: () => ({
      queryId: "matrix-q",
      wikipediaId: unique("matrix-no-page"),
      startParagraphId: 1,
      endParagraphId: 1,
      span: { startParagraphId: 1, startCharacter: 0, endParagraphId: 1, endCharacter: 2, text: "It" },
    }),
    ok: 422, except: { crowd: 404 }, // the crowd caller's campaign is another
  },
  "POST /api/campaigns/[id]/explanations": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/explanations`,
    // Authorized, then checked: no such question in the campaign.
    body: () => ({ queryId: "matrix-q", reason: "ambiguous", text: "" }),
    ok: 422, except: { crowd: 404 }, // the crowd caller's campaign is another
  },
  "POST /api/claims/[handle]/renew": {
    path: async (s) => `/api/claims/${await someoneElsesClaim(s)}/renew`,
    // The claim is someone else's: its owner's role is not theirs.
    ok: 200, except: { annotator: 403, crowd: 403 },
  },
  "POST /api/claims/[handle]/judgment": {
    path: async (s) => `/api/claims/${await someoneElsesClaim(s)}/judgment`,
    body: () => ({ verdict: "insufficient", span: null, durationMs: 1000, idempotencyKey: unique("matrix-key") }),
    ok: 201, except: { annotator: 403, crowd: 403 }, // someone else's claim
  },
  // ── issue 14: undo, history, notes (finer cases: e2e/my-judgments-authz.spec.ts) ──
  "PUT /api/claims/[handle]/judgment": {
    path: async (s) => `/api/claims/${await someoneElsesClaim(s)}/judgment`,
    body: () => ({ verdict: "insufficient", span: null, durationMs: 1000, idempotencyKey: unique("matrix-key"), revision: 0 }),
    ok: 200, except: { annotator: 404, crowd: 404 }, // someone else's claim: none of theirs to revise
  },
  "GET /api/campaigns/[id]/my-judgments": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/my-judgments?limit=5`,
    // A crowd worker has no history of judgments to revise (not even in their own campaign): 403.
    ok: 200,
  },
  "GET /api/campaigns/[id]/export": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/export?location=passage`,
    ok: 200,
  },
  "GET /api/campaigns/[id]/export/report": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/export/report`,
    ok: 200,
  },
  "GET /api/campaigns/[id]/dashboard": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/dashboard`,
    ok: 200,
  },
  "GET /api/campaigns/[id]/questions": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/questions?show=unanswerable&q=a`,
    ok: 200,
  },
  "GET /api/campaigns/[id]/questions/[queryId]": {
    path: async (s) => {
      const { campaignId, queryId } = await campaignPassage(s);
      return `/api/campaigns/${campaignId}/questions/${queryId}`;
    },
    ok: 200,
  },
  // ── issue 26: the coordinator's decision on a passage (adjudication) ──
  "PUT /api/campaigns/[id]/passages/[passageId]/adjudication": {
    path: (s) => adjudicationPath(s, false),
    body: () => ({ decision: "reject", reason: "matrix: not evidence" }),
    ok: 200,
  },
  "DELETE /api/campaigns/[id]/passages/[passageId]/adjudication": {
    path: (s) => adjudicationPath(s, true),
    ok: 200,
  },
  "GET /api/campaigns/[id]/adjudications": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/adjudications?reverted=1`,
    ok: 200,
  },
  "GET /api/campaigns/[id]/annotators": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/annotators?sort=medianSeconds&dir=desc&q=a&limit=5`,
    ok: 200,
  },
  "POST /api/campaigns/[id]/annotators/[userId]/[action]": {
    path: async (s) => {
      const res = await s.admin.post("/api/users", { data: { username: unique("paused"), role: "annotator", password: PASSWORD } });
      return `/api/campaigns/${await newCampaign(s)}/annotators/${(await res.json()).user.id}/pause`;
    },
    ok: 200,
  },
  "GET /api/campaigns/[id]/annotators/[userId]": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/annotators/${await newAnnotatorId(s)}`,
    ok: 200,
  },
  "GET /api/campaigns/[id]/annotators/[userId]/judgments": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/annotators/${await newAnnotatorId(s)}/judgments?gold=1&limit=5`,
    ok: 200,
  },
  // ── issue 26: negative gold and decoys ──
  "GET /api/campaigns/[id]/suspect-decoys": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/suspect-decoys?limit=5`,
    ok: 200,
  },
  "GET /api/campaigns/[id]/annotator-warnings": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/annotator-warnings`,
    ok: 200,
  },
  // ── issue 15: the payment report ──
  "GET /api/campaigns/[id]/workers": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/workers?q=a&outcome=completed&limit=5`,
    ok: 200,
  },
  // The caller's own progress: annotators of the campaign only (every annotator works on a new campaign).
  "GET /api/campaigns/[id]/my-progress": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/my-progress`,
    ok: 200, except: { crowd: 404 }, // the crowd caller's campaign is another
  },
  // ── issue 17: runs and the leaderboard ──
  "GET /api/campaigns/[id]/runs": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/runs`,
    ok: 200,
  },
  "POST /api/campaigns/[id]/runs": {
    path: async (s) => `/api/campaigns/${await runsCampaign(s)}/runs`,
    multipart: runFiles,
    ok: 201,
  },
  "DELETE /api/campaigns/[id]/runs/[runId]": {
    path: runPath,
    ok: 204,
  },
  "GET /api/campaigns/[id]/runs/[runId]/results": {
    path: async (s) => `${await runPath(s)}/results`,
    ok: 200,
  },
  "GET /api/campaigns/[id]/runs/[runId]/questions": {
    path: async (s) => `${await runPath(s)}/questions?q=matrix&limit=5&level=paragraph`,
    ok: 200,
  },
  "GET /api/campaigns/[id]/runs/[runId]/questions/[kiltId]": {
    path: async (s) => `${await runPath(s)}/questions/${encodeURIComponent(RUN_QUESTION)}?level=page`,
    ok: 200,
  },
  "GET /api/campaigns/[id]/leaderboard": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/leaderboard?level=paragraph&ks=1,5`,
    ok: 200,
  },
  "POST /api/knowledge": {
    raw: () => pageLine(unique("matrix-page")),
    ok: 201,
  },
  "GET /api/knowledge/search": {
    path: () => "/api/knowledge/search?q=Matrix&mode=title&limit=5",
    ok: 200,
  },
  "GET /api/knowledge/pages/[wikipediaId]": {
    path: async ({ admin }) => {
      const wikipediaId = unique("matrix-page");
      expect((await admin.post("/api/knowledge?name=matrix.jsonl", { data: pageLine(wikipediaId), headers: { "content-type": "application/x-ndjson" } })).status()).toBe(201);
      return `/api/knowledge/pages/${encodeURIComponent(wikipediaId)}`;
    },
    ok: 200,
  },
  "GET /api/knowledge/index": { ok: 200 },
  "POST /api/knowledge/index": { body: () => ({}), ok: 202 },
  "POST /api/invites": { body: () => ({ role: "annotator" }), ok: 201 },
  "POST /api/invites/accept": {
    body: async ({ admin }) => {
      const res = await admin.post("/api/invites", { data: { role: "annotator" } });
      const url: string = (await res.json()).invite.url;
      return { token: url.split("/invite/")[1], username: unique("accepted"), password: PASSWORD };
    },
    ok: 201,
  },
  // ── issue 12: accounts ──
  "POST /api/users/[id]/disable": {
    path: async ({ admin }) => `/api/users/${await freshUserId(admin)}/disable`,
    ok: 200,
  },
  "POST /api/users/[id]/enable": {
    path: async ({ admin }) => {
      const id = await freshUserId(admin);
      expect((await admin.post(`/api/users/${id}/disable`)).status()).toBe(200);
      return `/api/users/${id}/enable`;
    },
    ok: 200,
  },
  "PUT /api/users/[id]/password": {
    path: async ({ admin }) => `/api/users/${await freshUserId(admin)}/password`,
    body: () => ({ password: "matrix-set-password" }),
    ok: 200,
  },
  "POST /api/users/[id]/reset-link": {
    path: async ({ admin }) => `/api/users/${await freshUserId(admin)}/reset-link`,
    body: () => ({}),
    ok: 201,
  },
  "PUT /api/me/password": {
    account: ({ admin }, role) => createAccount(admin, role, "matrix-own"),
    body: () => ({ currentPassword: PASSWORD, newPassword: "matrix-new-password" }),
    // A crowd account has no password (409, before any attempt is recorded).
    ok: 200, except: { crowd: 409 },
  },
  "GET /api/me/shortcuts": { ok: 200 },
  "PUT /api/me/shortcuts": {
    account: ({ admin }, role) => createAccount(admin, role, "matrix-shortcuts"),
    body: () => ({ enabled: false, keys: { sufficient: "y" } }),
    ok: 200,
  },
  "POST /api/auth/sign-out-everywhere": {
    account: ({ admin }, role) => createAccount(admin, role, "matrix-everywhere"),
    ok: 200,
  },
  "GET /api/audit": {
    path: () => "/api/audit?limit=5&order=asc&since=2026-01-01",
    ok: 200,
  },
  // ── issue 15: crowd entry and sessions (anyone with the link enters; the session routes are the crowd worker's own) ──
  "GET /api/crowd/[key]": {
    path: async (s) => `/api/crowd/${(await crowdEntry(s)).entryKey}`,
    ok: 200,
  },
  "POST /api/crowd/[key]/enter": {
    path: async (s) => `/api/crowd/${(await crowdEntry(s)).entryKey}/enter`,
    body: () => ({ worker: unique("matrix-enter") }),
    ok: 200,
  },
  "GET /api/crowd/session": { ok: 200 },
  "POST /api/crowd/session/consent": { ok: 200 },
  "GET /api/crowd/session/training": { ok: 200 },
  "POST /api/crowd/session/training": {
    body: () => ({ position: 0, verdict: "insufficient", span: null, durationMs: 3000 }),
    ok: 200,
  },
};

/** A new annotator's id, for the routes under /api/users/:id. */
async function freshUserId(admin: APIRequestContext): Promise<number> {
  const res = await admin.post("/api/users", { data: { username: unique("matrix-target"), role: "annotator", password: PASSWORD } });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).user.id;
}

test("the authorization matrix has a case for every row of the route table", () => {
  expect(Object.keys(cases).sort()).toEqual(ROUTES.map(routeKey).sort());
});

for (const row of ROUTES) {
  const route = routeKey(row);
  const spec = cases[route];
  if (!spec) continue;
  for (const caller of CALLERS) {
    const status = expected(row, spec, caller);
    test(`${route} as ${caller} → ${status}`, async ({ baseURL, playwright }) => {
      const admin = await adminApi(baseURL!);
      const setup = { admin, baseURL: baseURL! };
      const method: Method = row.method;
      const target = spec.path ? await spec.path(setup) : row.path;
      const body = spec.body ? await spec.body(setup) : undefined;
      const api = await callerApi(caller, spec, setup, playwright);
      const res = spec.multipart
        ? await api.fetch(target, { method, multipart: await spec.multipart(setup) })
        : spec.raw
          ? await api.fetch(target, { method, data: await spec.raw(setup), headers: { "content-type": "application/x-ndjson" } })
          : await api.fetch(target, { method, data: body });
      expect(res.status(), `${route} as ${caller}: ${await res.text()}`).toBe(status);
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

test("a crowd worker's token names their own session only: never another worker's session or claim, another campaign, or a coordinator's list", async ({ baseURL, playwright }) => {
  const admin = await adminApi(baseURL!);
  const c = await crowdEntry({ admin, baseURL: baseURL! });
  const other = await crowdCampaign(admin, { prefix: "matrix-other", questions: 1, training: 0, crowd: { platform: "generic", trainingItems: 0 } });
  const aId = unique("worker-a");
  const bId = unique("worker-b");
  const a = await enterCrowd(baseURL!, c.entryKey, { worker: aId });
  const b = await enterCrowd(baseURL!, c.entryKey, { worker: bId });
  expect((await a.api.post("/api/crowd/session/consent")).status()).toBe(200);
  expect((await trainWorker(a.api))?.session.stage).toBe("working");

  // Each token reads its own session, whatever the query names; the answers carry no platform id.
  for (const query of ["", `?worker=${bId}`, `?user=1&session=1&worker=${bId}`]) {
    const mine = await a.api.get(`/api/crowd/session${query}`);
    expect(mine.status()).toBe(200);
    const text = await mine.text();
    expect(JSON.parse(text)).toMatchObject({ stage: "working", campaignId: c.campaignId });
    expect(text).not.toContain(aId);
    expect(text).not.toContain(bId);
    expect((await (await b.api.get(`/api/crowd/session${query}`)).json()).stage).toBe("consent");
  }
  // b's consent moves b's session only.
  expect((await (await b.api.post("/api/crowd/session/consent")).json()).stage).toBe("training");
  expect((await (await a.api.get("/api/crowd/session")).json()).stage).toBe("working");

  // a's claim is a's: b can neither judge nor renew it.
  const next = await a.api.post(`/api/campaigns/${c.campaignId}/next`);
  expect(next.status(), await next.text()).toBe(200);
  const handle: string = (await next.json()).claim.handle;
  const judgment = { verdict: "insufficient", span: null, durationMs: 3000, idempotencyKey: unique("k") };
  expect((await b.api.post(`/api/claims/${handle}/judgment`, { data: judgment })).status()).toBe(403);
  expect((await b.api.post(`/api/claims/${handle}/renew`)).status()).toBe(403);

  // Another campaign, even one with a crowd entry of its own: not found; the coordinator's routes: forbidden, own campaign included.
  for (const path of [`/api/campaigns/${other.campaignId}/next`]) expect((await a.api.post(path)).status(), path).toBe(404);
  expect((await a.api.get(`/api/campaigns/${other.campaignId}/my-progress`)).status()).toBe(404);
  for (const path of ["/api/campaigns", `/api/campaigns/${c.campaignId}`, `/api/campaigns/${other.campaignId}/my-judgments`, `/api/campaigns/${other.campaignId}/dashboard`, `/api/campaigns/${c.campaignId}/workers`, `/api/campaigns/${c.campaignId}/annotators`, "/api/users"]) {
    expect((await a.api.get(path)).status(), path).toBe(403);
  }
  // Its own campaign, as an annotator's: the claim given above is judged.
  expect((await a.api.post(`/api/claims/${handle}/judgment`, { data: judgment })).status()).toBe(201);
  expect((await a.api.get(`/api/campaigns/${c.campaignId}/my-progress`)).status()).toBe(200);
  // Propose or explain is never asked of a crowd worker, and refused if tried.
  const ask = await a.api.get(`/api/campaigns/${c.campaignId}/ask`);
  expect(ask.status(), await ask.text()).toBe(200);
  expect(await ask.json()).toEqual({ ask: null });
  const explained = await a.api.post(`/api/campaigns/${c.campaignId}/explanations`, { data: { queryId: "q", reason: "ambiguous", text: "" } });
  expect(explained.status(), await explained.text()).toBe(403);

  // A made-up crowd token is nobody.
  const bogus = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { authorization: "Bearer kpsw_not-a-session" } });
  expect((await bogus.get("/api/crowd/session")).status()).toBe(401);
  await Promise.all([a.api.dispose(), b.api.dispose(), bogus.dispose(), admin.dispose()]);
});

test("a cookie-authenticated POST from another site is refused", async ({ baseURL }) => {
  const api = await signedInApi(baseURL!, accounts().coordinator);
  const res = await api.post("/api/tokens", { data: { name: "csrf" }, headers: { origin: "https://evil.example" } });
  expect(res.status()).toBe(403);
  await api.dispose();
});

// Malformed JSON on every route that takes a body (or must take none), sent by a caller the route
// accepts: a 400 with the error shape, never a 500 and never silently ignored. The upload routes
// (imports, runs) read JSONL files and answer bad lines with 422 and their line numbers (the bad-file corpus).
for (const row of ROUTES) {
  const route = routeKey(row);
  const spec = cases[route];
  if (!spec || row.method === "GET" || spec.multipart || spec.raw) continue;
  test(`${route} with malformed JSON → 400`, async ({ baseURL, playwright }) => {
    const admin = await adminApi(baseURL!);
    const setup = { admin, baseURL: baseURL! };
    const caller = (["coordinator", "annotator", "anonymous", "crowd"] as const).find((c) => expected(row, spec, c) < 300) ?? "coordinator";
    const target = spec.path ? await spec.path(setup) : row.path;
    const api = await callerApi(caller, spec, setup, playwright);
    const res = await api.fetch(target, { method: row.method, data: Buffer.from('{"not": json'), headers: { "content-type": "application/json" } });
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

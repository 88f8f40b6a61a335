/**
 * The authorization matrix: every row of the route table (app/api/routes.ts) × {anonymous,
 * annotator, coordinator, crowd worker}. `crowd`: a crowd worker's Bearer token (entered through the
 * crowd entry made below, consent given: in training). A caller the row's roles admit gets the case's
 * `ok`; one they do not, 401 (anonymous) or 403; `except` names the statuses the case's set-up makes
 * otherwise (e.g. the campaign or claim is not the caller's).
 *
 * The cases are split as the route table is, one file per subject beside this one (accounts.ts for
 * app/api/routes/accounts.ts, …), gathered with their rows in subjects.ts; each subject's tests are
 * one file, test/http/authz-<subject>.http.ts (`authzMatrix(SUBJECTS.<subject>)`), so that the
 * subjects run in parallel. test/http/authz.http.ts holds the subjects to the route table.
 */
import { request, type APIRequestContext } from "@playwright/test";
import { afterAll, expect, inject, test } from "vitest";
import { admits, CALLERS, refusedStatus, routeKey, type Caller, type Method, type RouteRow } from "@/app/api/routes";
import { crowdCampaign, enterCrowd, type CrowdCampaign } from "../../../e2e/crowd-fixtures";
import { adminApi, signedInApi, unique } from "../../../e2e/fixtures";

export interface Setup {
  admin: APIRequestContext;
  baseURL: string;
}

export interface Case {
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

/** How to call each row of a subject, by its key (`METHOD /path`). */
export type Cases = Record<string, Case>;

/** The status a caller must get from a row's case. */
export function expected(row: RouteRow, spec: Case, caller: Caller): number {
  return spec.except?.[caller] ?? (admits(row.roles, caller) ? spec.ok : refusedStatus(caller));
}

/**
 * This test file's crowd campaign (generic platform, one training item), made once, for the crowd
 * routes and the crowd caller. Every crowd case enters a fresh worker whose session stays in progress,
 * a few dozen per file: the caps are raised past that (the entry limits are crowd-flood's).
 */
let sharedCrowd: Promise<CrowdCampaign> | undefined;
export function crowdEntry({ baseURL }: Setup): Promise<CrowdCampaign> {
  sharedCrowd ??= (async () => {
    const admin = await adminApi(baseURL);
    const c = await crowdCampaign(admin, {
      prefix: "matrix-crowd",
      questions: 2,
      candidates: true,
      training: 1,
      crowd: { platform: "generic", trainingItems: 1, quota: 5, maxWorkers: 1000, maxSessionsInProgress: 1000 },
    });
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
async function callerApi(caller: Caller, spec: Case, setup: Setup): Promise<APIRequestContext> {
  if (caller === "anonymous") return request.newContext({ baseURL: setup.baseURL });
  if (caller === "crowd") return crowdApi(setup);
  return signedInApi(setup.baseURL, spec.account ? await spec.account(setup, caller) : inject("accounts")[caller]);
}

/**
 * The admin's API context that makes every case's data, signed in once per test file (the admin is
 * never a case's caller, so sharing its session changes no case; each caller still signs in afresh).
 */
let sharedAdmin: Promise<APIRequestContext> | undefined;
function adminOf(baseURL: string): Promise<APIRequestContext> {
  sharedAdmin ??= adminApi(baseURL);
  return sharedAdmin;
}

/**
 * A subject's tests: each of its rows as each kind of caller, then malformed JSON on each of its rows
 * that takes a body (or must take none). A row without a case is skipped here and fails
 * test/http/authz.http.ts.
 */
export function authzMatrix({ rows, cases }: { rows: readonly RouteRow[]; cases: Cases }): void {
  const baseURL = inject("baseURL");
  afterAll(async () => (await sharedAdmin)?.dispose());
  for (const row of rows) {
    const route = routeKey(row);
    const spec = cases[route];
    if (!spec) continue;
    for (const caller of CALLERS) {
      const status = expected(row, spec, caller);
      test.concurrent(`${route} as ${caller} → ${status}`, async ({ expect }) => {
        const admin = await adminOf(baseURL);
        const setup = { admin, baseURL };
        const method: Method = row.method;
        const target = spec.path ? await spec.path(setup) : row.path;
        const body = spec.body ? await spec.body(setup) : undefined;
        const api = await callerApi(caller, spec, setup);
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
      });
    }
  }

  // Malformed JSON on every route that takes a body (or must take none), sent by a caller the route
  // accepts: a 400 with the error shape, never a 500 and never silently ignored. The upload routes
  // (imports, runs) read JSONL files and answer bad lines with 422 and their line numbers (the bad-file corpus).
  for (const row of rows) {
    const route = routeKey(row);
    const spec = cases[route];
    if (!spec || row.method === "GET" || spec.multipart || spec.raw) continue;
    test.concurrent(`${route} with malformed JSON → 400`, async ({ expect }) => {
      const admin = await adminOf(baseURL);
      const setup = { admin, baseURL };
      const caller =
        (["coordinator", "annotator", "anonymous", "crowd"] as const).find((c) => expected(row, spec, c) < 300) ?? "coordinator";
      const target = spec.path ? await spec.path(setup) : row.path;
      const api = await callerApi(caller, spec, setup);
      const res = await api.fetch(target, {
        method: row.method,
        data: Buffer.from('{"not": json'),
        headers: { "content-type": "application/json" },
      });
      const answer = await res.text();
      expect(res.status(), `${route} as ${caller}: ${answer}`).toBe(400);
      expect(JSON.parse(answer).error).toMatchObject({ code: "bad_request", message: expect.stringContaining("not valid JSON") });
      await api.dispose();
    });
  }
}

/** A campaign made by the admin, for routes under /api/campaigns/:id. */
export async function newCampaign({ admin }: Setup): Promise<number> {
  const res = await admin.post("/api/campaigns", { data: { name: unique("matrix campaign") } });
  return (await res.json()).campaign.id;
}

/** A one-page knowledge file with a page id no other run used. */
export function pageLine(wikipediaId: string): Buffer {
  return Buffer.from(
    JSON.stringify({ wikipedia_id: wikipediaId, wikipedia_title: "Matrix page", text: ["Matrix page\n", "It has one paragraph.\n"] }) +
      "\n",
  );
}

/** A knowledge page the admin imported, by a page id no other run used; its id. */
export async function importedPage({ admin }: Setup): Promise<string> {
  const wikipediaId = unique("matrix-page");
  expect(
    (
      await admin.post("/api/knowledge?name=matrix.jsonl", {
        data: pageLine(wikipediaId),
        headers: { "content-type": "application/x-ndjson" },
      })
    ).status(),
  ).toBe(201);
  return wikipediaId;
}

/** A batch upload whose pages exist: imports a page first, then returns the questions file. */
export async function batchFiles(setup: Setup) {
  const wikipediaId = await importedPage(setup);
  const line = {
    id: unique("q"),
    input: "what does the matrix page say",
    output: [{ answer: "one paragraph", provenance: [{ wikipedia_id: wikipediaId, start_paragraph_id: 1, end_paragraph_id: 1 }] }],
  };
  return { queries: { name: "queries.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(JSON.stringify(line) + "\n") } };
}

/** A draft batch in a new campaign. */
export async function draftBatch(setup: Setup): Promise<number> {
  const campaignId = await newCampaign(setup);
  const res = await setup.admin.post(`/api/campaigns/${campaignId}/batches`, { multipart: await batchFiles(setup) });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).batch.id;
}

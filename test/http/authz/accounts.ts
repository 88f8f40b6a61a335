// The authorization matrix's cases for app/api/routes/accounts.ts: health, signing in, the caller's own
// account, people, the audit log, tokens and invites (matrix.ts explains a case).
import type { APIRequestContext } from "@playwright/test";
import { expect } from "vitest";
import { createAccount, PASSWORD, unique } from "../../../e2e/fixtures";
import type { Cases } from "./matrix";

/** A new annotator's id, for the routes under /api/users/:id. */
async function freshUserId(admin: APIRequestContext): Promise<number> {
  const res = await admin.post("/api/users", { data: { username: unique("matrix-target"), role: "annotator", password: PASSWORD } });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).user.id;
}

export const accountCases: Cases = {
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
    ok: 200,
    except: { crowd: 409 },
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
};
